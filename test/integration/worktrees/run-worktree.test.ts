import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../helpers/fake-anthropic';
import { jsonLines, runMewbo } from '../../helpers/mewbo-cli';
import { tempDir } from '../../helpers/temp';
import { gitIn, makeRepo } from '../projects/git-fixture';

// `mewbo run --worktree [BRANCH]`: the headless run works in a new worktree, the checkout is left
// as it was.

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
