import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/protocol/events';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';
import { addWorktree, gitIn, makeRepo } from '../../integration/projects/git-fixture';

// Route 5 again, through every feature of the host that runs git (issue #25 part 8): checkpoints
// once ran `git` by name, so a git a shell planted first on PATH ran as the host. Here one is
// planted in the user's ~/.local/bin and in the project's node_modules/.bin, both ahead on the
// PATH `mewbo serve` and `mewbo sessions` start with, each writing a marker before it runs the real
// git. Then the registry scan, the picker's worktree list, a new worktree, a session's own
// worktree (sessions.create with worktree: true), `git init` of a new project, a run's
// checkpoints, a rewind of its files (protocol and CLI) all work, and the marker never appears.
// The control runs git by name with that PATH and finds the marker. git's own helpers are looked
// up on git's PATH too: a remote helper `git-remote-planted` in ~/.local/bin runs when a clone of
// `planted::x` gets the shell's PATH, and never from the host's clone.

const EDIT = {
  name: 'aider_edit_block_tool',
  args: { content: 'a.txt\n```\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n' },
};

let base: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
let host: HostProcess;
let home: string;
let repo: string;
let marker: string;
let env: NodeJS.ProcessEnv;
let realGit: string;

/** A program named `name` in `dir` that says it ran, then runs `then`: what a shell would plant. */
function plant(dir: string, name: string, then: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\necho "${dir}: $*" >> '${marker}'\n${then}\n`);
  chmodSync(join(dir, name), 0o755);
}

const planted = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : 'nothing planted ran');

beforeAll(async () => {
  base = tempDir('mewbo-git-features-');
  home = join(base.dir, 'mewbo-home');
  marker = join(base.dir, 'planted-git-ran');
  const userHome = join(base.dir, 'user');
  repo = makeRepo(base.dir, 'proj');
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  gitIn(repo, 'add', '.');
  gitIn(repo, 'commit', '--quiet', '-m', 'a');
  addWorktree(repo, join(base.dir, 'proj-hotfix'), 'hotfix');
  realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const projectBin = join(repo, 'node_modules', '.bin');
  const userBin = join(userHome, '.local', 'bin');
  for (const dir of [projectBin, userBin]) plant(dir, 'git', `exec '${realGit}' "$@"`);
  plant(userBin, 'git-remote-planted', 'exit 1');
  mkdirSync(join(home, 'configs'), { recursive: true });
  writeFileSync(
    join(home, 'configs', 'app.json'),
    JSON.stringify({ permission_mode: 'auto', projects: { proj: { path: repo } } }),
  );
  fake = await FakeAnthropic.start();
  env = {
    HOME: userHome,
    PATH: `${projectBin}:${userBin}:${process.env.PATH}`,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.url,
  };
});
afterAll(async () => {
  await host?.stop();
  await fake.close();
  base.cleanup();
});

describe('route 5: every host feature that runs git, with git planted first on PATH', () => {
  it('control: git run by name with that PATH is the planted one, and so is its helper', () => {
    spawnSync('git', ['worktree', 'list'], { cwd: repo, env: { ...process.env, ...env } });
    expect(planted()).toMatch(/node_modules\/\.bin: worktree list/);
    rmSync(marker);
    spawnSync(realGit, ['clone', 'planted::x', join(base.dir, 'control-clone')], {
      cwd: base.dir,
      env: { ...process.env, ...env },
    });
    expect(planted()).toMatch(/\.local\/bin: origin x/);
    rmSync(marker);
  });

  it('the registry scan and the picker list the repository and its worktree', async () => {
    host = await startHost(home, env);
    const { client, close } = host.connect();
    try {
      const { projects } = await client.invoke('projects.list', { refresh: true });
      expect(projects.find((p) => p.key === 'proj')).toMatchObject({ branch: 'main' });
      expect(projects.find((p) => p.kind === 'worktree')).toMatchObject({
        branch: 'hotfix',
        parent: 'proj',
      });
    } finally {
      close();
    }
    expect(planted()).toBe('nothing planted ran');
  });

  it("a new worktree, a session's own worktree, a new project with git init, a clone", async () => {
    const { client, close } = host.connect();
    try {
      const wt = await client.invoke('projects.createWorktree', {
        project: 'proj',
        branch: 'feat',
      });
      expect(existsSync(join(wt.project.path!, 'a.txt'))).toBe(true);
      const { session } = await client.invoke('sessions.create', {
        project: 'proj',
        worktree: true,
      });
      expect(readFileSync(join(session.worktree!.path, 'a.txt'), 'utf8')).toBe('one\n');
      const made = await client.invoke('projects.create', {
        parent: base.dir,
        name: 'fresh',
        git_init: true,
      });
      expect(existsSync(join(made.project.path!, '.git'))).toBe(true);
      const { project: remote } = await client.invoke('projects.addRepository', {
        url: 'planted::x',
      });
      await expect(client.invoke('projects.checkout', { project: remote.key })).rejects.toThrow(
        /git clone failed/,
      );
    } finally {
      close();
    }
    expect(planted()).toBe('nothing planted ran');
  });

  it("a run's checkpoints, and rewinding its files through the protocol and the CLI", async () => {
    const { client, close } = host.connect();
    let id: string;
    try {
      ({
        session: { id },
      } = await client.invoke('sessions.create', { project: 'proj' }));
      fake.script.push({ toolCalls: [EDIT] }, { text: 'Changed it.' });
      await client.invoke('sessions.send', { id, text: 'change one to two', capabilities: [] });
      const events = await runEnd(client, id);
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('two\n');
      expect(events.filter((e) => e.type === 'checkpoint').map((e) => e.phase)).toEqual([
        'before',
        'after',
      ]);
      const turn = events.find((e) => e.type === 'user_message')!.seq;
      const preview = await client.invoke('sessions.rewindPreview', { id, to_seq: turn });
      expect(preview.files).toEqual([
        expect.objectContaining({ path: 'a.txt', action: 'restore' }),
      ]);
      await client.invoke('sessions.rewind', { id, to_seq: turn, mode: 'files', include: [] });
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('one\n');
    } finally {
      close();
    }
    await host.stop();
    const cli = await runMewbo(['sessions', 'rewind', id, '--to-turn', '1', '--yes'], {
      env: { ...env, MEWBO_HOME: home },
    });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(planted()).toBe('nothing planted ran');
  });
});

/** The session's events once the run started by the last send has ended. */
function runEnd(client: ReturnType<HostProcess['connect']>['client'], id: string) {
  return new Promise<SessionEvent[]>((resolve, reject) => {
    const seen: SessionEvent[] = [];
    const timer = setTimeout(() => reject(new Error('the run did not end')), 30_000);
    const sub = client.subscribe(`session:${id}`, 0, (d) => {
      const e = d as SessionEvent;
      if (typeof e.seq !== 'number') return;
      seen.push(e);
      if (e.type === 'run_state' && ['idle', 'failed', 'stopped'].includes(e.state)) {
        clearTimeout(timer);
        sub.unsubscribe();
        resolve(seen);
      }
    });
  });
}
