import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BashParser } from '../../../electron/host/rules/bash-parser';
import {
  matchRule as matchWith,
  shellSource,
  ShellJudge,
  type CallInput,
} from '../../../electron/host/rules/match-rule';
import {
  decideByRules as decideWith,
  type LoadedRule,
} from '../../../electron/host/rules/permission-rules';
import { parseRule, type ParsedRule, type RuleKind } from '../../../electron/host/rules/rule';
import { hooksFromSource } from '../../../electron/host/hooks/hook-config';
import { suggestRule as suggestWith } from '../../../electron/host/rules/suggest-rule';
import { tempDir } from '../../helpers/temp';

const parser = await BashParser.load();
const judge = () => new ShellJudge(parser);
const matchRule = (r: ParsedRule, call: CallInput, kind: 'allow' | 'block') =>
  matchWith(r, call, kind, judge());
const decideByRules = (rules: LoadedRule[], call: CallInput) => decideWith(rules, call, judge());
const suggestRule = (tool: string, args: unknown, root: string) =>
  suggestWith(tool, args, root, judge());

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

describe('matchRule: which calls a rule speaks about', () => {
  const at = (tool: string, args: Record<string, unknown>) => ({ tool, args, root: root.dir });
  const block = (path: string) =>
    `${path}\n\`\`\`\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n\`\`\`\n`;

  it('a rule of another tool says no; a rule without a pattern covers every call of its tool', () => {
    expect(matchRule(rule('Read'), at('read_file', { path: '.env' }), 'allow')).toBe('yes');
    expect(matchRule(rule('Bash'), at('read_file', { path: '.env' }), 'block')).toBe('no');
    expect(matchRule(rule('Bash'), at('aider_shell_tool', {}), 'allow')).toBe('yes');
  });

  it('a shell call without its source is unsure for a Bash pattern; a background shell op that runs nothing is no', () => {
    expect(matchRule(rule('Bash(rm:*)'), at('aider_shell_tool', {}), 'block')).toBe('unsure');
    expect(matchRule(rule('Bash(rm:*)'), at('aider_shell_tool', { command: 7 }), 'block')).toBe(
      'unsure',
    );
    expect(
      matchRule(rule('Bash(rm:*)'), at('shell_session_tool', { operation: 'write' }), 'block'),
    ).toBe('unsure');
    expect(
      matchRule(
        rule('Bash(rm:*)'),
        at('shell_session_tool', { operation: 'kill', input: 'rm x' }),
        'block',
      ),
    ).toBe('no');
  });

  it('a pattern on a tool whose arguments are not read is unsure', () => {
    expect(matchRule(rule('spawn_agent(x)'), at('spawn_agent', { task: 'x' }), 'block')).toBe(
      'unsure',
    );
    expect(matchRule(rule('spawn_agent(x)'), at('spawn_agent', { task: 'x' }), 'allow')).toBe(
      'unsure',
    );
  });

  it('a file tool without its path matches no allow rule and is unsure for a deny rule', () => {
    for (const call of [
      at('read_file', {}),
      at('read_file', { path: '' }),
      at('file_edit_tool', {}),
      at('aider_edit_block_tool', { content: 'no blocks here' }),
    ]) {
      expect(matchRule(rule('Read(**)'), { ...call, tool: 'read_file' }, 'allow')).toBe('no');
      expect(matchRule(rule('Edit(**)'), { ...call, tool: call.tool }, 'block')).toBe(
        call.tool === 'read_file' ? 'no' : 'unsure',
      );
    }
    expect(matchRule(rule('Read(**)'), at('read_file', {}), 'block')).toBe('unsure');
  });

  it('each file tool is judged on its own path argument', () => {
    expect(matchRule(rule('LS(src)'), at('aider_list_dir_tool', { path: 'src' }), 'allow')).toBe(
      'yes',
    );
    expect(matchRule(rule('LS(src)'), at('aider_list_dir_tool', {}), 'allow')).toBe('no');
    expect(matchRule(rule('LS(.)'), at('aider_list_dir_tool', {}), 'allow')).toBe('yes');
    expect(
      matchRule(
        rule('Edit(src/**)'),
        at('file_edit_tool', { file_path: 'src/deep/a.ts' }),
        'allow',
      ),
    ).toBe('yes');
    expect(
      matchRule(rule('Edit(src/**)'), at('file_edit_tool', { path: 'src/deep/a.ts' }), 'allow'),
    ).toBe('no');
  });

  it('an edit block call touching several files: an allow rule must cover all, a deny rule any', () => {
    const call = at('aider_edit_block_tool', {
      content: `${block('src/deep/a.ts')}\n${block('.env')}`,
    });
    expect(matchRule(rule('Edit(src/**)'), call, 'allow')).toBe('no');
    expect(matchRule(rule('Edit(src/**)'), call, 'block')).toBe('yes');
    expect(matchRule(rule('Edit(**)'), call, 'allow')).toBe('yes');
    expect(matchRule(rule('Edit(*.md)'), call, 'block')).toBe('no');
  });

  it('a path pattern matches the whole path, relative or absolute, not the path as a folder', () => {
    const call = at('read_file', { path: 'src/deep/a.ts' });
    expect(matchRule(rule('Read(src/deep/a.ts)'), call, 'allow')).toBe('yes');
    expect(matchRule(rule(`Read(${root.dir}/src/deep/a.ts)`), call, 'allow')).toBe('yes');
    expect(matchRule(rule(`Read(${root.dir}/src/deep/b.ts)`), call, 'allow')).toBe('no');
  });

  it('the project root listed as "." is no folder for a folder pattern', () => {
    expect(matchRule(rule('LS(?/)'), at('aider_list_dir_tool', { path: '.' }), 'block')).toBe('no');
    expect(matchRule(rule('LS(?/)'), at('aider_list_dir_tool', { path: 'a' }), 'block')).toBe(
      'yes',
    );
  });

  it('a project opened through a symlink is matched on its real path', () => {
    const link = join(root.dir, 'link');
    symlinkSync(root.dir, link);
    const call = { tool: 'read_file', args: { path: 'src/deep/a.ts' }, root: link };
    expect(matchRule(rule(`Read(${root.dir}/src/**)`), call, 'allow')).toBe('yes');
  });

  it('a pattern starting with ~/ is under the home folder', () => {
    // os.homedir() reads the process's own environment (a worker thread's HOME is a copy), so
    // the project is made in the real home folder.
    const project = mkdtempSync(join(realpathSync(homedir()), '.mewbo-match-'));
    try {
      mkdirSync(join(project, 'src'));
      const call = { tool: 'read_file', args: { path: 'src/a.ts' }, root: project };
      const name = basename(project);
      expect(matchRule(rule(`Read(~/${name}/src/**)`), call, 'allow')).toBe('yes');
      expect(matchRule(rule(`Read(~/${name}/other/**)`), call, 'allow')).toBe('no');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('a project root that is gone resolves no path', () => {
    const gone = { tool: 'read_file', args: { path: 'a' }, root: join(root.dir, 'gone') };
    expect(matchRule(rule('Read(**)'), gone, 'allow')).toBe('no');
    expect(matchRule(rule('Read(**)'), gone, 'block')).toBe('unsure');
  });

  it('a pattern starting with / or ./ is relative to the project; an absolute one inside it is absolute', () => {
    const call = at('read_file', { path: 'src/deep/a.ts' });
    expect(matchRule(rule('Read(/src/**)'), call, 'allow')).toBe('yes');
    expect(matchRule(rule('Read(./src/**)'), call, 'allow')).toBe('yes');
    expect(matchRule(rule(`Read(${root.dir}/src/**)`), call, 'allow')).toBe('yes');
    expect(matchRule(rule(`Read(${root.dir}/other/**)`), call, 'allow')).toBe('no');
    expect(matchRule(rule('Read(~/src/**)'), call, 'allow')).toBe('no');
  });

  it('a folder pattern ending in / covers the folder, relative or absolute', () => {
    expect(matchRule(rule('LS(src/)'), at('aider_list_dir_tool', { path: 'src' }), 'block')).toBe(
      'yes',
    );
    expect(
      matchRule(rule(`LS(/${root.dir}/src/)`), at('aider_list_dir_tool', { path: 'src' }), 'block'),
    ).toBe('yes');
  });
});

describe('shell rule patterns', () => {
  const sh = (command: string) => ({ tool: 'aider_shell_tool', args: { command }, root: '/' });
  const allows = (r: string, command: string) => matchRule(rule(r), sh(command), 'allow');
  const blocks = (r: string, command: string) => matchRule(rule(r), sh(command), 'block');

  it('a :* prefix matches on a word boundary, on the words bash passes (quotes removed)', () => {
    expect(allows('Bash(git diff:*)', 'git diff')).toBe('yes');
    expect(allows('Bash(git diff:*)', 'git diff HEAD~1 -- "a b"')).toBe('yes');
    expect(allows('Bash(git diff:*)', 'git diff-tree')).toBe('no');
    expect(allows('Bash(npm test:*)', 'npm "test" x')).toBe('yes');
    expect(allows('Bash(npm test:*)', "n'pm' te\\st")).toBe('yes');
    expect(allows('Bash(npm test)', 'npm test x')).toBe('no');
    expect(allows('Bash(npm test)', 'npm  test')).toBe('yes');
    expect(allows('Bash(git * main)', 'git push origin main')).toBe('yes');
    expect(allows('Bash("a b":*)', "'a b' c")).toBe('yes');
  });

  it('an allow rule covers a computed word or run-time arguments only under its *', () => {
    expect(allows('Bash(npm test:*)', 'npm test $X *.js')).toBe('yes');
    expect(allows('Bash(npm test)', 'npm $X')).toBe('no');
    expect(allows('Bash(rm:*)', 'ls | xargs rm')).toBe('no');
    expect(allows('Bash(rm x)', 'echo x | xargs rm x')).toBe('no');
  });

  it('an allow rule names the program as written: a path is another program', () => {
    expect(allows('Bash(npm test:*)', './npm test')).toBe('no');
    expect(allows('Bash(npm test:*)', '/usr/bin/npm test')).toBe('no');
    expect(allows('Bash(./gradlew build:*)', './gradlew build')).toBe('yes');
  });

  it('assignments before a command must be in the allow rule', () => {
    expect(allows('Bash(npm test:*)', 'NODE_OPTIONS=--require=./x.js npm test')).toBe('no');
    expect(allows('Bash(CI=1 npm test:*)', 'CI=1 npm test')).toBe('yes');
    expect(allows('Bash(npm test:*)', 'PATH=./bin; npm test')).toBe('no');
  });

  it('an allow rule never covers a redirection that writes a file', () => {
    expect(allows('Bash(npm test:*)', 'npm test > ~/.bashrc')).toBe('no');
    expect(allows('Bash(npm test:*)', 'npm test 2>&1 >/dev/null')).toBe('yes');
  });

  it('a deny rule catches the program by any path, and a computed word as anything', () => {
    expect(blocks('Bash(rm:*)', '/bin/rm x')).toBe('yes');
    expect(blocks('Bash(rm:*)', './rm x')).toBe('yes');
    expect(blocks('Bash(/bin/rm:*)', 'rm x')).toBe('yes');
    expect(blocks('Bash(git push:*)', 'git $X')).toBe('yes');
    expect(blocks('Bash(git push:*)', 'git pull')).toBe('no');
    expect(blocks('Bash(rm -rf:*)', 'rm -r x')).toBe('no');
    expect(blocks('Bash(rm -rf /)', 'rm $FLAGS')).toBe('yes');
    expect(blocks('Bash(FOO=1 rm:*)', 'FOO=1 rm x')).toBe('yes');
    expect(blocks('Bash(FOO=1 rm:*)', 'rm x')).toBe('no');
  });

  it('a deny rule cannot check what the grammar cannot read: unjudged, so the call asks', () => {
    expect(blocks('Bash(rm:*)', 'echo )')).toBe('unjudged');
    expect(blocks('Bash(rm:*)', 'rm x; echo )')).toBe('yes');
  });

  it('a pattern that is not one simple command of literal words matches no call for sure', () => {
    expect(allows('Bash(npm test; rm:*)', 'npm test')).toBe('no');
    expect(blocks('Bash(npm $X)', 'ls')).toBe('unsure');
    expect(blocks('Bash(echo ")', 'ls')).toBe('unsure');
  });

  it('without a parser nothing is judged: no allow, and a deny rule cannot tell', () => {
    const none = new ShellJudge(null, 'no grammar');
    expect(matchWith(rule('Bash(ls:*)'), sh('ls'), 'allow', none)).toBe('no');
    expect(matchWith(rule('Bash(rm:*)'), sh('ls'), 'block', none)).toBe('unsure');
    expect(none.analysis('ls')).toEqual({ commands: [], unjudged: ['no grammar'], writes: [] });
    expect(new ShellJudge(null).analysis('ls').unjudged).toEqual(['the bash parser is not loaded']);
  });

  it('a judge reads each command and each pattern once, keeping patterns in the map it was given', () => {
    const patterns = new Map();
    const j = new ShellJudge(parser, undefined, patterns);
    expect(j.analysis('ls -l')).toBe(j.analysis('ls -l'));
    expect(j.pattern('ls:*')).toBe(j.pattern('ls:*'));
    expect(patterns.get('ls:*')).toBe(j.pattern('ls:*'));
  });

  it('only writing input to a background shell is shell source; another tool with the same arguments is not', () => {
    const args = { operation: 'write', input: 'rm x', command: 'ls' };
    expect(shellSource({ tool: 'shell_session_tool', args, root: '/' })).toBe('rm x');
    expect(shellSource({ tool: 'aider_shell_tool', args, root: '/' })).toBe('ls');
    expect(shellSource({ tool: 'read_file', args, root: '/' })).toBeUndefined();
  });
});

describe('decideByRules', () => {
  const sh = (command: string) => ({
    tool: 'aider_shell_tool',
    args: { command },
    root: root.dir,
  });

  it('a shell command is allowed when each of its commands is allowed by some rule', () => {
    const rules = [loaded('allow', 'Bash(npm test:*)'), loaded('allow', 'Bash(git status)')];
    expect(decideByRules(rules, sh('npm test && git status'))).toMatchObject({
      kind: 'allow',
      rule: { rule: { raw: 'Bash(npm test:*)' } },
    });
    expect(decideByRules(rules, sh('npm test && git push'))).toBeNull();
    expect(decideByRules(rules, sh('npm test a#b; git push'))).toBeNull();
  });

  it('a deny rule that cannot be checked makes the call ask, naming the rule and why', () => {
    const rules = [loaded('allow', 'Bash'), loaded('deny', 'Bash(rm:*)')];
    expect(decideByRules(rules, sh('echo )'))).toMatchObject({
      kind: 'ask',
      why: 'the deny rule "Bash(rm:*)" cannot be checked: bash cannot parse it (near ")" at character 6)',
    });
    const denies = [loaded('deny', 'Bash(rm:*)'), loaded('deny', 'Bash(ls:*)')];
    expect(decideByRules(denies, sh('ls; echo )'))?.kind).toBe('deny');
    expect(decideByRules([loaded('allow', 'Bash(echo:*)')], sh('echo )'))).toBeNull();
  });

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
  it('offers a rule that reads back as the words approved, and none for more than one command', () => {
    expect(suggestRule('aider_shell_tool', { command: 'git commit -m "a b"' }, root.dir)).toBe(
      'aider_shell_tool(git commit:*)',
    );
    expect(suggestRule('aider_shell_tool', { command: "echo 'it''s' \\$x" }, root.dir)).toBe(
      'aider_shell_tool(echo its:*)',
    );
    expect(suggestRule('aider_shell_tool', { command: "ls -l \\' 'a b'" }, root.dir)).toBe(
      "aider_shell_tool(ls -l ''\\''' 'a b')",
    );
    for (const command of [
      'npm test a#b; rm x',
      'timeout 5 npm test',
      'FOO=1 npm test',
      'npm test > out',
      'npm test $X',
      'echo )',
      '',
    ])
      expect(suggestRule('aider_shell_tool', { command }, root.dir), command).toBeUndefined();
  });

  it('offers the whole tool for a tool whose arguments are no paths, whatever they hold', () => {
    const block = 'src/deep/a.ts\n```\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n';
    expect(suggestRule('update_todos', { content: block, path: 'src/deep/a.ts' }, root.dir)).toBe(
      'update_todos',
    );
  });

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
