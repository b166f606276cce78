import { describe, expect, it } from 'vitest';
import { BashParser } from '../../../electron/host/rules/bash-parser';
import { STAR } from '../../../electron/host/rules/bash-words';
import { matchRule, ShellJudge } from '../../../electron/host/rules/match-rule';
import { decideByRules, type LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';
import { parsePattern } from '../../../electron/host/rules/shell-pattern';

// A shell rule's pattern read with bash's grammar, and what it covers: an allow rule only the
// commands it spells out, a deny rule every command that is or may be one it names. Judged through
// matchRule and decideByRules with the real grammar, as the rules service does.

const parser = await BashParser.load();
const rule = (raw: string) => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return p.rule;
};
const sh = (command: string) => ({ tool: 'aider_shell_tool', args: { command }, root: '/' });
const allows = (r: string, command: string) =>
  matchRule(rule(r), sh(command), 'allow', new ShellJudge(parser));
const blocks = (r: string, command: string) =>
  matchRule(rule(r), sh(command), 'block', new ShellJudge(parser));
const loaded = (kind: RuleKind, raw: string): LoadedRule => ({
  kind,
  rule: rule(raw),
  scope: 'user',
});

describe('reading a pattern', () => {
  it('a trailing :* (after white space is trimmed) is any run of words; the words are as bash reads them', () => {
    expect(parsePattern(parser, '  git "diff":*  ')).toEqual({
      assignments: [],
      words: ['git', 'diff', STAR],
    });
    expect(parsePattern(parser, 'FOO=1 make *')).toEqual({
      assignments: ['FOO=1'],
      words: ['make', STAR],
    });
    expect(parsePattern(parser, 'ls')).toEqual({ assignments: [], words: ['ls'] });
  });

  it('a pattern that is no simple command, or computes a word or an assignment, is no pattern', () => {
    for (const p of ['(ls)', 'X=1', 'ls; rm', 'ls | rm', 'X=$Y ls', 'ls $(id)', 'ls )', ':*', ' '])
      expect(parsePattern(parser, p), p).toBeNull();
  });
});

describe('an allow rule covers exactly what it spells out', () => {
  it('assignments must be the same, with the same values, in the same order', () => {
    expect(allows('Bash(CI=1 npm test)', 'CI=1 npm test')).toBe('yes');
    expect(allows('Bash(CI=1 npm test)', 'CI=2 npm test')).toBe('no');
    expect(allows('Bash(A=1 B=2 npm test)', 'B=2 A=1 npm test')).toBe('no');
    expect(allows('Bash(CI=1 npm test)', 'npm test')).toBe('no');
  });

  it('each word in its place: a shorter or longer command is another one', () => {
    expect(allows('Bash(git diff)', 'git')).toBe('no');
    expect(allows('Bash(git diff)', 'git diff x')).toBe('no');
    expect(allows('Bash(git diff)', 'git log')).toBe('no');
    expect(allows('Bash(git diff:*)', 'git')).toBe('no');
    expect(allows('Bash(git * x)', 'git x')).toBe('yes');
    expect(allows('Bash(git * x)', 'git a b x')).toBe('yes');
    expect(allows('Bash(git * x)', 'git a b')).toBe('no');
  });

  it("xargs' run-time arguments are covered by a trailing * only", () => {
    const rules = (last: string) => [
      loaded('allow', 'Bash(ls)'),
      loaded('allow', 'Bash(xargs rm)'),
      loaded('allow', last),
    ];
    const judge = new ShellJudge(parser);
    expect(decideByRules(rules('Bash(rm:*)'), sh('ls | xargs rm'), judge)?.kind).toBe('allow');
    expect(decideByRules(rules('Bash(rm)'), sh('ls | xargs rm'), judge)).toBeNull();
  });
});

