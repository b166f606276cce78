import { describe, expect, it } from 'vitest';
import { buildContext } from '../../../electron/host/agent/context-builder';
import type { SessionEvent, SessionEventBody } from '../../../shared/protocol/events';

function log(...bodies: SessionEventBody[]): SessionEvent[] {
  return bodies.map((b, seq) => ({ ...b, seq, ts: seq }) as SessionEvent);
}
const user = (text: string): SessionEventBody => ({
  type: 'user_message',
  text,
  message_id: `m${text}`,
});
const usage = (agent_id = 'root'): SessionEventBody => ({
  type: 'usage',
  agent_id,
  model: 'm',
  input_tokens: 1,
  output_tokens: 1,
});
const say = (text: string, agent_id = 'root'): SessionEventBody => ({
  type: 'assistant_message',
  message_id: 'a',
  agent_id,
  text,
});
const call = (call_id: string, agent_id = 'root'): SessionEventBody => ({
  type: 'tool_call',
  call_id,
  agent_id,
  name: 'read_file',
  args: { path: call_id },
});
const result = (
  call_id: string,
  agent_id = 'root',
  text = `content of ${call_id}`,
): SessionEventBody => ({
  type: 'tool_result',
  call_id,
  agent_id,
  name: 'read_file',
  payload: { kind: 'file', content: text },
});

describe('buildContext', () => {
  it('rebuilds a conversation: text turns, a turn with calls, its results right after it', () => {
    const m = buildContext(
      log(
        user('hi'),
        usage(),
        say('hello'),
        user('read a and b'),
        usage(),
        say('reading'),
        call('a'),
        call('b'),
        result('b'),
        result('a'),
        usage(),
        say('done'),
      ),
      'root',
    );
    expect(m.map((x) => x.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
    expect(m[3]).toMatchObject({
      role: 'assistant',
      text: 'reading',
      toolCalls: [{ id: 'a' }, { id: 'b' }],
    });
    // Results follow the calls' order, whatever order they finished in.
    expect(m.slice(4, 6).map((x) => (x.role === 'tool' ? x.callId : ''))).toEqual(['a', 'b']);
    // The log ends with the model's turn: a user turn is added so the request is well formed.
    expect(m.at(-1)).toEqual({ role: 'user', text: '(continue)' });
  });

  it('a message sent while calls were outstanding comes after their results', () => {
    const m = buildContext(
      log(user('go'), usage(), call('a'), user('also do X'), result('a')),
      'root',
    );
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(m[3]).toMatchObject({ role: 'user', text: 'also do X' });
  });

  it('a call left without a result (an interrupted run) gets an interrupted error result', () => {
    const m = buildContext(log(user('go'), usage(), call('a')), 'root');
    expect(m[2]).toMatchObject({ role: 'tool', callId: 'a', isError: true });
    expect((m[2] as { content: string }).content).toContain('interrupted');
  });

  it('the latest compaction replaces everything up to its upto_seq with its summary', () => {
    const events = log(
      user('old request'),
      usage(),
      call('a'),
      result('a', 'root', 'OLD CONTENT'),
      { type: 'compaction', summary: 'SUMMARY OF OLD', upto_seq: 3, agent_id: 'root' },
      user('new request'),
    );
    const m = buildContext(events, 'root');
    const text = JSON.stringify(m);
    expect(text).toContain('SUMMARY OF OLD');
    expect(text).not.toContain('OLD CONTENT');
    expect(text).not.toContain('old request');
    expect(text).toContain('new request');
  });

  it('each agent sees only its own turns; a sub-agent starts from its task', () => {
    const events = log(
      user('root asks'),
      usage(),
      { type: 'tool_call', call_id: 's', agent_id: 'root', name: 'spawn_agent', args: {} },
      usage('sub_1'),
      call('x', 'sub_1'),
      result('x', 'sub_1', 'SUB SAW THIS'),
      usage('sub_1'),
      say('report', 'sub_1'),
      {
        type: 'tool_result',
        call_id: 's',
        agent_id: 'root',
        name: 'spawn_agent',
        payload: { kind: 'subagent_result', result: 'report' },
      },
    );
    const root = JSON.stringify(buildContext(events, 'root'));
    expect(root).not.toContain('SUB SAW THIS');
    expect(root).toContain('subagent_result');
    const sub = buildContext(events, 'sub_1', { task: 'THE TASK' });
    expect(sub[0]).toEqual({ role: 'user', text: 'THE TASK' });
    expect(JSON.stringify(sub)).toContain('SUB SAW THIS');
    expect(JSON.stringify(sub)).not.toContain('root asks');
  });

  it('a late answer arrives as a new user message naming the question', () => {
    const events = log(
      user('q?'),
      usage(),
      { type: 'tool_call', call_id: 'q', agent_id: 'root', name: 'ask_user_question', args: {} },
      {
        type: 'question',
        question_id: 'q_1',
        call_id: 'q',
        questions: [
          {
            header: 'Color',
            question: 'Which color?',
            options: [
              { label: 'red', description: '' },
              { label: 'blue', description: '' },
            ],
            multi_select: false,
          },
        ],
      },
      {
        type: 'tool_result',
        call_id: 'q',
        agent_id: 'root',
        name: 'ask_user_question',
        payload: { kind: 'question_answer', status: 'expired' },
      },
      usage(),
      say('waiting'),
      {
        type: 'question_answer',
        question_id: 'q_1',
        answer: { answers: [{ selected: [1] }] },
        delivery: 'late',
      },
    );
    const last = buildContext(events, 'root').at(-1)!;
    expect(last.role).toBe('user');
    expect(last.role === 'user' && last.text).toMatch(/Late answer[\s\S]*Color[\s\S]*blue/);
  });

  it("passive diagnostics after an edit follow the edit's result", () => {
    const m = buildContext(
      log(user('edit'), usage(), call('e'), result('e'), {
        type: 'diagnostics',
        file: 'e',
        text: 'error TS2322 at line 3',
        call_id: 'e',
        agent_id: 'root',
      }),
      'root',
    );
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(m[3]).toMatchObject({ role: 'user' });
    expect((m[3] as { text: string }).text).toContain('TS2322');
  });
});
