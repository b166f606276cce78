import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../../electron/host/agent/permissions';
import { groupCalls } from '../../../electron/host/agent/dispatch';
import type { PermissionMode } from '../../../electron/host/config/schema';
import type { AnyTool } from '../../../electron/host/tools/tool';
import { stubTool as tool } from '../../helpers/stub-tool';
import { shellSessionTool } from '../../../electron/host/tools/shell-session';
import { switchProjectTool } from '../../../electron/host/tools/switch-project';

const shell = tool('aider_shell_tool', { readOnly: false, approval: 'shell' });
const edit = tool('file_edit_tool', { readOnly: false, approval: 'edit' });
const read = tool('read_file', { approval: 'none' });
const session = shellSessionTool as unknown as AnyTool;
const switcher = switchProjectTool as unknown as AnyTool;
const write = { operation: 'write', shell_id: 'shell_1', input: 'import os', newline: true };
const readOut = { operation: 'read', shell_id: 'shell_1', newline: true };

describe('the permission policy', () => {
  it.each<[PermissionMode, AnyTool, unknown, boolean]>([
    ['ask', shell, {}, true],
    ['ask', edit, {}, true],
    ['ask', read, {}, false],
    ['accept-edits', shell, {}, true],
    ['accept-edits', edit, {}, false],
    ['auto', shell, {}, false],
    ['auto', edit, {}, false],
    ['plan', edit, {}, true],
    // Decided from the arguments: input to a running shell runs code; reading its output does not.
    ['ask', session, write, true],
    ['accept-edits', session, write, true],
    ['auto', session, write, false],
    ['ask', session, readOut, false],
    ['ask', session, { operation: 'list', newline: true }, false],
    ['ask', session, { operation: 'kill', shell_id: 'shell_1', newline: true }, false],
    // Switching projects widens what the agent reaches.
    ['ask', switcher, { project: 'other' }, true],
    ['accept-edits', switcher, { project: 'other' }, true],
    ['auto', switcher, { project: 'other' }, false],
  ])('in %s mode, %s %j needs approval: %s', (mode, t, args, expected) => {
    expect(decideApproval({ tool: t, args, mode }).ask).toBe(expected);
  });
});

describe('dispatch grouping', () => {
  const call = (name: string, i: number, args: Record<string, unknown> = {}) => ({
    id: `c${i}`,
    name,
    args,
  });
  it('consecutive reads share a parallel group; a shell or edit always runs alone, in order', () => {
    const calls = [
      'read_file',
      'read_file',
      'aider_shell_tool',
      'read_file',
      'file_edit_tool',
      'file_edit_tool',
      'read_file',
    ].map((n, i) => call(n, i));
    const groups = groupCalls(calls, [shell, edit, read]);
    expect(groups.map((g) => g.map((c) => c.id))).toEqual([
      ['c0', 'c1'],
      ['c2'],
      ['c3'],
      ['c4'],
      ['c5'],
      ['c6'],
    ]);
  });

  it('reads of shell_session_tool run beside other reads; a write to a shell runs alone', () => {
    const calls = [
      call('read_file', 0),
      call('shell_session_tool', 1, readOut),
      call('shell_session_tool', 2, { operation: 'list' }),
      call('shell_session_tool', 3, write),
      call('read_file', 4),
    ];
    const groups = groupCalls(calls, [read, session]);
    expect(groups.map((g) => g.map((c) => c.id))).toEqual([['c0', 'c1', 'c2'], ['c3'], ['c4']]);
  });

  it('an unknown tool, or arguments that do not parse, are not treated as read-only', () => {
    expect(
      groupCalls([call('read_file', 0), call('nope', 1), call('read_file', 2)], [read]),
    ).toHaveLength(3);
    const bad = call('shell_session_tool', 1, { operation: 'read', bogus: 1 });
    expect(groupCalls([call('read_file', 0), bad], [read, session])).toHaveLength(2);
  });
});
