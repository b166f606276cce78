import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import type { ClientContext } from '../../../electron/host/rpc/router';
import type { ProjectEntry } from '../../../shared/protocol/commands/projects';
import { runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';
import { makeRepo } from './git-fixture';

// Remote projects (issue #29 part 1) as the user adds and sees them: `mewbo projects`, configs/app.json
// `remote_projects`, `mewbo run --project URL`'s checks, and the protocol's project list. Nothing here
// reaches an SSH host: listing a remote project must not touch a local disk or run git either.

let tmp: { dir: string; cleanup: () => void };
let home: string;
beforeEach(() => {
  tmp = tempDir('mewbo-remote-proj-');
  tmp.dir = realpathSync(tmp.dir);
  home = join(tmp.dir, 'home');
});
afterEach(() => tmp.cleanup());

const mewbo = (args: string[]) => runMewbo(args, { cwd: tmp.dir, env: { MEWBO_HOME: home } });

function writeConfig(config: unknown): void {
  mkdirSync(join(home, 'configs'), { recursive: true });
  writeFileSync(join(home, 'configs', 'app.json'), JSON.stringify(config));
}

async function listed(): Promise<ProjectEntry[]> {
  const r = await mewbo(['projects', 'list', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ProjectEntry[];
}

describe('mewbo projects with ssh:// URLs', () => {
  it('adds a remote project, lists it with its host as disconnected, and removes it', async () => {
    const added = await mewbo(['projects', 'add', 'ssh://ana@build-box:2222/srv/app']);
    expect(added).toMatchObject({ code: 0, stdout: 'remote:app\n' });
    expect(await listed()).toEqual([
      expect.objectContaining({
        key: 'remote:app',
        kind: 'remote',
        name: 'app',
        path: null,
        available: false,
        remote: {
          url: 'ssh://ana@build-box:2222/srv/app',
          host: 'build-box',
          user: 'ana',
          port: 2222,
          path: '/srv/app',
          state: 'disconnected',
          host_key: null,
          // Nothing was contacted: the host's git has not been asked.
          changed_files: null,
        },
      }),
    ]);
    const plain = await mewbo(['projects', 'list']);
    expect(plain.stdout).toBe(
      'remote:app\tremote\tssh://ana@build-box:2222/srv/app\tdisconnected\n',
    );
    expect(await mewbo(['projects', 'remove', 'remote:app'])).toMatchObject({ code: 0 });
    expect(await listed()).toEqual([]);
  });

  it('the same target spelt another way is the same project', async () => {
    await mewbo(['projects', 'add', 'ssh://gpu/home/ana/model', '--name', 'Model']);
    const again = await mewbo(['projects', 'add', 'SSH://gpu//home/ana/model/']);
    expect(again).toMatchObject({ code: 0, stdout: 'remote:model\n' });
    expect(await listed()).toEqual([
      expect.objectContaining({ key: 'remote:model', name: 'Model' }),
    ]);
  });

  it('a bad URL is a usage error naming what is wrong, and nothing is registered', async () => {
    const hostile = await mewbo(['projects', 'add', 'ssh://-oProxyCommand=sh/srv']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toContain("host '-oProxyCommand=sh' starts with '-'");
    const relative = await mewbo(['projects', 'add', 'ssh://box/~/app']);
    expect(relative.code).toBe(2);
    expect(relative.stderr).toContain('the path must be absolute');
    expect(await listed()).toEqual([]);
  });

  it('a remote project in configs/app.json is listed as configured and cannot be removed here', async () => {
    writeConfig({
      remote_projects: { lab: { url: 'ssh://lab.example/data/run', description: 'Lab' } },
    });
    expect(await listed()).toEqual([
      expect.objectContaining({
        key: 'lab',
        kind: 'configured',
        name: 'lab',
        description: 'Lab',
        remote: expect.objectContaining({ host: 'lab.example', path: '/data/run' }),
      }),
    ]);
    const removed = await mewbo(['projects', 'remove', 'lab']);
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain('configured in configs/app.json');
  });

  it('configs/app.json with a bad remote URL, or a remote name a local project has, names the key', async () => {
    writeConfig({ remote_projects: { lab: { url: 'ssh://lab:99999/x' } } });
    const bad = await mewbo(['projects', 'list']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/remote_projects\.lab\.url.*port 99999 is outside 1-65535/);
    writeConfig({
      projects: { lab: { path: tmp.dir } },
      remote_projects: { lab: { url: 'ssh://lab/x' } },
    });
    const clash = await mewbo(['projects', 'list']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('"lab" already names a project in "projects"');
  });

  it('mewbo run refuses a malformed remote URL as --project as a usage error', async () => {
    const hostile = await mewbo(['run', '--project', 'ssh://box:0/srv', 'hello']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toContain('--project: "ssh://box:0/srv" is not a remote project URL');
  });
});

describe('remote projects over the protocol', () => {
  let host: Host;
  const client: ClientContext = { clientId: 'test', transport: 'local' };
  beforeEach(async () => {
    host = await Host.create({ env: { ...process.env, MEWBO_HOME: home } });
  });
  afterEach(async () => host.dispose());

  async function ok<T>(method: string, params: unknown): Promise<T> {
    const r = await host.router.invoke(method, params, client);
    if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
    return r.value as T;
  }

  it('a remote path that is also a local git repository is never scanned locally', async () => {
    const local = makeRepo(tmp.dir, 'same-path', 'git@github.com:acme/local.git');
    const { project } = await ok<{ project: ProjectEntry }>('projects.addRemote', {
      url: `ssh://box${local}`,
    });
    expect(project).toMatchObject({ path: null, repo: null, branch: null, available: false });
    expect(project.remote).toMatchObject({ host: 'box', path: local });
  });

  it('the link state the remote part sets for a host is pushed on the projects topic', async () => {
    const { project } = await ok<{ project: ProjectEntry }>('projects.addRemote', {
      url: 'ssh://box/srv/app',
    });
    const pushed: { projects: ProjectEntry[] }[] = [];
    const sub = await host.router.subscribe(
      'projects',
      undefined,
      (d) => pushed.push(d as { projects: ProjectEntry[] }),
      client,
    );
    await host.projects.setHostState('ssh://box/', 'connecting');
    await host.projects.setHostState('ssh://box/', 'connected');
    expect(pushed.map((l) => l.projects[0]!.remote!.state)).toEqual(['connecting', 'connected']);
    expect(pushed.at(-1)!.projects[0]!.available).toBe(true);
    expect(await host.projects.remoteTarget(project.key)).toEqual({
      host: 'box',
      path: '/srv/app',
    });
    await sub.dispose();
  });

  it('a host key that stopped the connection is listed with its fingerprint until the next state', async () => {
    await ok('projects.addRemote', { url: 'ssh://box/srv/app' });
    const refusal = {
      problem: 'unknown' as const,
      host: 'box',
      port: 22,
      fingerprint: 'SHA256:abc',
      destination: 'ssh://box/',
    };
    await host.projects.setHostState('ssh://box/srv/other', 'disconnected', refusal);
    const listed = await ok<{ projects: ProjectEntry[] }>('projects.list', {});
    expect(listed.projects[0]!.remote).toMatchObject({ state: 'disconnected', host_key: refusal });
    await host.projects.setHostState('ssh://box/', 'connecting');
    const after = await ok<{ projects: ProjectEntry[] }>('projects.list', {});
    expect(after.projects[0]!.remote).toMatchObject({ state: 'connecting', host_key: null });
  });

  it('a session on a remote project works in the path on the host, and never moves into one', async () => {
    const { project } = await ok<{ project: ProjectEntry }>('projects.addRemote', {
      url: 'ssh://box/srv/app',
    });
    const { session } = await ok<{ session: { id: string } }>('sessions.create', {
      project: project.key,
    });
    expect((await host.sessions.get(session.id)).meta).toMatchObject({
      project: project.key,
      root: '/srv/app',
      remote: 'ssh://box/srv/app',
    });
    // switch_project would move a session's tools from here to the host: refused.
    const err = await host.projects.resolveFolder(project.key).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'remote_project' });
    expect(String(err)).toContain('on the SSH host box');
  });

  it('a malformed URL is refused with invalid_url', async () => {
    const r = await host.router.invoke('projects.addRemote', { url: 'ssh:///srv' }, client);
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'invalid_url', message: expect.stringContaining('the host is empty') },
    });
  });
});
