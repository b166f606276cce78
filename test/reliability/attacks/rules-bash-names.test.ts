import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { decide, loaded } from './shell-verdicts';

// Issue #25, part 4: a deny rule must see the program and subcommand bash and git will run. Git
// reads its own options before the subcommand, so `Bash(git push:*)` missed `git -C repo push`
// (and --git-dir, -c, --no-pager in front); a `-c alias.p=push` makes `p` mean push. A command
// name bash expands (`{r,}m`, a glob such as `/usr/bin/r*m`) is computed: the brace form was read
// by the grammar as a broken group, and only asked. Each attack is first shown working (real git
// pushes to a local bare remote; real bash runs rm), and the verdict the rules gave before this
// change (landed main 192f19f, with `allow Bash` and the deny rule) is recorded as the control.

const GIT_ATTACKS: Record<string, 'allow'> = {
  'git -C repo push -q origin HEAD:main': 'allow',
  'git --git-dir=repo/.git push -q origin HEAD:main': 'allow',
  'git --git-dir repo/.git --work-tree repo push -q origin HEAD:main': 'allow',
  'git -c push.default=current -C repo push -q origin HEAD:main': 'allow',
  'git --no-pager -C repo push -q origin HEAD:main': 'allow',
  'git -C repo -c alias.p=push p -q origin HEAD:main': 'allow',
};
const NAME_ATTACKS: Record<string, 'ask' | 'deny'> = {
  '{r,}m victim': 'ask',
  '/usr/bin/r[m] victim': 'deny',
  '/usr/bin/r*m victim': 'deny',
};

const world = tempDir('mewbo-bash-names-');
afterAll(() => world.cleanup());
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: world.dir,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

let n = 0;
let work: string;
beforeEach(() => {
  work = join(world.dir, `work-${n++}`);
  mkdirSync(work);
  writeFileSync(join(work, 'victim'), 'keep me');
});

function run(cmd: string, args: string[], cwd = work): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 50_000 });
  expect(r.error).toBeUndefined();
  return r.stdout.trim();
}

/** A repository with one commit and a bare remote that has none yet. */
function repoWithRemote(): void {
  run('git', ['init', '-q', '--bare', 'remote.git']);
  run('git', ['init', '-q', 'repo']);
  const repo = join(work, 'repo');
  writeFileSync(join(repo, 'f'), 'x');
  run('git', ['add', 'f'], repo);
  run('git', ['commit', '-qm', 'c'], repo);
  run('git', ['remote', 'add', 'origin', join(work, 'remote.git')], repo);
}

const remoteHasMain = () =>
  spawnSync('git', ['--git-dir', join(work, 'remote.git'), 'rev-parse', '--verify', '-q', 'main'], {
    env,
  }).status === 0;

describe('a deny rule Bash(git push:*) against options before the subcommand', () => {
  const rules = [loaded('allow', 'Bash'), loaded('deny', 'Bash(git push:*)')];

  it.each(Object.keys(GIT_ATTACKS))(
    '%s: git pushes, the rules allowed it, now denied',
    (attack) => {
      repoWithRemote();
      expect(remoteHasMain()).toBe(false);
      run('/bin/bash', ['-c', attack]);
      expect(remoteHasMain(), 'git pushed').toBe(true);
      expect(GIT_ATTACKS[attack]).toBe('allow');
      expect(decide(rules, attack)?.kind).toBe('deny');
    },
  );

  it('git with the same options and another subcommand is still allowed', () => {
    expect(decide(rules, 'git -C repo --no-pager log -1')?.kind).toBe('allow');
    expect(decide(rules, 'git -c color.ui=never -C repo status')?.kind).toBe('allow');
  });
});

describe('a deny rule Bash(rm:*) against a command name bash expands', () => {
  const rules = [loaded('allow', 'Bash'), loaded('deny', 'Bash(rm:*)')];

  it.each(Object.keys(NAME_ATTACKS))('%s: bash runs rm, and the deny rule denies it', (attack) => {
    run('/bin/bash', ['-c', attack]);
    expect(existsSync(join(work, 'victim')), 'bash runs rm').toBe(false);
    expect(NAME_ATTACKS[attack]).toMatch(/^(ask|deny)$/);
    expect(decide(rules, attack)?.kind).toBe('deny');
  });

  it.each(Object.keys(NAME_ATTACKS))('%s is allowed by no rule naming a program', (attack) => {
    const allow = ['rm', 'r*m', '/usr/bin/rm'].map((p) => loaded('allow', `Bash(${p}:*)`));
    expect(decide(allow, attack)).toBeNull();
  });
});
