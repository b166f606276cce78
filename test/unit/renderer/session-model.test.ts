import { describe, expect, it } from 'vitest';
import { SessionModel } from '../../../renderer/src/state/session-model';
import type { SessionEvent, SessionEventBody } from '../../../shared/protocol/events';

function build(bodies: SessionEventBody[]): SessionModel {
  const m = new SessionModel();
  bodies.forEach((b, seq) => m.apply({ ...b, seq, ts: 1000 + seq } as SessionEvent));
  return m;
}

describe('SessionModel', () => {
  it('merges a tool call and its result into one item that keeps its position', () => {
    const m = build([
      {
        type: 'tool_call',
        call_id: 'c1',
        agent_id: 'root',
        name: 'read_file',
        args: { path: 'a.ts' },
      },
      { type: 'user_message', text: 'hi', message_id: 'm1' },
      {
        type: 'tool_result',
        call_id: 'c1',
        agent_id: 'root',
        name: 'read_file',
        payload: { kind: 'file', path: 'a.ts' },
      },
    ]);
    expect(m.items.map((i) => i.kind)).toEqual(['tool', 'user']);
    const tool = m.items[0]!;
    expect(tool.kind === 'tool' && tool.result?.kind).toBe('file');
  });

  it('shows a notice (a model moved to the Responses API) as a neutral row, not an error', () => {
    const m = build([
      { type: 'notice', code: 'responses_api', message: 'deep-model answers only on Responses' },
    ]);
    expect(m.items).toEqual([
      expect.objectContaining({
        kind: 'notice',
        text: 'deep-model answers only on Responses',
        tone: 'neutral',
      }),
    ]);
  });

  it('replaces an item object on update so memoized rows see the change', () => {
    const m = build([{ type: 'tool_call', call_id: 'c1', agent_id: 'root', name: 'x', args: {} }]);
    const before = m.items[0];
    m.apply({
      type: 'tool_result',
      call_id: 'c1',
      agent_id: 'root',
      name: 'x',
      payload: { kind: 'ok' },
      seq: 1,
      ts: 2,
    } as SessionEvent);
    expect(m.items[0]).not.toBe(before);
  });

  it('ignores a duplicate, and shows what follows a gap in a damaged log', () => {
    const m = build([{ type: 'user_message', text: 'a', message_id: 'm1' }]);
    expect(
      m.apply({
        type: 'user_message',
        text: 'dup',
        message_id: 'm1',
        seq: 0,
        ts: 1,
      } as SessionEvent),
    ).toBe(false);
    expect(
      m.apply({
        type: 'user_message',
        text: 'gap',
        message_id: 'm3',
        seq: 5,
        ts: 1,
      } as SessionEvent),
    ).toBe(true);
    expect(m.items).toHaveLength(2);
    expect(m.length).toBe(6);
    expect(
      m.apply({ type: 'user_message', text: 'x', message_id: 'm4', seq: 3, ts: 1 } as SessionEvent),
    ).toBe(false);
  });

  it('keeps only the newest todos list of the root agent', () => {
    const m = build([
      {
        type: 'todos',
        agent_id: 'root',
        source: 'update_todos',
        items: [
          { label: 'a', status: 'in_progress' },
          { label: 'b', status: 'pending' },
        ],
      },
      {
        type: 'todos',
        agent_id: 'sub1',
        source: 'update_todos',
        items: [{ label: 'sub', status: 'pending' }],
      },
      {
        type: 'todos',
        agent_id: 'root',
        source: 'update_todos',
        items: [{ label: 'b', status: 'in_progress' }],
      },
    ]);
    expect(m.todos).toEqual([{ label: 'b', status: 'in_progress' }]);
  });

  it('replaces a panel presented again with its ui_id where the first one sits', () => {
    const m = build([
      {
        type: 'panel',
        ui_id: 'gui-00000001',
        call_id: 'c1',
        spec: { root: [] },
        summary: 'v1',
        text: '',
      },
      { type: 'user_message', text: 'between', message_id: 'm1' },
      {
        type: 'panel',
        ui_id: 'gui-00000001',
        call_id: 'c2',
        spec: { root: [{ type: 'Divider' }] },
        summary: 'v2',
        text: '',
      },
    ]);
    expect(m.items.map((i) => i.kind)).toEqual(['panel', 'user']);
    expect(m.items[0]!.kind === 'panel' && m.items[0]!.summary).toBe('v2');
  });

  it('moves a question through expired to answered late, never back from answered', () => {
    const m = build([
      {
        type: 'question',
        question_id: 'q1',
        call_id: 'c1',
        questions: [{ header: 'H', question: 'Q?', options: [], multi_select: false }],
      },
      { type: 'question_expired', question_id: 'q1' },
      {
        type: 'question_answer',
        question_id: 'q1',
        answer: { answers: [{ text: 'yes' }] },
        delivery: 'late',
      },
      { type: 'question_superseded', question_id: 'q1' },
    ]);
    const q = m.items[0]!;
    expect(q.kind === 'question' && [q.state, q.delivery]).toEqual(['answered', 'late']);
  });

  it('attaches an approval decision to its request', () => {
    const m = build([
      {
        type: 'approval_request',
        approval_id: 'a1',
        call_id: 'c1',
        tool: 'aider_shell_tool',
        summary: 'run',
        detail: 'rm -rf build',
      },
      { type: 'approval_decision', approval_id: 'a1', decision: 'deny', by: 'user', reason: 'no' },
    ]);
    const a = m.items[0]!;
    expect(a.kind === 'approval' && a.decision).toEqual({
      decision: 'deny',
      by: 'user',
      reason: 'no',
    });
  });

  it('tracks background shells from their start and exit events', () => {
    const m = build([
      { type: 'shell_started', shell_id: 'shell_1', command: 'npm run dev', cwd: '/p' },
      { type: 'shell_exited', shell_id: 'shell_1', exit_code: 0, signal: null },
    ]);
    expect(m.shells.get('shell_1')).toMatchObject({
      command: 'npm run dev',
      state: 'exited',
      exitCode: 0,
    });
  });

  it('follows the session project through created and project_switch events', () => {
    const m = build([
      { type: 'session_created', title: 't', project: 'a', root: '/a' },
      { type: 'project_switch', from: 'a', to: 'b', root: '/b' },
    ]);
    expect([m.project, m.root]).toEqual(['b', '/b']);
    expect(m.items.at(-1)?.kind).toBe('project_switch');
  });

  it('hides the tool card of a tool drawn by its own event unless it failed', () => {
    const m = build([
      { type: 'tool_call', call_id: 'c1', agent_id: 'root', name: 'update_todos', args: {} },
      { type: 'tool_call', call_id: 'c2', agent_id: 'root', name: 'present_ui', args: {} },
      {
        type: 'tool_result',
        call_id: 'c2',
        agent_id: 'root',
        name: 'present_ui',
        payload: { kind: 'error', code: 'invalid_panel', message: 'bad' },
      },
    ]);
    expect(m.items.filter(SessionModel.visible).map((i) => i.kind === 'tool' && i.name)).toEqual([
      'present_ui',
    ]);
  });

  it('takes an external agent’s modes, settings and usage from the snapshot when their events lie before the window', () => {
    const m = new SessionModel(10);
    const at = (seq: number, body: SessionEventBody) => ({ ...body, seq, ts: seq }) as SessionEvent;
    m.applySnapshot({
      seq: 10,
      title: 't',
      project: null,
      root: null,
      mode: null,
      todos: null,
      run_state: 'idle',
      open_questions: [],
      shells: [],
      agent_state: [
        at(3, { type: 'agent_modes', current: 'plan', modes: [{ id: 'plan', name: 'Plan' }] }),
        at(4, { type: 'agent_usage', used: 5, size: 10 }),
        at(5, {
          type: 'agent_options',
          options: [{ type: 'boolean', id: 'fast', name: 'Fast', current: true }],
        }),
      ],
    });
    expect(m.agentModes).toEqual({ current: 'plan', modes: [{ id: 'plan', name: 'Plan' }] });
    expect(m.agentUsage).toMatchObject({ used: 5, size: 10 });
    expect(m.agentOptions.map((o) => o.id)).toEqual(['fast']);
  });
});
