import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { matchRule } from '../../../electron/host/rules/match-rule';
import { decideByRules, type LoadedRule } from '../../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../../electron/host/rules/rule';
import { hooksFromSource } from '../../../electron/host/hooks/hook-config';
import { suggestRule } from '../../../electron/host/rules/suggest-rule';
import { tempDir } from '../../helpers/temp';

let root: ReturnType<typeof tempDir>;
beforeEach(() => {
  root = tempDir('mewbo-match-');
  mkdirSync(join(root.dir, 'src/deep'), { recursive: true });
  writeFileSync(join(root.dir, 'src/deep/a.ts'), '');
  writeFileSync(join(root.dir, '.env'), '');
});
afterEach(() => root.cleanup());

const rule = (raw: string) => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return p.rule;
};
const loaded = (kind: RuleKind, raw: string): LoadedRule => ({
  kind,
  rule: rule(raw),
  scope: 'user',
});

describe('matchRule', () => {
  it('path globs are relative to the project, and a name without a slash matches at any depth', () => {
    const call = (path: string) => ({ tool: 'read_file', args: { path }, root: root.dir });
    expect(matchRule(rule('Read(src/**)'), call('src/deep/a.ts'), 'allow')).toBe('yes');
    expect(matchRule(rule('Read(src/**)'), call('.env'), 'allow')).toBe('no');
    expect(matchRule(rule('Read(.env)'), call('.env'), 'block')).toBe('yes');
    expect(matchRule(rule('Read(*.ts)'), call('src/deep/a.ts'), 'allow')).toBe('yes');
    expect(
      matchRule(rule(`Read(/${'/'}${root.dir.slice(1)}/src/**)`), call('src/deep/a.ts'), 'allow'),
    ).toBe('yes');
  });

  it('a path that escapes the project matches no allow rule, and is unsure for deny rules', () => {
    const call = { tool: 'read_file', args: { path: '../../etc/passwd' }, root: root.dir };
    expect(matchRule(rule('Read(**)'), call, 'allow')).toBe('no');
    expect(matchRule(rule('Read(secrets/**)'), call, 'block')).toBe('unsure');
  });

  it('mcp__server covers every tool of that server only', () => {
    const call = (tool: string) => ({ tool, args: {}, root: root.dir });
    expect(matchRule(rule('mcp__github'), call('mcp__github__create_issue'), 'allow')).toBe('yes');
    expect(matchRule(rule('mcp__github__*'), call('mcp__github__x'), 'allow')).toBe('yes');
    expect(matchRule(rule('mcp__github'), call('mcp__githubx__y'), 'allow')).toBe('no');
    expect(matchRule(rule('mcp__github__x'), call('mcp__github__y'), 'allow')).toBe('no');
  });

  it('an unparsed shell command is caught by a deny rule on its words, never by an allow rule', () => {
    const call = {
      tool: 'aider_shell_tool',
      args: { command: 'echo `id`; rm -rf x' },
      root: root.dir,
    };
    expect(matchRule(rule('Bash(echo:*)'), call, 'allow')).toBe('no');
    expect(matchRule(rule('Bash(rm:*)'), call, 'block')).toBe('yes');
  });

  it('writing to a background shell is a shell command for Bash rules; reading it is not', () => {
    const write = {
      tool: 'shell_session_tool',
      args: { operation: 'write', input: 'rm -rf /' },
      root: root.dir,
    };
    const readOp = { tool: 'shell_session_tool', args: { operation: 'read' }, root: root.dir };
    expect(matchRule(rule('Bash(rm:*)'), write, 'block')).toBe('yes');
    expect(matchRule(rule('Bash(rm:*)'), readOp, 'block')).toBe('no');
  });
});

describe('decideByRules', () => {
  it('deny beats ask beats allow, whatever the order written', () => {
    const call = { tool: 'aider_shell_tool', args: { command: 'git push' }, root: root.dir };
    const rules = [
      loaded('allow', 'Bash'),
      loaded('ask', 'Bash(git:*)'),
      loaded('deny', 'Bash(git push:*)'),
    ];
    expect(decideByRules(rules, call)?.kind).toBe('deny');
    expect(decideByRules(rules.slice(0, 2), call)?.kind).toBe('ask');
    expect(decideByRules(rules.slice(0, 1), call)?.kind).toBe('allow');
    expect(decideByRules([], call)).toBeNull();
  });
});

describe('suggestRule', () => {
  it('offers program and subcommand as a prefix, the whole command after an option, none for a compound one', () => {
    expect(suggestRule('aider_shell_tool', { command: 'npm test -- --watch' }, root.dir)).toBe(
      'aider_shell_tool(npm test:*)',
    );
    expect(suggestRule('aider_shell_tool', { command: 'ls -la' }, root.dir)).toBe(
      'aider_shell_tool(ls -la)',
    );
    expect(
      suggestRule('aider_shell_tool', { command: 'npm test && rm x' }, root.dir),
    ).toBeUndefined();
    expect(suggestRule('aider_shell_tool', { command: 'echo $(id)' }, root.dir)).toBeUndefined();
  });
});

describe('hooksFromSource', () => {
  it('reads Claude Code hooks, defaults the timeout to 60 s, matches aliases, and warns per bad entry with its line', () => {
    const json = {
      hooks: {
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'lint.sh' }] },
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', command: 'x' },
              { command: 'ok.sh', timeout: 5 },
            ],
          },
        ],
      },
    };
    const text = JSON.stringify(json, null, 2);
    const warnings: { file: string; line?: number; message: string }[] = [];
    const hooks = hooksFromSource({ scope: 'user', file: 'app.json', text, json }, warnings);
    expect(hooks.map((h) => [h.command, h.timeoutS])).toEqual([
      ['lint.sh', 60],
      ['ok.sh', 5],
    ]);
    expect(hooks[0]!.test('aider_edit_block_tool')).toBe(true);
    expect(hooks[0]!.test('aider_shell_tool')).toBe(false);
    expect(hooks[1]!.test('aider_shell_tool')).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.line).toBe(text.split('\n').findIndex((l) => l.includes('"prompt"')) + 2);
  });
});
