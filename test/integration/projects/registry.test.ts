import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  ProjectRegistry,
  type ProjectListing,
} from '../../../electron/host/projects/project-registry';
import type { ProjectConfig } from '../../../electron/host/config/schema';
import { tempDir } from '../../helpers/temp';
import { addWorktree, gitIn, makeRepo } from './git-fixture';

let tmp: { dir: string; cleanup: () => void };
let stateDir: string;
const open: ProjectRegistry[] = [];
const cfg = (path: string, extra: Partial<ProjectConfig> = {}): ProjectConfig => ({
  path,
  allowed_paths: [],
  description: '',
  ...extra,
});
async function registry(configured: Record<string, ProjectConfig> = {}) {
  const r = await ProjectRegistry.open({ stateDir, home: tmp.dir, configured });
  open.push(r);
  return r;
}
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'no refusal';
}

beforeEach(() => {
  tmp = tempDir('mewbo-projects-');
  tmp.dir = realpathSync(tmp.dir);
  stateDir = join(tmp.dir, 'state');
});
afterEach(() => {
  for (const r of open.splice(0)) r.dispose();
  tmp.cleanup();
});

describe('project registry', () => {
  it('lists configured projects and the worktrees of their repositories, with slug and branch', async () => {
    const repo = makeRepo(tmp.dir, 'widgets', 'git@github.com:acme/widgets.git');
    const wt = addWorktree(repo, join(tmp.dir, 'widgets-feature'), 'feature-x');
    const r = await registry({
      widgets: cfg(repo, { description: 'The widget shop', name: 'Widgets' }),
    });
    const { projects } = await r.list();
    expect(projects).toHaveLength(2);
    expect(projects[0]).toEqual({
      key: 'widgets',
      name: 'Widgets',
      kind: 'configured',
      description: 'The widget shop',
      path: repo,
      available: true,
      repo: 'acme/widgets',
      branch: 'main',
      parent: null,
      last_opened_at: null,
      remote: null,
    });
    expect(projects[1]).toMatchObject({
      kind: 'worktree',
      name: 'widgets-feature',
      path: wt,
      available: true,
      repo: 'acme/widgets',
      branch: 'feature-x',
      parent: 'widgets',
    });
    expect(projects[1]!.key).toMatch(/^worktree:widgets-feature-[0-9a-f]{6}$/);
    expect(projects[1]!.description).toContain('branch feature-x');
  });

  it('lists a registered repository without a checkout: no path, not available, slug from its URL', async () => {
    const r = await registry();
    const entry = await r.addRepository({ url: 'https://github.com/acme/gadgets.git' });
    expect(entry).toMatchObject({
      key: 'repo:gadgets',
      kind: 'repository',
      path: null,
      available: false,
      repo: 'acme/gadgets',
      branch: null,
    });
    expect(await refusal(r.resolveFolder('repo:gadgets'))).toBe('no_checkout');
    expect(await refusal(r.open('repo:gadgets'))).toBe('no_checkout');
  });

  it('checks a repository out by cloning its URL, after which it has a path and a branch', async () => {
    const origin = makeRepo(tmp.dir, 'origin-src');
    const r = await registry();
    await r.addRepository({ url: origin, name: 'cloned' });
    const entry = await r.checkout('repo:cloned', join(tmp.dir, 'clone-here'));
    expect(entry).toMatchObject({
      kind: 'repository',
      path: realpathSync(join(tmp.dir, 'clone-here')),
      available: true,
      branch: 'main',
    });
    expect(existsSync(join(tmp.dir, 'clone-here', 'README.md'))).toBe(true);
    expect(await refusal(r.checkout('repo:cloned'))).toBe('exists');
  });

  it('registers a local repository and lists its worktrees under it', async () => {
    const repo = makeRepo(tmp.dir, 'svc');
    const wt = addWorktree(repo, join(tmp.dir, 'svc-hotfix'), 'hotfix');
    const r = await registry();
    const entry = await r.addRepository({ path: repo });
    expect(entry).toMatchObject({
      key: 'repo:svc',
      kind: 'repository',
      path: repo,
      available: true,
      branch: 'main',
      repo: null,
    });
    const { projects } = await r.list({ fresh: true });
    expect(projects.find((p) => p.path === wt)).toMatchObject({
      kind: 'worktree',
      parent: 'repo:svc',
      branch: 'hotfix',
    });
    expect(await refusal(r.addRepository({ path: join(tmp.dir) }))).toBe('not_a_repository');
  });

  it('opens a folder as a managed project once, and remembers it, its name and recency across a restart', async () => {
    const a = join(tmp.dir, 'alpha');
    const b = join(tmp.dir, 'beta');
    mkdirSync(a);
    mkdirSync(b);
    const r1 = await registry();
    const ea = await r1.add(a);
    const eb = await r1.add(b, { description: 'second' });
    expect(ea).toMatchObject({
      key: 'managed:alpha',
      kind: 'managed',
      path: a,
      available: true,
      branch: null,
    });
    expect((await r1.add(a)).key).toBe('managed:alpha');
    await r1.rename(eb.key, 'Beta Project');
    await r1.open(ea.key);
    r1.dispose();
    expect(readdirSync(stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(readFileSync(join(stateDir, 'projects.json'), 'utf8')).managed).toHaveLength(
      2,
    );

    const r2 = await registry();
    const listing = await r2.list();
    expect(listing.projects.map((p) => [p.key, p.name])).toEqual([
      ['managed:alpha', 'alpha'],
      ['managed:beta', 'Beta Project'],
    ]);
    expect(listing.recent).toEqual(['managed:alpha', 'managed:beta']);
  });

  it('resolves a project for a new session from its last scan, yet refuses a folder deleted since and takes it back when it returns, without waiting for a scan', async () => {
    const dir = join(tmp.dir, 'between-scans');
    mkdirSync(dir);
    const r = await registry();
    const { key } = await r.add(dir);
    expect(await r.resolve(key)).toEqual({ key, root: dir, remote: null });
    rmSync(dir, { recursive: true });
    expect(await refusal(r.resolve(key))).toBe('unavailable');
    expect(await refusal(r.resolveFolder(key))).toBe('unavailable');
    mkdirSync(dir);
    expect(await r.resolve(key)).toEqual({ key, root: dir, remote: null });
    expect(await refusal(r.resolve('managed:never-added'))).toBe('not_found');
  });

  it('notices a folder that vanished and came back, and announces both', async () => {
    const dir = join(tmp.dir, 'ephemeral');
    mkdirSync(dir);
    const r = await registry();
    const { key } = await r.add(dir);
    const seen: ProjectListing[] = [];
    r.onDidChange((l) => seen.push(l));
    rmSync(dir, { recursive: true });
    await r.refresh();
    expect(seen.at(-1)!.projects.find((p) => p.key === key)!.available).toBe(false);
    expect(await refusal(r.resolve(key))).toBe('unavailable');
    mkdirSync(dir);
    await r.refresh();
    expect(seen.at(-1)!.projects.find((p) => p.key === key)!.available).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it('notices a vanished folder on its own, without anyone asking', async () => {
    const dir = join(tmp.dir, 'watched');
    mkdirSync(dir);
    const r = await ProjectRegistry.open({
      stateDir,
      home: tmp.dir,
      configured: {},
      refreshIntervalMs: 50,
    });
    open.push(r);
    const { key } = await r.add(dir);
    const gone = new Promise<ProjectListing>((resolve) =>
      r.onDidChange((l) => l.projects.some((p) => p.key === key && !p.available) && resolve(l)),
    );
    rmSync(dir, { recursive: true });
    expect((await gone).projects.find((p) => p.key === key)!.available).toBe(false);
  });

  it('announces a change even when each scan takes longer than the interval', async () => {
    const repos = ['a', 'b', 'c', 'd'].map((n) => makeRepo(tmp.dir, n));
    const r = await ProjectRegistry.open({
      stateDir,
      home: tmp.dir,
      configured: Object.fromEntries(repos.map((p, i) => [`p${i}`, cfg(p)])),
      // Every scan runs git in four repositories: far longer than 1 ms, so the clock always
      // ticks during a scan.
      refreshIntervalMs: 1,
    });
    open.push(r);
    await r.list();
    const gone = new Promise<ProjectListing>((resolve) =>
      r.onDidChange(
        (l) => l.projects.some((p) => p.path === repos[0] && !p.available) && resolve(l),
      ),
    );
    rmSync(repos[0]!, { recursive: true });
    expect((await gone).projects.find((p) => p.path === repos[0])!.available).toBe(false);
  }, 30_000);

  it('marks a worktree whose folder was deleted as unavailable', async () => {
    const repo = makeRepo(tmp.dir, 'app');
    const wt = addWorktree(repo, join(tmp.dir, 'app-wt'), 'wt-branch');
    const r = await registry({ app: cfg(repo) });
    expect((await r.list()).projects.find((p) => p.path === wt)!.available).toBe(true);
    rmSync(wt, { recursive: true });
    expect((await r.list({ fresh: true })).projects.find((p) => p.path === wt)!.available).toBe(
      false,
    );
  });

  it('creates a worktree on a new branch, or on an existing one, and lists it', async () => {
    const repo = makeRepo(tmp.dir, 'lib');
    gitIn(repo, 'branch', 'existing');
    const r = await registry({ lib: cfg(repo) });
    const made = await r.createWorktree('lib', { branch: 'feat/new-thing' });
    expect(made).toMatchObject({
      kind: 'worktree',
      branch: 'feat/new-thing',
      parent: 'lib',
      available: true,
    });
    expect(made.path).toBe(realpathSync(join(tmp.dir, 'worktrees', 'lib', 'feat-new-thing')));
    expect(gitIn(made.path!, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feat/new-thing');
    const onExisting = await r.createWorktree('lib', {
      branch: 'existing',
      path: join(tmp.dir, 'lib-existing'),
    });
    expect(onExisting.branch).toBe('existing');
    expect(await refusal(r.createWorktree('lib', { branch: 'bad..name' }))).toBe('invalid_branch');
    expect(await refusal(r.createWorktree('lib', { branch: 'other', path: repo }))).toBe('exists');
    expect(await refusal(r.createWorktree('nope', { branch: 'x' }))).toBe('not_found');
  });

  it('refuses to remove a configured project or a worktree, and forgets a managed one without touching its files', async () => {
    const repo = makeRepo(tmp.dir, 'keep');
    const wt = addWorktree(repo, join(tmp.dir, 'keep-wt'), 'b1');
    const managed = join(tmp.dir, 'm');
    mkdirSync(managed);
    const r = await registry({ keep: cfg(repo) });
    const m = await r.add(managed);
    const wtKey = (await r.list()).projects.find((p) => p.path === wt)!.key;
    expect(await refusal(r.remove('keep'))).toBe('read_only');
    expect(await refusal(r.remove(wtKey))).toBe('read_only');
    expect(await refusal(r.remove('managed:none'))).toBe('not_found');
    await r.remove(m.key);
    expect((await r.list()).projects.map((p) => p.key)).not.toContain(m.key);
    expect(existsSync(managed)).toBe(true);
  });

  it('creates a new folder as a managed project, optionally a git repository', async () => {
    const r = await registry();
    const e = await r.create(tmp.dir, 'fresh', true);
    expect(e).toMatchObject({
      kind: 'managed',
      name: 'fresh',
      path: join(tmp.dir, 'fresh'),
      available: true,
    });
    expect(existsSync(join(tmp.dir, 'fresh', '.git'))).toBe(true);
    expect(await refusal(r.create(tmp.dir, 'fresh', false))).toBe('exists');
    expect(await refusal(r.create(tmp.dir, '../escape', false))).toBe('invalid_path');
    expect(await refusal(r.add(join(tmp.dir, 'missing')))).toBe('invalid_path');
  });

  it('moves a corrupt registry file aside and starts empty instead of failing', async () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, 'projects.json'), '{"managed": [{"id": 3}]');
    const r = await registry();
    expect((await r.list()).projects).toEqual([]);
    expect(readdirSync(stateDir).some((f) => f.startsWith('projects.json.corrupt-'))).toBe(true);
  });

  it('still lists projects when git hangs: the call is killed at its deadline and the entry has no git facts', async () => {
    const repo = makeRepo(tmp.dir, 'slow');
    // git opens the repository's config before answering; a FIFO there blocks it for good.
    // (A `git` planted on PATH no longer works: the host resolves git from system dirs only.)
    renameSync(join(repo, '.git', 'config'), join(repo, '.git', 'config.real'));
    execFileSync('mkfifo', [join(repo, '.git', 'config')]);
    const r = await registry({ slow: cfg(repo) });
    const { projects } = await r.list();
    expect(projects).toEqual([
      expect.objectContaining({ key: 'slow', available: true, branch: null, repo: null }),
    ]);
  }, 30_000);
});
