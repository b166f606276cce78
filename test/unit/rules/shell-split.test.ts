import { describe, expect, it } from 'vitest';
import { splitShellCommand } from '../../../electron/host/rules/shell-split';
import { patternWords, wordsMatch } from '../../../electron/host/rules/match-rule';
import { parseRule } from '../../../electron/host/rules/rule';

describe('splitShellCommand', () => {
  it('splits on &&, ||, ;, |, & and pulls $(...) out as a part of its own', () => {
    expect(splitShellCommand('npm test && rm -rf /')).toEqual([
      ['npm', 'test'],
      ['rm', '-rf', '/'],
    ]);
    expect(splitShellCommand('a || b; c | d & e')).toEqual([['a'], ['b'], ['c'], ['d'], ['e']]);
    expect(splitShellCommand('echo $(git status)')).toEqual([
      ['git', 'status'],
      ['echo', '$(...)'],
    ]);
    expect(splitShellCommand('echo $(a $(b))')).toEqual([
      ['b'],
      ['a', '$(...)'],
      ['echo', '$(...)'],
    ]);
  });

  it('keeps quoted operators inside their word', () => {
    expect(splitShellCommand('echo "a && b"')).toEqual([['echo', 'a && b']]);
    expect(splitShellCommand('git commit -m "a b"')).toEqual([['git', 'commit', '-m', 'a b']]);
    expect(splitShellCommand("echo '$HOME'")).toEqual([['echo', '$HOME']]);
  });

  it('drops descriptor redirections and /dev/null, and comments', () => {
    expect(splitShellCommand('ls 2>&1')).toEqual([['ls']]);
    expect(splitShellCommand('npm test 2> /dev/null')).toEqual([['npm', 'test']]);
    expect(splitShellCommand("echo 'x' # rm -rf /")).toEqual([['echo', 'x']]);
  });

  it.each([
    'echo `rm -rf /`',
    'echo "$(rm -rf /)"',
    'echo "$HOME"',
    'echo $X',
    'echo ${HOME}',
    'npm test\nrm -rf /',
    'cat <(ls)',
    '(cd x; rm y)',
    'echo hi > /etc/passwd',
    'echo $((1+2))',
    'echo "unterminated',
  ])('fails closed on what it does not understand: %j', (cmd) => {
    expect(splitShellCommand(cmd)).toBeNull();
  });
});

describe('shell patterns', () => {
  it('a :* prefix matches on a word boundary only', () => {
    const p = patternWords('git diff:*')!;
    expect(wordsMatch(p, ['git', 'diff'])).toBe(true);
    expect(wordsMatch(p, ['git', 'diff', 'HEAD'])).toBe(true);
    expect(wordsMatch(p, ['git', 'diff-tree'])).toBe(false);
    expect(wordsMatch(patternWords('npm test')!, ['npm', 'test', 'x'])).toBe(false);
  });
});

describe('parseRule', () => {
  it('reads Claude Code names as aliases and refuses malformed rules', () => {
    expect(parseRule('Bash(npm test)')).toMatchObject({
      ok: true,
      rule: { tools: ['aider_shell_tool', 'shell_session_tool'], pattern: 'npm test' },
    });
    expect(parseRule('mcp__github')).toMatchObject({
      ok: true,
      rule: { toolPrefix: 'mcp__github__' },
    });
    for (const bad of ['Bash(npm', 'Bash()', '', 'a b', 42, 'mcp__x__y(z)'])
      expect(parseRule(bad).ok).toBe(false);
  });
});