describe('a deny rule catches what is or may be the command it names', () => {
  it('an assignment it names may be given by the command, among others, or computed', () => {
    expect(blocks('Bash(FOO=1 rm:*)', 'BAR=2 FOO=1 rm x')).toBe('yes');
    expect(blocks('Bash(FOO=1 rm:*)', 'FOO=$X rm x')).toBe('yes');
    expect(blocks('Bash(FOO=1 rm:*)', 'FOO=2 rm x')).toBe('no');
  });

  it('a computed program may be any program, a pattern whose program is a glob none for sure', () => {
    expect(blocks('Bash(rm:*)', '$X foo')).toBe('yes');
    expect(blocks('Bash(rm -rf)', '$X -r')).toBe('no');
    expect(blocks('Bash(* -rf)', 'rm -rf')).toBe('unsure');
  });

  it('only the program is compared by its last path component, the other words as written', () => {
    expect(blocks('Bash(git push:*)', '/usr/bin/git push')).toBe('yes');
    expect(blocks('Bash(git push:*)', 'git ./push')).toBe('no');
    expect(blocks('Bash(git push)', 'git push x')).toBe('no');
    expect(blocks('Bash(git push x)', 'git push')).toBe('no');
  });

  it('a computed word may stand for no word, one, or several', () => {
    expect(blocks('Bash(rm -rf /)', 'rm $A -rf /')).toBe('yes');
    expect(blocks('Bash(rm -rf /)', 'rm $A')).toBe('yes');
    expect(blocks('Bash(rm -rf /)', 'rm -rf / $A')).toBe('yes');
    expect(blocks('Bash(rm -rf /)', 'rm $A -r /')).toBe('no');
    expect(blocks('Bash(rm -rf)', 'rm $A x')).toBe('no');
  });

  it('a * in the pattern takes any words of the command, none included', () => {
    expect(blocks('Bash(git * main)', 'git main')).toBe('yes');
    expect(blocks('Bash(git * main)', 'git push origin main')).toBe('yes');
    expect(blocks('Bash(git * main)', 'git push origin dev')).toBe('no');
    expect(blocks('Bash(git * main)', 'git push $X')).toBe('yes');
  });

  it('a command of computed words only may be any command the pattern names', () => {
    expect(blocks('Bash(rm)', '$X')).toBe('yes');
    expect(blocks('Bash(rm -rf)', '$X')).toBe('yes');
    expect(blocks('Bash(git * main)', '$X main')).toBe('yes');
    // X="git push" runs `git push git`.
    expect(blocks('Bash(git * push:*)', '$X git')).toBe('yes');
  });

  it('after computed words that may be empty, the program is still compared by its last path component', () => {
    // X empty: bash runs /bin/rm -rf /.
    expect(blocks('Bash(rm -rf /)', '$X /bin/rm -rf /')).toBe('yes');
    expect(blocks('Bash(rm -rf /)', '"$@" ./rm -rf /')).toBe('yes');
    expect(blocks('Bash(rm x)', '$X /bin/cp x')).toBe('no');
  });

  it("xargs' run-time arguments may be any words, or none", () => {
    expect(blocks('Bash(rm -rf:*)', 'ls | xargs rm')).toBe('yes');
    expect(blocks('Bash(rm -rf)', 'ls | xargs rm')).toBe('yes');
    expect(blocks('Bash(rm:*)', 'ls | xargs rm -f')).toBe('yes');
    expect(blocks('Bash(rm -rf)', 'ls | xargs rm -i')).toBe('no');
  });

  it('a command of many computed words is judged against a long pattern (each way to split it is tried once)', () => {
    // Tried path by path, the 40 computed words could stand for the pattern's 9 words after rm
    // in about 10^10 ways; the verdict comes from the 420 pairs of positions instead.
    const command = `rm ${'$A '.repeat(40)}z`;
    expect(blocks('Bash(rm -r -f a b c d e f g)', command)).toBe('no');
    expect(blocks('Bash(rm -r -f a b c d e f z)', command)).toBe('yes');
  });
});
