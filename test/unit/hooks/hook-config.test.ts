import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hooksFromSource, projectHooksPreview } from '../../../electron/host/hooks/hook-config';
import type { ConfigWarning, SettingsSource } from '../../../electron/host/rules/settings-sources';
import { tempDir } from '../../helpers/temp';

// The `hooks` section as Claude Code writes it: what loads, what each matcher matches (Claude
// Code's tool names standing for the product's), and the warning, with its file and line, for
// each entry that cannot load while the others still do.

/** A settings file holding `json`, pretty-printed as a user writes it. */
function source(json: unknown, scope: SettingsSource['scope'] = 'project'): SettingsSource {
  const text = JSON.stringify(json, null, 2);
  return { scope, file: '/p/.mewbo/settings.json', text, json: json as Record<string, unknown> };
}
function load(json: unknown, scope: SettingsSource['scope'] = 'project') {
  const warnings: ConfigWarning[] = [];
  const hooks = hooksFromSource(source(json, scope), warnings);
  return { hooks, warnings };
}
const group = (hooks: unknown[], matcher?: unknown) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks,
});

describe('hooksFromSource', () => {
  it('a file without a hooks section has none and says nothing', () => {
    expect(load({ permissions: { allow: [] } })).toEqual({ hooks: [], warnings: [] });
  });

  it('a hooks section that is not an object of events is one warning at its line', () => {
    for (const bad of [[], 'x', null, 3]) {
      const { hooks, warnings } = load({ other: 1, hooks: bad });
      expect(hooks).toEqual([]);
      expect(warnings).toEqual([
        {
          file: '/p/.mewbo/settings.json',
          line: 3,
          message: 'hooks: must be an object of event names',
        },
      ]);
    }
  });

  it('loads a command with its event, matcher, default timeout, scope, file and line', () => {
    const { hooks, warnings } = load(
      { hooks: { PreToolUse: [group([{ type: 'command', command: 'check.sh' }], 'Bash')] } },
      'user',
    );
    expect(warnings).toEqual([]);
    expect(hooks).toEqual([
      {
        event: 'PreToolUse',
        command: 'check.sh',
        timeoutS: 60,
        matcher: 'Bash',
        scope: 'user',
        file: '/p/.mewbo/settings.json',
        line: 9,
        test: expect.any(Function),
      },
    ]);
  });

  it('a timeout in seconds is kept; a missing type is a command; a missing matcher is empty', () => {
    const { hooks, warnings } = load({ hooks: { Stop: [group([{ command: 'x', timeout: 5 }])] } });
    expect(warnings).toEqual([]);
    expect(hooks).toMatchObject([{ event: 'Stop', command: 'x', timeoutS: 5, matcher: '' }]);
  });

  it('each bad entry is a warning naming the event, file and line; the good ones beside it load', () => {
    const json = {
      hooks: {
        Nope: [group([{ command: 'n' }], 'Bash')],
        PostToolUse: 'not a list',
        PreToolUse: [
          { matcher: 'Bash' },
          null,
          group([{ command: 'm' }], 7),
          group([{ command: 'r' }], 'Bash('),
          group([{ command: 'a' }, { command: '   ' }, { type: 'command' }, 'x', null]),
          group([{ type: 'prompt', command: 'p' }]),
          group([
            { command: 't0', timeout: 0 },
            { command: 't1', timeout: '5' },
            { command: 't2', timeout: -1 },
          ]),
          group([{ command: 'good' }], '*'),
        ],
      },
    };
    const { hooks, warnings } = load(json);
    expect(hooks.map((h) => h.command)).toEqual(['a', 'good']);
    const text = source(json).text;
    /** The line of `s`'s first occurrence after `after` (the event's key). */
    const lineOf = (s: string, after = '"hooks"') => {
      const at = text.indexOf(s, text.indexOf(after));
      return text.slice(0, at).split('\n').length;
    };
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [
        lineOf('"Nope"'),
        'hooks: unknown event "Nope" (known: PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, Notification)',
      ],
      [lineOf('"PostToolUse"'), 'hooks: PostToolUse must be a list of {matcher, hooks}'],
      [lineOf('"PreToolUse"'), 'hooks: PreToolUse: each entry needs a "hooks" list'],
      [lineOf('"PreToolUse"'), 'hooks: PreToolUse: each entry needs a "hooks" list'],
      // The first matcher of the event: a number cannot be searched for as itself.
      [lineOf('"matcher"', '"PreToolUse"'), 'hooks: PreToolUse: matcher must be a string'],
      [
        lineOf('"Bash("'),
        expect.stringMatching(
          /^hooks: PreToolUse: matcher "Bash\(" is not a regular expression: .+/,
        ),
      ],
      [lineOf('"PreToolUse"'), 'hooks: PreToolUse: a hook needs a "command" string'],
      [lineOf('"PreToolUse"'), 'hooks: PreToolUse: a hook needs a "command" string'],
      [lineOf('"PreToolUse"'), 'hooks: PreToolUse: a hook needs a "command" string'],
      [lineOf('"PreToolUse"'), 'hooks: PreToolUse: a hook needs a "command" string'],
      [lineOf('"p"'), 'hooks: PreToolUse: type "prompt" is not supported (only "command")'],
      [lineOf('"t0"'), 'hooks: PreToolUse: timeout must be a positive number of seconds'],
      [lineOf('"t1"'), 'hooks: PreToolUse: timeout must be a positive number of seconds'],
      [lineOf('"t2"'), 'hooks: PreToolUse: timeout must be a positive number of seconds'],
    ]);
    expect(warnings.every((w) => w.file === '/p/.mewbo/settings.json')).toBe(true);
  });

  it("a warning's line is looked for from the hooks key on, not in a value written before it", () => {
    const { warnings } = load({ x: 'Nope', hooks: { Nope: [] } });
    expect(warnings.map((w) => w.line)).toEqual([4]);
  });

  it('a line is looked for in its own event, not in an earlier one with the same text', () => {
    const { hooks } = load({
      before: 'same.sh',
      hooks: {
        Stop: [group([{ command: 'same.sh' }])],
        SessionStart: [group([{ command: 'same.sh' }])],
      },
    });
    expect(hooks.map((h) => h.line)).toEqual([8, 17]);
  });
});

