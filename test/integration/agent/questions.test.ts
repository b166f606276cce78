import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ASK = {
  name: 'ask_user_question',
  args: {
    questions: [
      {
        header: 'Database',
        question: 'Which database should I use?',
        options: [
          { label: 'Postgres', description: 'server' },
          { label: 'SQLite', description: 'file' },
        ],
      },
      { header: 'Name', question: 'What should the table be called?', options: [] },
    ],
  },
};

async function askAndWait(h: Harness, args: object = ASK.args) {
  const id = await h.newSession();
  const from = await h.send(id, 'set up storage');
  const ev = await h.waitFor(id, (e) => e.some((x) => x.type === 'question'), 'the question');
  return { id, from, question: ofType(ev, 'question')[0]!, args };
}

describe('ask_user_question', () => {
  it('blocks until answered, and the answer (labels, text, notes) returns as the tool result in place', async () => {
    h = await Harness.start();
    h.script.push({ toolCalls: [ASK] }, { text: 'Using SQLite with table "items".' });
    const { id, from, question } = await askAndWait(h);
    expect(question.questions[0]!.options.map((o) => o.label)).toEqual(['Postgres', 'SQLite']);
    const r = await h.invoke('agent.answerQuestion', {
      id,
      question_id: question.question_id,
      answers: [{ selected: [1] }, { text: 'items' }],
      notes: 'keep it small',
    });
    expect(r.delivery).toBe('in_place');
    const events = await h.waitRunEnd(id, from);
    const result = ofType(events, 'tool_result')[0]!;
    expect(ofType(events, 'question_answer')[0]!.seq).toBeLessThan(result.seq);
    expect(result.payload).toMatchObject({
      kind: 'question_answer',
      status: 'answered',
      answers: [
        { header: 'Database', selected: ['SQLite'] },
        { header: 'Name', text: 'items' },
      ],
      notes: 'keep it small',
    });
    expect(h.script.requests[1]!.transcript).toContain('SQLite');
  });

  it('two answers sent at the same instant: exactly one is recorded, the other is refused', async () => {
    h = await Harness.start();
    h.script.push({ toolCalls: [ASK] }, { text: 'ok' });
    const { id, from, question } = await askAndWait(h);
    const answer = (text: string) =>
      h!.host.router.invoke(
        'agent.answerQuestion',
        { id, question_id: question.question_id, answers: [{ selected: [0] }, { text }] },
        { clientId: 't', transport: 'local' },
      );
    const [a, b] = await Promise.all([answer('first'), answer('second')]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = (a.ok ? b : a) as { ok: false; error: { code: string } };
    expect(refused.error.code).toBe('already_answered');
    const events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'question_answer')).toHaveLength(1);
  });

  it('refuses answers that do not fit the questions, naming what is wrong', async () => {
    h = await Harness.start();
    h.script.push({ toolCalls: [ASK] }, { text: 'ok' });
    const { id, from, question } = await askAndWait(h);
    const q = question.question_id;
    expect(
      (
        await h.invokeError('agent.answerQuestion', {
          id,
          question_id: q,
          answers: [{ selected: [0] }],
        })
      ).message,
    ).toMatch(/expected 2 answers/);
    expect(
      (
        await h.invokeError('agent.answerQuestion', {
          id,
          question_id: q,
          answers: [{ selected: [5] }, { text: 'x' }],
        })
      ).message,
    ).toMatch(/out of range/);
    expect(
      (
        await h.invokeError('agent.answerQuestion', {
          id,
          question_id: q,
          answers: [{ selected: [0, 1] }, { text: 'x' }],
        })
      ).message,
    ).toMatch(/only one option/);
    expect(
      (
        await h.invokeError('agent.answerQuestion', {
          id,
          question_id: q,
          answers: [{ selected: [0] }, { selected: [0] }],
        })
      ).message,
    ).toMatch(/no options/);
    // Options and free text together are refused, not silently cut to one of them.
    const both = await h.invokeError('agent.answerQuestion', {
      id,
      question_id: q,
      answers: [{ selected: [0], text: 'Postgres, but on port 5433' }, { text: 'x' }],
    });
    expect(both.message).toMatch(/never both/);
    expect(ofType(await h.events(id), 'question_answer')).toEqual([]);
    expect(
      (await h.invokeError('agent.answerQuestion', { id, question_id: 'q_missing', answers: [] }))
        .code,
    ).toBe('not_found');
    // Free text is accepted even where options are offered.
    await h.invoke('agent.answerQuestion', {
      id,
      question_id: q,
      answers: [{ text: 'something else' }, { text: 'x' }],
    });
    expect(
      (
        await h.invokeError('agent.answerQuestion', {
          id,
          question_id: q,
          answers: [{ text: 'again' }, { text: 'x' }],
        })
      ).code,
    ).toBe('already_answered');
    await h.waitRunEnd(id, from);
  });

  it('with timeout_seconds, expiry is a readable result; the question stays answerable and a late answer arrives as a new message', async () => {
    h = await Harness.start();
    h.script.push(
      { toolCalls: [{ name: 'ask_user_question', args: { ...ASK.args, timeout_seconds: 1 } }] },
      { text: 'I will wait for your answer.' },
      { text: 'Thanks, SQLite it is.' },
    );
    const { id, from, question } = await askAndWait(h);
    const first = await h.waitRunEnd(id, from);
    expect(ofType(first, 'question_expired')).toHaveLength(1);
    expect(ofType(first, 'tool_result')[0]!.payload).toMatchObject({
      kind: 'question_answer',
      status: 'expired',
    });
    expect(String(ofType(first, 'tool_result')[0]!.payload.message)).toMatch(/stays open/);
    const before = (await h.events(id)).length;
    const r = await h.invoke('agent.answerQuestion', {
      id,
      question_id: question.question_id,
      answers: [{ selected: [1] }, { text: 'items' }],
    });
    expect(r.delivery).toBe('late');
    const events = await h.waitRunEnd(id, before);
    expect(ofType(events, 'question_answer').at(-1)!.delivery).toBe('late');
    const last = h.script.requests.at(-1)!.transcript;
    expect(last).toMatch(/Late answer to your earlier question[\s\S]*SQLite/);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('Thanks, SQLite it is.');
  });

  it('a question pending when the host restarts is answered afterwards; the answer arrives as a new message and the run continues', async () => {
    h = await Harness.start();
    h.script.push({ toolCalls: [ASK] });
    const { id, question } = await askAndWait(h);
    await h.restart();
    // Opening the session repairs what the dead run left: the call gets a result, the question stays open.
    const afterRestart = await h.waitFor(
      id,
      (ev) => ev.at(-1)?.type === 'run_state' && ev.some((e) => e.type === 'tool_result'),
      'the repair',
    );
    expect(afterRestart.at(-1)).toMatchObject({ type: 'run_state', state: 'idle' });
    expect(ofType(afterRestart, 'tool_result')[0]!.payload).toMatchObject({
      kind: 'question_answer',
      status: 'interrupted',
    });
    expect((await h.invoke('agent.pending', { id })).questions).toHaveLength(1);
    h.script.push({ text: 'Got it after the restart: Postgres.' });
    const r = await h.invoke('agent.answerQuestion', {
      id,
      question_id: question.question_id,
      answers: [{ selected: [0] }, { text: 'things' }],
      capabilities: ['generative_ui', 'ask_user'],
    });
    expect(r.delivery).toBe('late');
    const events = await h.waitRunEnd(id, afterRestart.length);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe(
      'Got it after the restart: Postgres.',
    );
    expect(h.script.requests.at(-1)!.transcript).toMatch(/Late answer[\s\S]*Postgres[\s\S]*things/);
    // The run the answer started after the restart has the answering client's capabilities.
    expect(h.script.requests.at(-1)!.tools).toEqual(
      expect.arrayContaining(['present_ui', 'ask_user_question']),
    );
  });

  it('a new user message supersedes a pending question and is addressed instead', async () => {
    h = await Harness.start();
    h.script.push({ toolCalls: [ASK] }, { text: 'Addressing your new message.' });
    const { id, from, question } = await askAndWait(h);
    await h.send(id, 'forget storage, write docs');
    const events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'question_superseded').map((e) => e.question_id)).toEqual([
      question.question_id,
    ]);
    expect(ofType(events, 'tool_result')[0]!.payload).toMatchObject({ status: 'superseded' });
    const t = h.script.requests[1]!.transcript;
    expect(t.indexOf('superseded')).toBeLessThan(t.indexOf('forget storage'));
  });

  it('is not offered when the client cannot ask, nor are panels without generative_ui', async () => {
    h = await Harness.start();
    h.script.push({ text: 'hi' });
    const id = await h.newSession();
    await h.waitRunEnd(id, await h.send(id, 'hello', []));
    expect(h.script.requests[0]!.tools).not.toContain('ask_user_question');
    expect(h.script.requests[0]!.tools).not.toContain('present_ui');
    expect(h.script.requests[0]!.tools).toContain('update_todos');
  });
});
