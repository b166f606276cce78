import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import { parseConfig } from '../../../electron/host/config/load-config';
import { listProjectsTool } from '../../../electron/host/tools/list-projects';
import { switchProjectTool } from '../../../electron/host/tools/switch-project';
import type { ToolContext } from '../../../electron/host/tools/tool';
import { tempDir } from '../../helpers/temp';
import { makeRepo } from './git-fixture';

let tmp: { dir: string; cleanup: () => void };
let host: Host;
let a: string;
let b: string;

function ctx(sessionId: string, root: string, over: Partial<ToolContext> = {}): ToolContext {
  return {
    root,
    sessionId,
    agentId: 'root',
    signal: new AbortController().signal,
    config: host.config,
    services: { projects: host.projectTools },
    emit: async () => {},
    ...over,
  };
}
async function switchTo(sessionId: string, project: string, over: Partial<ToolContext> = {}) {
  const session = await host.sessions.get(sessionId);
  return (await switchProjectTool.run(ctx(sessionId, session.meta.root ?? '/', over), {
    project,
  })) as unknown as Record<string, unknown> & { instructions: { text: string } | null };
}

beforeEach(async () => {
  tmp = tempDir('mewbo-switch-');
  tmp.dir = realpathSync(tmp.dir);
  a = makeRepo(tmp.dir, 'alpha', 'git@github.com:acme/alpha.git');
  b = join(tmp.dir, 'beta');
  mkdirSync(b);
  writeFileSync(join(a, 'CLAUDE.md'), 'Alpha rules: run make check.\n');
  writeFileSync(join(b, 'AGENTS.md'), 'Beta rules: tabs, not spaces.\n');
  const home = join(tmp.dir, 'home');
  mkdirSync(join(home, 'configs'), { recursive: true });
  writeFileSync(
    join(home, 'configs', 'app.json'),
    JSON.stringify({
      projects: { alpha: { path: a, description: 'The alpha service' }, beta: { path: b } },
    }),
  );
  host = await Host.create({ env: { ...process.env, MEWBO_HOME: home } });
});
afterEach(async () => {
  await host.dispose();
  tmp.cleanup();
});

describe('switch_project', () => {
  it('names the project it moved from when the session was bound only to a folder', async () => {
    // As `mewbo run --project DIR` creates it: a root, no project key.
    const byPath = await host.sessions.create({ project: null, root: a });
    expect((await switchTo(byPath.id, 'beta')).from).toBe('alpha');
    expect(byPath.events().find((e) => e.type === 'project_switch')).toMatchObject({
      from: 'alpha',
      to: 'beta',
    });
    const elsewhere = await host.sessions.create({ project: null, root: tmp.dir });
    expect((await switchTo(elsewhere.id, 'beta')).from).toBe(tmp.dir);
  });

  it('moves the session: new root, project_switch event, the target’s instructions', async () => {
    const s = await host.sessions.create({ project: 'alpha', root: a });
    const out = await switchTo(s.id, 'beta');
    expect(out).toMatchObject({
      kind: 'project_switch',
      from: 'alpha',
      to: 'beta',
      root: b,
      project_kind: 'configured',
      unchanged: false,
    });
    expect(out.instructions).toEqual({
      file: join(b, 'AGENTS.md'),
      text: 'Beta rules: tabs, not spaces.\n',
      truncated: false,
    });
    expect(s.meta).toMatchObject({ project: 'beta', root: b });
    expect(s.events().filter((e) => e.type === 'project_switch')).toEqual([
      expect.objectContaining({ from: 'alpha', to: 'beta', root: b }),
    ]);
    expect((await host.sessions.list()).find((x) => x.id === s.id)).toMatchObject({
      project: 'beta',
      root: b,
    });

    const back = await switchTo(s.id, 'alpha');
    expect(back).toMatchObject({
      from: 'beta',
      to: 'alpha',
      root: a,
      branch: 'main',
      repo: 'acme/alpha',
    });
    expect(back.instructions?.text).toBe('Alpha rules: run make check.\n');
  });

  it('records nothing when the session is already in that project', async () => {
    const s = await host.sessions.create({ project: 'alpha', root: a });
    expect(await switchTo(s.id, 'alpha')).toMatchObject({ unchanged: true, root: a });
    expect(s.events().some((e) => e.type === 'project_switch')).toBe(false);
  });

  it('refuses an unknown key, a repository without a checkout and a vanished folder, and stays put', async () => {
    const s = await host.sessions.create({ project: 'alpha', root: a });
    await host.projects.addRepository({ url: 'https://github.com/acme/remote-only.git' });
    const gone = join(tmp.dir, 'gone');
    mkdirSync(gone);
    const managed = await host.projects.add(gone);
    rmSync(gone, { recursive: true });
    expect(await switchTo(s.id, 'nope')).toMatchObject({
      kind: 'error',
      code: 'not_found',
      details: { project: 'nope' },
    });
    expect(await switchTo(s.id, 'repo:remote-only')).toMatchObject({
      kind: 'error',
      code: 'no_checkout',
    });
    expect(await switchTo(s.id, managed.key)).toMatchObject({ kind: 'error', code: 'unavailable' });
    expect(s.meta).toMatchObject({ project: 'alpha', root: a });
    expect(s.events().some((e) => e.type === 'project_switch')).toBe(false);
  });

  it('refuses a sub-agent and a fixed workspace', async () => {
    const s = await host.sessions.create({ project: 'alpha', root: a });
    expect(await switchTo(s.id, 'beta', { agentId: 'sub_1' })).toMatchObject({
      kind: 'error',
      code: 'root_only',
    });
    const fixed = parseConfig({ agent: { workspace_mode: 'fixed' } });
    expect(await switchTo(s.id, 'beta', { config: fixed })).toMatchObject({
      kind: 'error',
      code: 'not_available',
    });
    expect(s.meta.project).toBe('alpha');
  });

  it('is marked root-only and auto-workspace-only for binding, and says which field is wrong', () => {
    expect(switchProjectTool.flags).toMatchObject({
      rootOnly: true,
      autoWorkspaceOnly: true,
      readOnly: false,
    });
    expect(listProjectsTool.flags).toMatchObject({
      rootOnly: true,
      autoWorkspaceOnly: true,
      readOnly: true,
    });
    const bad = switchProjectTool.parameters.safeParse({ project: ' ' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toContain('pass a key from list_projects');
  });
});

describe('list_projects', () => {
  it('lists every kind with the seed’s fields and says which one the session is in', async () => {
    await host.projects.addRepository({ url: 'https://github.com/acme/remote-only.git' });
    const out = (await listProjectsTool.run(ctx('s_unused00', a), {})) as Record<string, unknown>;
    expect(out.kind).toBe('projects');
    expect(out.current).toBe('alpha');
    expect(out.projects).toEqual([
      {
        key: 'alpha',
        name: 'alpha',
        kind: 'configured',
        description: 'The alpha service',
        path: a,
        available: true,
        repo: 'acme/alpha',
        branch: 'main',
      },
      {
        key: 'beta',
        name: 'beta',
        kind: 'configured',
        description: '',
        path: b,
        available: true,
        repo: null,
        branch: null,
      },
      {
        key: 'repo:remote-only',
        name: 'remote-only',
        kind: 'repository',
        description: '',
        path: null,
        available: false,
        repo: 'acme/remote-only',
        branch: null,
      },
    ]);
  });

  it('returns an error payload where no registry is composed (mewbo tool)', async () => {
    expect(await listProjectsTool.run(ctx('s_unused00', a, { services: {} }), {})).toMatchObject({
      kind: 'error',
      code: 'not_available',
    });
  });
});
