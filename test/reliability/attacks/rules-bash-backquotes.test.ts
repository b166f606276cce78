import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { decide, loaded } from './shell-verdicts';

// Issue #25, part 4: the rules must see every command bash runs and every file it writes. Found
// by the mutation run of bash-analysis.ts: the grammar leaves backquotes inside ${...}, and in a
// here-document body with no $ in it (or on either side of a $x), as text, so the commands in
// them were never judged; and `> 1`, `> -` were taken for descriptors, which only `>&` reads
// them as, so the file they write was not seen. Each attack is first shown working with real
// bash, and the verdict the rules gave before this change (main 7e58a0e, with the same rules)
// is recorded as the control.

/** The rules' verdict before this change, with `allow Bash` and the deny rule `Bash(rm:*)`. */
const OLD_DENY_VERDICTS: Record<string, 'allow'> = {
  'echo ${x:-`rm -rf victim`}': 'allow',
  'cat <<EOF\n`rm -rf victim`\nEOF': 'allow',
  'cat <<EOF\n`rm -rf $x victim`\nEOF': 'allow',
};
/** The verdict before this change of the allow rule that names the command's program. */
const OLD_ALLOW_VERDICTS: Record<string, { rule: string; verdict: 'allow' }> = {
  'echo ${x:-`touch pwned`}': { rule: 'Bash(echo:*)', verdict: 'allow' },
  'cat <<EOF\n`touch pwned`\nEOF': { rule: 'Bash(cat:*)', verdict: 'allow' },
};
const OLD_WRITE_VERDICTS: Record<string, { file: string; verdict: 'allow' }> = {
  'echo pwned > 1': { file: '1', verdict: 'allow' },
  'echo pwned > -': { file: '-', verdict: 'allow' },
};

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('mewbo-bash-backquotes-');
  writeFileSync(join(dir.dir, 'victim'), 'keep me');
});
afterEach(() => dir.cleanup());

function bash(command: string): void {
  const r = spawnSync('/bin/bash', ['-c', command], { cwd: dir.dir, encoding: 'utf8' });
  expect(r.error).toBeUndefined();
}

describe('a deny rule Bash(rm:*) against rm in backquotes the grammar leaves as text', () => {
  it.each(Object.keys(OLD_DENY_VERDICTS))('%j: bash runs rm, now denied', (attack) => {
    bash(attack);
    expect(existsSync(join(dir.dir, 'victim')), 'bash runs rm').toBe(false);
    expect(OLD_DENY_VERDICTS[attack]).toBe('allow');
    expect(decide([loaded('allow', 'Bash'), loaded('deny', 'Bash(rm:*)')], attack)?.kind).toBe(
      'deny',
    );
  });
});

describe('an allow rule for the outer command against the command in its backquotes', () => {
  it.each(Object.keys(OLD_ALLOW_VERDICTS))(
    '%j: bash runs touch, the rule no longer allows it',
    (attack) => {
      const { rule, verdict } = OLD_ALLOW_VERDICTS[attack]!;
      bash(attack);
      expect(existsSync(join(dir.dir, 'pwned')), 'bash runs touch').toBe(true);
      expect(verdict).toBe('allow');
      expect(decide([loaded('allow', rule)], attack)).toBeNull();
    },
  );
});

describe('an allow rule against a redirection bash reads as a file, not a descriptor', () => {
  it.each(Object.keys(OLD_WRITE_VERDICTS))(
    '%j: bash writes the file, the rule no longer allows it',
    (attack) => {
      const { file, verdict } = OLD_WRITE_VERDICTS[attack]!;
      bash(attack);
      expect(readFileSync(join(dir.dir, file), 'utf8'), 'bash writes the file').toBe('pwned\n');
      expect(verdict).toBe('allow');
      expect(decide([loaded('allow', 'Bash(echo:*)')], attack)).toBeNull();
      // `>&2` and `>&-` write no file: still allowed.
      expect(decide([loaded('allow', 'Bash(echo:*)')], 'echo x >&2 >&-')?.kind).toBe('allow');
    },
  );
});