describe('a matcher', () => {
  const matcherOf = (matcher: string | undefined, event = 'PreToolUse') =>
    load({ hooks: { [event]: [group([{ command: 'c' }], matcher)] } }).hooks[0]!.test;

  it('empty, "*" or absent matches every tool', () => {
    for (const m of ['', '*', undefined]) {
      const test = matcherOf(m);
      expect(test('read_file')).toBe(true);
      expect(test('anything_else')).toBe(true);
    }
  });

  it('is a whole-name regular expression: every alternative anchored at both ends', () => {
    const test = matcherOf('read_file|aider_list_dir_tool');
    expect(test('read_file')).toBe(true);
    expect(test('aider_list_dir_tool')).toBe(true);
    expect(test('read_file_x')).toBe(false);
    expect(test('x_read_file')).toBe(false);
    expect(test('xaider_list_dir_tool')).toBe(false);
    expect(test('aider_list_dir_tool_x')).toBe(false);
  });

  it("a Claude Code name matches the product's tools it stands for, and no other", () => {
    const bash = matcherOf('Bash');
    expect(bash('aider_shell_tool')).toBe(true);
    expect(bash('shell_session_tool')).toBe(true);
    expect(bash('read_file')).toBe(false);
    const edits = matcherOf('Edit|Write');
    expect(edits('file_edit_tool')).toBe(true);
    expect(edits('aider_edit_block_tool')).toBe(true);
    expect(edits('aider_shell_tool')).toBe(false);
    // A product name matches that tool only, not its alias's other tools.
    const own = matcherOf('aider_shell_tool');
    expect(own('aider_shell_tool')).toBe(true);
    expect(own('shell_session_tool')).toBe(false);
  });

  it('is ignored for events that are not about a tool call', () => {
    for (const event of ['UserPromptSubmit', 'Stop', 'SessionStart', 'Notification']) {
      const { hooks, warnings } = load({
        hooks: { [event]: [group([{ command: 'c' }], 'Bash(')] },
      });
      expect(warnings).toEqual([]);
      expect(hooks[0]!.test('read_file')).toBe(true);
    }
    expect(matcherOf('Bash', 'PostToolUse')('read_file')).toBe(false);
  });
});

describe('projectHooksPreview', () => {
  let t: ReturnType<typeof tempDir> | undefined;
  afterEach(() => t?.cleanup());

  it("lists what trusting a project would run: each project hook's event, matcher and command", async () => {
    t = tempDir('mewbo-hooks-preview-');
    mkdirSync(join(t.dir, '.mewbo'));
    writeFileSync(
      join(t.dir, '.mewbo', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [group([{ command: 'guard.sh' }], 'Bash')],
          Stop: [group([{ command: 'done.sh' }])],
        },
      }),
    );
    expect(await projectHooksPreview(t.dir)).toEqual([
      { kind: 'hook', name: 'PreToolUse (Bash)', detail: 'guard.sh' },
      { kind: 'hook', name: 'Stop', detail: 'done.sh' },
    ]);
  });

  it('a project without settings would run nothing', async () => {
    t = tempDir('mewbo-hooks-preview-');
    expect(await projectHooksPreview(t.dir)).toEqual([]);
  });
});
