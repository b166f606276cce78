import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import type { ClientContext } from '../../../electron/host/rpc/router';
import { tempDir } from '../../helpers/temp';
import { makeRepo } from './git-fixture';
import type { ProjectEntry } from '../../../shared/protocol/commands/projects';
import type { SessionSummary } from '../../../shared/protocol/session-summary';

type One = { project: ProjectEntry };

let tmp: { dir: string; cleanup: () => void };
let host: Host;
const client: ClientContext = { clientId: 'test', transport: 'local' };
const invoke = (method: string, params: unknown) => host.router.invoke(method, params, client);
async function ok<T = unknown>(method: string, params: unknown): Promise<T> {
  const r = await invoke(method, params);
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

beforeEach(async () => {
  tmp = tempDir('mewbo-proj-rpc-');
  tmp.dir = realpathSync(tmp.dir);
  host = await Host.create({ env: { ...process.env, MEWBO_HOME: join(tmp.dir, 'home') } });
});
afterEach(async () => {
  await host.dispose();
  tmp.cleanup();
});

describe('projects commands', () => {
  it('open a folder, list it as recent, rename it, and push each change on the projects topic', async () => {
    const dir = join(tmp.dir, 'site');
    mkdirSync(dir);
    const pushed: unknown[] = [];
    const sub = await host.router.subscribe('projects', undefined, (d) => pushed.push(d), client);
    const { project } = await ok<One>('projects.openFolder', { path: dir });
    expect(project).toMatchObject({
      key: 'managed:site',
      kind: 'managed',
      path: dir,
      available: true,
    });
    expect(await ok('projects.list', {})).toMatchObject({
      recent: ['managed:site'],
      projects: [expect.objectContaining({ key: 'managed:site' })],
    });
    await ok('projects.rename', { project: 'managed:site', name: 'Web site' });
    expect(pushed.at(-1)).toMatchObject({
      type: 'projects',
      projects: [expect.objectContaining({ name: 'Web site' })],
      recent: ['managed:site'],
    });
    await sub.dispose();
  });

  it('lets a session be created in a managed project', async () => {
    const dir = join(tmp.dir, 'work');
    mkdirSync(dir);
    await ok('projects.openFolder', { path: dir });
    const { session } = await ok<{ session: SessionSummary }>('sessions.create', {
      project: 'managed:work',
    });
    expect(session).toMatchObject({ project: 'managed:work', root: dir });
    expect(await invoke('sessions.create', { project: 'managed:nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('answer bad input with the field at fault and refusals with their code', async () => {
    const rel = await invoke('projects.openFolder', { path: 'relative/dir' });
    expect(rel).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(JSON.stringify(rel)).toContain('path: must be an absolute path');
    expect(await invoke('projects.addRepository', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: expect.stringContaining('give path or url') },
    });
    await ok('projects.addRepository', { url: 'git@github.com:acme/later.git' });
    expect(await invoke('projects.open', { project: 'repo:later' })).toMatchObject({
      ok: false,
      error: { code: 'no_checkout' },
    });
    expect(
      await invoke('projects.createWorktree', { project: 'repo:later', branch: 'has space' }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(await invoke('projects.remove', { project: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('create a worktree of a registered repository', async () => {
    const repo = makeRepo(tmp.dir, 'engine');
    const { project: r } = await ok<One>('projects.addRepository', { path: repo });
    const { project } = await ok<One>('projects.createWorktree', {
      project: r.key,
      branch: 'spike',
      path: join(tmp.dir, 'engine-spike'),
    });
    expect(project).toMatchObject({
      kind: 'worktree',
      parent: 'repo:engine',
      branch: 'spike',
      path: join(tmp.dir, 'engine-spike'),
    });
    const { projects } = await ok<{ projects: ProjectEntry[] }>('projects.list', { refresh: true });
    expect(projects.map((p) => p.key)).toEqual(['repo:engine', project.key]);
  });
});

describe('mcp commands', () => {
  it('list no servers when none are configured and refuse to restart an unknown one', async () => {
    expect(await ok('mcp.servers', {})).toEqual({ servers: [] });
    expect(await invoke('mcp.restart', { id: 'app:nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
