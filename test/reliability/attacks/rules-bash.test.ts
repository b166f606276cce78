import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { RunHarness, resultsOf, shell } from '../../integration/rules/run-harness';
import { decide, loaded } from './shell-verdicts';

// Issue #25, part 4: permission rules must match what bash will run. The attacks, each seen to
// work: with the allow rule `Bash(npm test:*)`, `npm test a#b; <anything>` ran without asking
// (the old tokenizer took `#b` for a comment), and the deny rule `Bash(rm:*)` missed rm written
// in ways bash still runs. Each attack is first shown working: real bash runs rm (the victim file
// is gone), and the old matcher's verdict is the control recorded below (taken from
// electron/host/rules/shell-split.ts and match-rule.ts before they were replaced, run on these
// very commands). Then the rules refuse it: decided directly, and through `mewbo run`.

/** The old matcher's answer for each attack: 'no' for a deny rule is "not denied". */
const OLD_DENY_VERDICTS: Record<string, 'no'> = {
  'FOO=1 rm -rf victim': 'no',
  'if true; then rm -rf victim; fi': 'no',
  "sh -c 'rm -rf victim'": 'no',
  'command rm -rf victim': 'no',
  '/bin/rm -rf victim': 'no',
  'env rm -rf victim': 'no',
  '$(echo rm) -rf victim': 'no',
  'echo victim | xargs rm -rf': 'no',
  'nice -n 5 rm -rf victim': 'no',
  'timeout 5 rm -rf victim': 'no',
  'find . -name victim -exec rm -rf {} \\;': 'no',
  'eval rm -rf victim': 'no',
  'bash -c "rm -rf victim"': 'no',
  'dash -c "rm -rf victim"': 'no',
  'nohup rm -rf victim': 'no',
  'exec rm -rf victim': 'no',
  'builtin command rm -rf victim': 'no',
  '{ rm -rf victim; }': 'no',
  'stdbuf -o0 rm -rf victim': 'no',
  'setsid -w rm -rf victim': 'no',
  'time rm -rf victim': 'no',
  '! rm -rf victim': 'no',
  'for i in 1; do rm -rf victim; done': 'no',
  'while rm -rf victim; do break; done': 'no',
  'env -i FOO=1 rm -rf victim': 'no',
};
/** The old matcher allowed this under `Bash(npm test:*)`. */
const OLD_ALLOW_VERDICT = { 'npm test a#b; touch pwned': 'yes' } as const;

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('mewbo-bash-attack-');
  // An `npm` that does nothing, first on PATH (the attack needs no real npm).
  mkdirSync(join(dir.dir, 'bin'));
  writeFileSync(join(dir.dir, 'bin', 'npm'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir.dir, 'bin', 'npm'), 0o755);
});
afterEach(() => dir.cleanup());

/** Runs a command with real bash in `cwd`, as the shell tool does (`bash -c`). */
function bash(command: string, cwd: string): void {
  const r = spawnSync('/bin/bash', ['-c', command], {
    cwd,
    env: { PATH: `${join(dir.dir, 'bin')}:${process.env.PATH}` },
    encoding: 'utf8',
    timeout: 50_000,
  });
  expect(r.error).toBeUndefined();
}

describe('a deny rule Bash(rm:*) against rm as bash runs it', () => {
  it.each(Object.keys(OLD_DENY_VERDICTS))(
    '%s: runs rm, passed the old matcher, is denied',
    (attack) => {
      const work = join(dir.dir, 'work');
      mkdirSync(work);
      writeFileSync(join(work, 'victim'), 'keep me');
      bash(attack, work);
      expect(existsSync(join(work, 'victim')), 'bash runs rm').toBe(false);
      expect(OLD_DENY_VERDICTS[attack]).toBe('no');
      expect(decide([loaded('allow', 'Bash'), loaded('deny', 'Bash(rm:*)')], attack)?.kind).toBe(
        'deny',
      );
    },
  );
});

