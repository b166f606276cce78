import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { needsApproval } from '../../../electron/host/agent/permissions';
import { groupCalls } from '../../../electron/host/agent/dispatch';
import type { PermissionMode } from '../../../electron/host/config/schema';
import { defineTool, type AnyTool, type ToolFlags } from '../../../electron/host/tools/tool';

const tool = (name: string, flags: Partial<ToolFlags>): AnyTool =>
  defineTool({
    name,
    description: name,
    parameters: z.object({}),
    flags: { readOnly: true, ...flags },
    run: async () => ({ kind: 'ok' }),
  }) as AnyTool;

const shell = tool('aider_shell_tool', { readOnly: false, approval: 'shell' });
const edit = tool('file_edit_tool', { readOnly: false, approval: 'edit' });
const read = tool('read_file', { approval: 'none' });

describe('the permission policy', () => {
  it.each<[PermissionMode, AnyTool, boolean]>([
    ['ask', shell, true],
    ['ask', edit, true],
    ['ask', read, false],
    ['accept-edits', shell, true],
    ['accept-edits', edit, false],
    ['auto', shell, false],
    ['auto', edit, false],
    ['plan', edit, true],
  ])('in %s mode, %s needs approval: %s', (mode, t, expected) => {
    expect(needsApproval(t, mode)).toBe(expected);
  });
});

describe('dispatch grouping', () => {
  const call = (name: string, i: number) => ({ id: `c${i}`, name, args: {} });
  it('consecutive reads share a parallel group; a shell or edit always runs alone, in order', () => {
    const calls = [
      'read_file',
      'read_file',
      'aider_shell_tool',
      'read_file',
      'file_edit_tool',
      'file_edit_tool',
      'read_file',
    ].map(call);
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

  it('an unknown tool is not treated as read-only', () => {
    const groups = groupCalls(
      [call('read_file', 0), call('nope', 1), call('read_file', 2)],
      [read],
    );
    expect(groups).toHaveLength(3);
  });
});
