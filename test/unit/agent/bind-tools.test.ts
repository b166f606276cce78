import { describe, expect, it } from 'vitest';
import {
  bindTools,
  type BindInput,
  type ExclusionReason,
} from '../../../electron/host/agent/bind-tools';
import type { AnyTool } from '../../../electron/host/tools/tool';
import { stubTool as tool } from '../../helpers/stub-tool';

// The binding function as a table: each row is a tool with its flags, a situation, and whether the
// model is offered it (or why not).

const T = {
  read: tool('read_file'),
  shell: tool('aider_shell_tool', { readOnly: false, approval: 'shell' }),
  srb: tool('aider_edit_block_tool', { readOnly: false, approval: 'edit' }),
  patch: tool('file_edit_tool', { readOnly: false, approval: 'edit' }),
  todos: tool('update_todos', { rootOnly: true, actModeOnly: true }),
  ask: tool('ask_user_question', {
    rootOnly: true,
    needsCapability: 'ask_user',
    needsInteractive: true,
  }),
  ui: tool('present_ui', { needsCapability: 'generative_ui' }),
  projects: tool('list_projects', { rootOnly: true, autoWorkspaceOnly: true }),
  plan: tool('exit_plan_mode', { rootOnly: true }),
  spawn: tool('spawn_agent', { readOnly: false, rootOnly: true }),
  mcp: tool('mcp__srv__thing', { readOnly: false, deferrable: true }),
};
const ALL = Object.values(T);

const base: Omit<BindInput, 'tools'> = {
  agent: 'root',
  mode: 'ask',
  capabilities: ['generative_ui', 'ask_user', 'approvals'],
  headless: false,
  workspaceMode: 'auto',
  editBackend: 'search_replace_block',
};

type Row = [string, AnyTool, Partial<BindInput>, true | ExclusionReason];

const rows: Row[] = [
  ['read_file is bound everywhere', T.read, {}, true],
  ['read_file in plan mode', T.read, { mode: 'plan' }, true],
  ['read_file for a sub-agent', T.read, { agent: 'sub' }, true],
  ['shell in plan mode', T.shell, { mode: 'plan' }, 'plan_mode'],
  ['shell in ask mode (approval decides, not binding)', T.shell, {}, true],
  ['SEARCH/REPLACE backend chosen', T.srb, { editBackend: 'search_replace_block' }, true],
  ['structured patch not chosen', T.patch, { editBackend: 'search_replace_block' }, 'edit_backend'],
  ['structured patch chosen', T.patch, { editBackend: 'structured_patch' }, true],
  ['SEARCH/REPLACE not chosen', T.srb, { editBackend: 'structured_patch' }, 'edit_backend'],
  ['edits in plan mode', T.srb, { mode: 'plan' }, 'plan_mode'],
  ['update_todos for the root in act mode', T.todos, {}, true],
  ['update_todos in plan mode', T.todos, { mode: 'plan' }, 'plan_mode'],
  ['update_todos for a sub-agent', T.todos, { agent: 'sub' }, 'root_only'],
  ['ask_user_question with ask_user', T.ask, {}, true],
  [
    'ask_user_question without the capability',
    T.ask,
    { capabilities: ['generative_ui'] },
    'capability',
  ],
  ['ask_user_question headless', T.ask, { headless: true }, 'headless'],
  ['ask_user_question for a sub-agent', T.ask, { agent: 'sub' }, 'root_only'],
  ['ask_user_question in plan mode', T.ask, { mode: 'plan' }, true],
  ['present_ui with generative_ui', T.ui, {}, true],
  ['present_ui without generative_ui', T.ui, { capabilities: ['ask_user'] }, 'capability'],
  ['present_ui for a sub-agent when the client draws panels', T.ui, { agent: 'sub' }, true],
  ['list_projects in auto workspace mode', T.projects, {}, true],
  [
    'list_projects in fixed workspace mode',
    T.projects,
    { workspaceMode: 'fixed' },
    'workspace_mode',
  ],
  ['list_projects for a sub-agent', T.projects, { agent: 'sub' }, 'root_only'],
  ['exit_plan_mode in plan mode', T.plan, { mode: 'plan' }, true],
  ['exit_plan_mode in act mode', T.plan, { mode: 'auto' }, 'act_mode'],
  ['exit_plan_mode for a sub-agent', T.plan, { mode: 'plan', agent: 'sub' }, 'root_only'],
  ['spawn_agent for the root', T.spawn, {}, true],
  ['spawn_agent for a sub-agent', T.spawn, { agent: 'sub' }, 'root_only'],
  ['spawn_agent in plan mode', T.spawn, { mode: 'plan' }, 'plan_mode'],
  [
    "a tool outside a sub-agent's allowed list",
    T.shell,
    { agent: 'sub', allowedTools: ['read_file'] },
    'not_allowed',
  ],
  [
    "a tool inside a sub-agent's allowed list",
    T.read,
    { agent: 'sub', allowedTools: ['read_file'] },
    true,
  ],
];

describe('bindTools', () => {
  it.each(rows)('%s', (_label, t, situation, expected) => {
    const r = bindTools({ ...base, ...situation, tools: ALL });
    const bound = r.bound.some((b) => b.name === t.name);
    if (expected === true) expect(bound).toBe(true);
    else {
      expect(bound).toBe(false);
      expect(r.excluded.find((e) => e.name === t.name)?.reason).toBe(expected);
    }
  });

  it('hands what survived every condition to deferral, which decides the final set', () => {
    const seen: string[][] = [];
    const r = bindTools({
      ...base,
      tools: ALL,
      deferral: (granted) => {
        seen.push(granted.map((g) => g.name));
        return {
          bound: granted.filter((g) => !g.flags.deferrable),
          deferredNames: granted.filter((g) => g.flags.deferrable).map((g) => g.name),
        };
      },
    });
    expect(seen[0]).toContain('mcp__srv__thing');
    expect(seen[0]).not.toContain('file_edit_tool');
    expect(r.deferredNames).toEqual(['mcp__srv__thing']);
    expect(r.bound.map((b) => b.name)).not.toContain('mcp__srv__thing');
  });

  it('a second tool with a taken name is dropped, not offered twice', () => {
    const r = bindTools({ ...base, tools: [T.read, tool('read_file')] });
    expect(r.bound.filter((b) => b.name === 'read_file')).toHaveLength(1);
    expect(r.excluded).toEqual([{ name: 'read_file', reason: 'duplicate' }]);
  });
});
