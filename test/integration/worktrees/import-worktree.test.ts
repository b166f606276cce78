import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';
import { gitIn, makeRepo } from '../projects/git-fixture';

// Issue 28 part 4: a worktree session exported on one machine and imported on another carries its
// branch and base commit. Imported with --project into a clone that has the branch, it works in a
// new worktree of that branch there (its diff against the same base); into one that lacks the
// branch, the import is refused whole, naming the branch and how to bring it; --in-checkout binds
// it to the checkout instead. Real git, two $MEWBO_HOMEs, the built CLI.

let work: ReturnType<typeof tempDir>;
let homeA: ReturnType<typeof tempDir>;
let homeB: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
beforeEach(async () => {
  work = tempDir('mewbo-impwt-work-');
  homeA = tempDir('mewbo-impwt-a-');
  homeB = tempDir('mewbo-impwt-b-');
  fake = await FakeAnthropic.start();
});
afterEach(async () => {
  await fake.close();
  for (const t of [work, homeA, homeB]) t.cleanup();
});

const EDIT = {
  name: 'aider_edit_block_tool',
  args: {
    content: 'README.md\n```\n<<<<<<< SEARCH\n# repo\n=======\n# edited\n>>>>>>> REPLACE\n```\n',
  },
};
const env = (home: string) => ({
  MEWBO_HOME: home,
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: fake.url,
});

/** A session that edited README.md in a worktree on branch fix/readme and committed it, exported. */
async function exportedWorktreeSession(repo: string): Promise<{ file: string; base: string }> {
  fake.script.push({ toolCalls: [EDIT] }, { text: 'Edited.' });
  const run = await runMewbo(
    ['run', '--project', repo, '--permission-mode', 'auto', '--worktree', 'fix/readme', 'edit'],
    { env: env(homeA.dir) },
  );
  expect(run.code, run.stderr).toBe(0);
  const wt = join(work.dir, 'repo.worktrees', 'fix-readme');
  gitIn(wt, 'commit', '--quiet', '-am', 'Edit the readme');
  const [listed] = JSON.parse(
    (await runMewbo(['sessions', 'list', '--json'], { env: env(homeA.dir) })).stdout,
  ) as { id: string }[];
  const id = listed!.id;
  const file = join(work.dir, 'session.jsonl');
  const out = await runMewbo(['sessions', 'export', id, '--format', 'jsonl', '-o', file], {
    env: env(homeA.dir),
  });
  expect(out.code, out.stderr).toBe(0);
  return { file, base: gitIn(repo, 'rev-parse', 'main').trim() };
}

/** A clone of `repo` (its branches only as origin/...), registered in home B as project `clone`. */
function cloneAsProject(repo: string): string {
  const clone = join(work.dir, 'clone');
  gitIn(work.dir, 'clone', '--quiet', repo, clone);
  mkdirSync(join(homeB.dir, 'configs'), { recursive: true });
  writeFileSync(
    join(homeB.dir, 'configs', 'app.json'),
    JSON.stringify({ projects: { clone: { path: clone } } }),
  );
  return clone;
}

const listB = async () =>
  JSON.parse((await runMewbo(['sessions', 'list', '--json'], { env: env(homeB.dir) })).stdout) as {
    id: string;
  }[];

describe('export and import of a worktree session', () => {
  it('the export carries the branch and base; a clone without the branch refuses the import whole, naming the branch and how to fetch it', async () => {
    const repo = makeRepo(work.dir, 'repo');
    const { file, base } = await exportedWorktreeSession(repo);
    const created = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as {
      worktree: { branch: string; base: string };
    };
    expect(created.worktree).toMatchObject({ branch: 'fix/readme', base });

    const clone = cloneAsProject(repo);
    const r = await runMewbo(['sessions', 'import', file, '--project', 'clone'], {
      env: env(homeB.dir),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `branch 'fix/readme' is not in the repository at ${clone}, so the session's work is not here`,
    );
    expect(r.stderr).toContain('git fetch REMOTE fix/readme:fix/readme');
    expect(r.stderr).toContain('Nothing was imported; with --in-checkout');
    expect(await listB()).toEqual([]);
    expect(existsSync(join(work.dir, 'clone.worktrees'))).toBe(false);

    // --in-checkout: bound to the clone's checkout, saying which branch it worked on.
    const inCheckout = await runMewbo(
      ['sessions', 'import', file, '--project', 'clone', '--in-checkout'],
      { env: env(homeB.dir) },
    );
    expect(inCheckout.code, inCheckout.stderr).toBe(0);
    expect(inCheckout.stderr).toContain(
      `bound to project clone (${clone}), in ask mode; it worked on branch fix/readme from ${base.slice(0, 12)}, which is not checked out for it`,
    );
    const meta = JSON.parse(
      readFileSync(join(homeB.dir, 'sessions', inCheckout.stdout.trim(), 'meta.json'), 'utf8'),
    ) as { root: string; worktree?: unknown };
    expect(meta.root).toBe(clone);
    expect(meta.worktree).toBeUndefined();
  });

  it('into a clone that has the branch, the imported session works in a new worktree of it, its diff against the same base', async () => {
    const repo = makeRepo(work.dir, 'repo');
    const { file, base } = await exportedWorktreeSession(repo);
    const clone = cloneAsProject(repo);
    gitIn(clone, 'fetch', '--quiet', 'origin', 'fix/readme:fix/readme');

    const r = await runMewbo(['sessions', 'import', file, '--project', 'clone'], {
      env: env(homeB.dir),
    });
    expect(r.code, r.stderr).toBe(0);
    const wt = join(work.dir, 'clone.worktrees', 'fix-readme');
    expect(r.stderr).toContain(`in a new worktree ${wt} of its branch fix/readme`);
    const id = r.stdout.trim();
    const meta = JSON.parse(readFileSync(join(homeB.dir, 'sessions', id, 'meta.json'), 'utf8')) as {
      root: string;
      worktree: Record<string, string>;
    };
    expect(meta.root).toBe(wt);
    expect(meta.worktree).toMatchObject({ path: wt, branch: 'fix/readme', base, checkout: clone });
    expect(readFileSync(join(wt, 'README.md'), 'utf8')).toBe('# edited\n');
    expect(readFileSync(join(clone, 'README.md'), 'utf8')).toBe('# repo\n');

    const diff = await runMewbo(['sessions', 'diff', id], { env: env(homeB.dir) });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('-# repo\n+# edited\n');

    // The same branch again: it is checked out in that worktree now, and git keeps it to one.
    const twice = await runMewbo(['sessions', 'import', file, '--project', 'clone'], {
      env: env(homeB.dir),
    });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("branch 'fix/readme' is checked out in another worktree");
    expect(await listB()).toHaveLength(1);
    expect(readdirSync(join(work.dir, 'clone.worktrees'))).toEqual(['fix-readme']);
  });
});
