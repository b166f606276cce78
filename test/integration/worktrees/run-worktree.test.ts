import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';
import { gitIn, makeRepo } from '../projects/git-fixture';

// `mewbo run --worktree [BRANCH]`: the headless run works in a new worktree, the checkout is left
// as it was; then `mewbo sessions diff|apply|discard ID` and the worktree column of `sessions list`
// (issue 28 part 3, headless) on what such a run made.

let home: ReturnType<typeof tempDir>;
let work: ReturnType<typeof tempDir>;
let fake: FakeAnthropic;
beforeEach(async () => {
  home = tempDir('mewbo-runwt-home-');
  work = tempDir('mewbo-runwt-work-');
  fake = await FakeAnthropic.start();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
  work.cleanup();
});

const EDIT = {
  name: 'aider_edit_block_tool',
  args: {
    content: 'README.md\n```\n<<<<<<< SEARCH\n# repo\n=======\n# edited\n>>>>>>> REPLACE\n```\n',
  },
};

describe('mewbo run --worktree', () => {
  it('edits in a new worktree on the named branch and leaves the checkout untouched', async () => {
    const repo = makeRepo(work.dir, 'repo');
    fake.script.push({ toolCalls: [EDIT] }, { text: 'Edited.' });
    const r = await runMewbo(
      [
        'run',
        '--project',
        repo,
        '--permission-mode',
        'auto',
        '--worktree',
        'fix/readme',
        'edit the readme',
      ],
      {
        env: { MEWBO_HOME: home.dir, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
      },
    );
    expect(r.code, r.stderr + r.stdout.slice(-1500)).toBe(0);
    const wt = join(work.dir, 'repo.worktrees', 'fix-readme');
    expect(r.stderr).toContain(`worktree ${wt} on branch fix/readme`);
    const created = jsonLines<{ type: string; root?: string; worktree?: unknown }>(r.stdout)[0];
    expect(created).toMatchObject({
      type: 'session_created',
      root: wt,
      worktree: { branch: 'fix/readme' },
    });
    expect(readFileSync(join(wt, 'README.md'), 'utf8')).toBe('# edited\n');
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('# repo\n');
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it('a bare --worktree names the branch for the prompt; a repository without commits is refused with what to do', async () => {
    const repo = makeRepo(work.dir, 'repo');
    fake.script.push({ text: 'Nothing to do.' });
    const env = {
      MEWBO_HOME: home.dir,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
    };
    const r = await runMewbo(['run', '--project', repo, '--worktree', 'look around'], { env });
    expect(r.code, r.stderr + r.stdout.slice(-1500)).toBe(0);
    expect(r.stderr).toContain('on branch mewbo/look-around');
    const empty = join(work.dir, 'empty');
    gitIn(work.dir, 'init', '--quiet', empty);
    const refused = await runMewbo(['run', '--project', empty, '--worktree', 'hello'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no commit yet.*make a first commit/);
    const usage = await runMewbo(['run', '--resume', 's_abcdef', '--worktree', 'x'], { env });
    expect(usage.code).toBe(2);
  });
});

describe('mewbo sessions diff, apply and discard', () => {
  it('prints the session diff, applies it to the checkout uncommitted, and discards only with --yes', async () => {
    const repo = makeRepo(work.dir, 'repo');
    fake.script.push({ toolCalls: [EDIT] }, { text: 'Edited.' });
    const env = {
      MEWBO_HOME: home.dir,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
    };
    const run = await runMewbo(
      ['run', '--project', repo, '--permission-mode', 'auto', '--worktree', 'cli/edit', 'edit'],
      { env },
    );
    expect(run.code, run.stderr).toBe(0);
    const [listed] = JSON.parse(
      (await runMewbo(['sessions', 'list', '--json'], { env })).stdout,
    ) as { id: string; worktree: string }[];
    const { id, worktree: wt } = listed!;
    expect(wt).toBe(join(work.dir, 'repo.worktrees', 'cli-edit'));

    const list = await runMewbo(['sessions', 'list'], { env });
    expect(list.stdout).toContain(`${id}\t`);
    expect(list.stdout).toContain('\tworktree cli/edit\n');

    const diff = await runMewbo(['sessions', 'diff', id], { env });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('-# repo\n+# edited\n');
    const stat = await runMewbo(['sessions', 'diff', id, '--stat'], { env });
    expect(stat.stdout).toBe('M\t1\t1\tREADME.md\n');

    const apply = await runMewbo(['sessions', 'apply', id], { env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('  README.md\n');
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('# edited\n');
    expect(gitIn(repo, 'status', '--porcelain')).toBe(' M README.md\n');

    // No terminal to ask and no --yes: it says what would be lost and removes nothing.
    const asked = await runMewbo(['sessions', 'discard', id], { env });
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('Lost: 1 file(s) changed and not committed:\n  README.md\n');
    expect(asked.stderr).toContain('run again with --yes');
    expect(existsSync(wt)).toBe(true);
    const gone = await runMewbo(['sessions', 'discard', id, '--yes'], { env });
    expect(gone.code, gone.stderr).toBe(0);
    expect(existsSync(wt)).toBe(false);
    expect(gitIn(repo, 'branch', '--list', 'cli/edit')).toBe('');
    expect((await runMewbo(['sessions', 'list'], { env })).stdout).toContain(
      '\tworktree discarded\n',
    );
    const again = await runMewbo(['sessions', 'apply', id], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/was discarded/);
  });
});
