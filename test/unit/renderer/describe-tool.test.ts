import { describe, expect, it } from 'vitest';
import { describeTool } from '../../../renderer/src/components/cards/describe-tool';
import type { ToolItem } from '../../../renderer/src/state/timeline-items';

const item = (name: string, args: unknown, result?: Record<string, unknown>): ToolItem => ({
  kind: 'tool',
  key: 'k',
  seq: 0,
  ts: 0,
  callId: 'c',
  name,
  agentId: 'root',
  args,
  result: result as ToolItem['result'],
});

describe('describeTool', () => {
  it('shows a read with its path and line range', () => {
    const d = describeTool(
      item(
        'read_file',
        { path: 'a.ts' },
        {
          kind: 'file',
          path: 'a.ts',
          start_line: 1,
          end_line: 40,
          total_lines: 120,
          truncated: true,
        },
      ),
    );
    expect([d.kind, d.title, d.subject, d.meta]).toEqual([
      'read',
      'Read',
      'a.ts',
      'lines 1–40 of 120, truncated',
    ]);
  });

  it('shows an edit with its files and counts, open by default', () => {
    const d = describeTool(
      item(
        'file_edit_tool',
        { file_path: 'a.ts' },
        { kind: 'diff', files: ['a.ts'], additions: 3, deletions: 1, text: '' },
      ),
    );
    expect([d.kind, d.subject, d.meta, d.openByDefault]).toEqual(['diff', 'a.ts', '+3 −1', true]);
  });

  it('shows a shell run with its command, exit code and duration, and opens a failure', () => {
    const d = describeTool(
      item(
        'aider_shell_tool',
        { command: 'npm test' },
        {
          kind: 'shell',
          stdout: 'x\n'.repeat(100),
          exit_code: 2,
          duration_ms: 1500,
          timed_out: false,
        },
      ),
    );
    expect([d.kind, d.subject, d.meta, d.durationMs, d.openByDefault]).toEqual([
      'shell',
      'npm test',
      'exit 2',
      1500,
      true,
    ]);
  });

  it('shows a background start by its shell id', () => {
    const d = describeTool(
      item(
        'aider_shell_tool',
        { command: 'npm run dev', run_in_background: true },
        { kind: 'shell', shell_id: 'shell_1', status: 'running' },
      ),
    );
    expect(d.meta).toBe('background · shell_1');
  });

  it('names an MCP tool by server and tool', () => {
    expect(describeTool(item('mcp__github__create_issue', { title: 't' })).title).toBe(
      'github · create_issue',
    );
  });

  it('names an external agent’s call by its kind and title, and a command it ran as a shell card', () => {
    expect(describeTool(item('acp_fetch', { title: 'Fetch the docs' }))).toMatchObject({
      kind: 'generic',
      title: 'Fetch',
      subject: 'Fetch the docs',
    });
    expect(describeTool(item('acp_other', { title: 'Something' })).title).toBe('Tool');
    expect(
      describeTool(
        item(
          'acp_execute',
          { title: 'Run the tests' },
          { kind: 'shell', command: 'npm test', shell_id: 'shell_1', stdout: 'ok', exit_code: 1 },
        ),
      ),
    ).toMatchObject({
      kind: 'shell',
      title: '$',
      subject: 'npm test',
      meta: 'exit 1',
      unsuccessful: true,
      openByDefault: true,
    });
  });
});