describe('an allow rule Bash(npm test:*) against a # inside a word', () => {
  it('bash runs the command after `a#b;`, the old matcher allowed it, the rule does not', () => {
    const attack = 'npm test a#b; touch pwned';
    bash(attack, dir.dir);
    expect(existsSync(join(dir.dir, 'pwned')), 'bash runs touch').toBe(true);
    expect(OLD_ALLOW_VERDICT[attack]).toBe('yes');
    expect(decide([loaded('allow', 'Bash(npm test:*)')], attack)).toBeNull();
    expect(decide([loaded('allow', 'Bash(npm test:*)')], 'npm test a #b; touch pwned')?.kind).toBe(
      'allow',
    );
  });
});

describe('the same attacks through mewbo run', () => {
  let h: RunHarness;
  beforeEach(async () => {
    h = await RunHarness.start();
  });
  afterEach(async () => {
    await h.close();
  });
  const attacks = Object.keys(OLD_DENY_VERDICTS).slice(0, 8);
  const victims = (n: number) => attacks.map((a, i) => a.replaceAll('victim', `victim-${n}-${i}`));

  it('auto mode runs each one without the rule, and the deny rule blocks each one', async () => {
    const plant = (n: number) =>
      attacks.forEach((_, i) => h.write(`victim-${n}-${i}`, 'keep me', 'project'));
    plant(1);
    h.fake.script.push({ toolCalls: victims(1).map(shell) }, { text: 'ok' });
    await h.run(['--permission-mode', 'auto', 'go']);
    attacks.forEach((a, i) => expect(existsSync(join(h.project, `victim-1-${i}`)), a).toBe(false));

    h.userConfig({ permissions: { deny: ['Bash(rm:*)'] } });
    plant(2);
    h.fake.script.push({ toolCalls: victims(2).map(shell) }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'go']);
    const results = resultsOf(r);
    attacks.forEach((a, i) => {
      expect(results[i], a).toMatchObject({ code: 'denied_by_rule' });
      expect(existsSync(join(h.project, `victim-2-${i}`)), a).toBe(true);
    });
  });

  it('the allow rule asks for `npm test a#b; touch pwned` (refused headless) and allows `npm test a #b`', async () => {
    h.userConfig({ permissions: { allow: ['Bash(npm test:*)'] } });
    h.fake.script.push(
      { toolCalls: [shell('npm test a#b; touch pwned-1'), shell('npm test a #b; touch pwned-2')] },
      { text: 'ok' },
    );
    const r = await h.run(['go'], { PATH: `${join(dir.dir, 'bin')}:${process.env.PATH}` });
    const results = resultsOf(r);
    expect(results[0]).toMatchObject({ code: 'approval_required' });
    expect(existsSync(join(h.project, 'pwned-1'))).toBe(false);
    expect(results[1]!.kind, JSON.stringify(results[1])).toBe('shell');
  });

  it('a command a deny rule cannot check asks even in auto mode, and headless refuses it with the reason', async () => {
    h.write('victim', 'keep me', 'project');
    const unreadable = 'cat victim > copy\necho )';
    h.fake.script.push({ toolCalls: [shell(unreadable)] }, { text: 'ok' });
    await h.run(['--permission-mode', 'auto', 'go']);
    expect(existsSync(join(h.project, 'copy')), 'bash runs what precedes the error').toBe(true);

    h.userConfig({ permissions: { deny: ['Bash(rm:*)'] } });
    h.fake.script.push(
      { toolCalls: [shell(unreadable.replace('copy', 'copy-2'))] },
      { text: 'ok' },
    );
    const r = await h.run(['--permission-mode', 'auto', 'go']);
    expect(resultsOf(r)[0]).toMatchObject({ code: 'approval_required' });
    expect(String(resultsOf(r)[0]!.message)).toMatch(
      /the deny rule "Bash\(rm:\*\)" cannot be checked: bash cannot parse it/,
    );
    expect(existsSync(join(h.project, 'copy-2'))).toBe(false);
  });
});
