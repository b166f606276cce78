import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';
import { buildMcpTestServer } from '../../helpers/mcp-test-server-build';

// An MCP server's elicitation in a session, through the protocol as the desktop drives it: a real
// test server (configs/app.json) whose `elicit` tool calls elicitInput mid-call, a scripted model
// that calls it. The request becomes an `elicitation` event (the card) naming the server; the
// answer goes back through agent.answerElicitation, checked against the form on the host; Stop,
// a new message and a restart cancel it; the tool's result is what the server was told.

let serverJs: string;
let h: Harness | undefined;
beforeAll(async () => {
  serverJs = await buildMcpTestServer();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FORM = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    seats: { type: 'integer', minimum: 1, maximum: 10, default: 1, title: 'Seats' },
  },
  required: ['email'],
};

async function start(): Promise<Harness> {
  return Harness.start({
    config: {
      permission_mode: 'auto',
      mcpServers: { billing: { command: process.execPath, args: [serverJs] } },
    },
  });
}

/** The model calls billing's elicit tool; resolves once the card is in the log. */
async function elicitationShown(
  h: Harness,
  args: { message: string; schema?: unknown; url?: string },
) {
  h.script.push(
    {
      toolCalls: [
        {
          name: 'mcp__billing__elicit',
          args: {
            message: args.message,
            ...(args.schema ? { schema: JSON.stringify(args.schema) } : {}),
            ...(args.url ? { url: args.url } : {}),
          },
        },
      ],
    },
    { text: 'Done.' },
  );
  const id = await h.newSession();
  const from = await h.send(id, 'set up billing');
  const events = await h.waitFor(
    id,
    (e) =>
      e.some((x) => x.type === 'elicitation') &&
      e.some((x) => x.type === 'run_state' && x.state === 'waiting'),
    'the elicitation card, and the run waiting on it',
    // The first run starts the server process too: on a loaded machine that is slow.
    60_000,
  );
  return { id, from, elicitation: ofType(events, 'elicitation')[0]! };
}

function toldServer(events: Parameters<typeof ofType>[0]): unknown {
  const result = ofType(events, 'tool_result')[0]!;
  return JSON.parse((result.payload as unknown as { text: string }).text);
}

describe('MCP elicitation in a session', () => {
  it('shows the form as a card naming the server, and answers the server with the accepted content', async () => {
    h = await start();
    const { id, from, elicitation } = await elicitationShown(h, {
      message: 'Who gets the invoice?',
      schema: FORM,
    });
    expect(elicitation).toMatchObject({
      server: 'billing',
      message: 'Who gets the invoice?',
      mode: 'form',
      form: {
        fields: [
          { kind: 'text', name: 'email', title: 'Email', required: true, format: 'email' },
          { kind: 'number', name: 'seats', integer: true, minimum: 1, maximum: 10, default: 1 },
        ],
      },
    });
    expect((await h.invoke('sessions.open', { id })).snapshot!.open_questions).toEqual([
      elicitation,
    ]);
    await h.invoke('agent.answerElicitation', {
      id,
      elicitation_id: elicitation.elicitation_id,
      action: 'accept',
      content: { email: 'ann@example.com', seats: 3 },
    });
    const events = await h.waitRunEnd(id, from);
    expect(toldServer(events)).toEqual({
      action: 'accept',
      content: { email: 'ann@example.com', seats: 3 },
    });
    const answer = ofType(events, 'elicitation_answer')[0]!;
    expect(answer).toMatchObject({ action: 'accept', content: { email: 'ann@example.com' } });
    expect(answer.seq).toBeLessThan(ofType(events, 'tool_result')[0]!.seq);
  });

  it('refuses content that does not fit the form, naming the field; the card still waits and can be declined', async () => {
    h = await start();
    const { id, from, elicitation } = await elicitationShown(h, {
      message: 'Who gets the invoice?',
      schema: FORM,
    });
    const answer = (content: Record<string, unknown>) =>
      h!.invokeError('agent.answerElicitation', {
        id,
        elicitation_id: elicitation.elicitation_id,
        action: 'accept',
        content,
      });
    expect(await answer({ email: 'not an address' })).toMatchObject({
      code: 'invalid_answer',
      message: '“Email” must be an email address (name@example.com)',
    });
    expect(await answer({ seats: 2 })).toMatchObject({
      code: 'invalid_answer',
      message: '“Email” is required',
    });
    expect(await answer({ email: 'a@b.co', seats: 11 })).toMatchObject({
      message: '“Seats” must be 10 or less',
    });
    expect(await answer({ email: 'a@b.co', extra: 'x' })).toMatchObject({
      message: "the form has no field 'extra'",
    });
    await h.invoke('agent.answerElicitation', {
      id,
      elicitation_id: elicitation.elicitation_id,
      action: 'decline',
    });
    const events = await h.waitRunEnd(id, from);
    expect(toldServer(events)).toEqual({ action: 'decline' });
    expect(
      await h.invokeError('agent.answerElicitation', {
        id,
        elicitation_id: elicitation.elicitation_id,
        action: 'cancel',
      }),
    ).toMatchObject({ code: 'already_answered' });
  });

  it('a Cancel from the card reaches the server as cancel', async () => {
    h = await start();
    const { id, from, elicitation } = await elicitationShown(h, {
      message: 'Confirm?',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    await h.invoke('agent.answerElicitation', {
      id,
      elicitation_id: elicitation.elicitation_id,
      action: 'cancel',
    });
    expect(toldServer(await h.waitRunEnd(id, from))).toEqual({ action: 'cancel' });
  });

  it('a new message cancels the waiting elicitation, and the server hears cancel', async () => {
    h = await start();
    const { id, from, elicitation } = await elicitationShown(h, {
      message: 'Confirm?',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    h.script.push({ text: 'Fine, something else then.' });
    await h.send(id, 'never mind, do something else');
    const events = await h.waitFor(
      id,
      (e) => e.some((x) => x.type === 'tool_result'),
      'the tool result',
    );
    expect(ofType(events, 'elicitation_answer')[0]).toMatchObject({
      elicitation_id: elicitation.elicitation_id,
      action: 'cancel',
      reason: 'the user sent a new message instead',
    });
    expect(toldServer(events)).toEqual({ action: 'cancel' });
    await h.waitRunEnd(id, from);
  });

  it('Stop closes the card as cancelled, with the reason', async () => {
    h = await start();
    const { id, from, elicitation } = await elicitationShown(h, {
      message: 'Confirm?',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    await h.invoke('sessions.stop', { id });
    const events = await h.waitRunEnd(id, from);
    expect(ofType(events, 'elicitation_answer')).toEqual([
      expect.objectContaining({
        elicitation_id: elicitation.elicitation_id,
        action: 'cancel',
        reason: 'stopped by the user',
      }),
    ]);
  });

  it('an elicitation a crashed app left open is closed as cancelled when the session is opened again', async () => {
    h = await start();
    const id = await h.newSession();
    // As a crash leaves it: the card in the log, no process waiting for its answer.
    const session = await h.host.sessions.get(id);
    await session.append({
      type: 'elicitation',
      elicitation_id: 'el_left',
      call_id: 'call_gone',
      server: 'billing',
      message: 'Confirm?',
      mode: 'form',
      form: { fields: [] },
    });
    await h.restart();
    expect((await h.invoke('agent.pending', { id })).elicitations).toEqual([]);
    const events = await h.events(id);
    expect(ofType(events, 'elicitation_answer')[0]).toMatchObject({
      elicitation_id: 'el_left',
      action: 'cancel',
      reason: 'the app restarted; the server no longer waits for this answer',
    });
    expect((await h.invoke('sessions.open', { id })).snapshot!.open_questions).toEqual([]);
  });

  it('a URL-mode request is a card with the page; declining it tells the server', async () => {
    h = await start();
    const url = 'https://pay.example.com/checkout?order=7';
    const { id, from, elicitation } = await elicitationShown(h, { message: 'Pay here', url });
    expect(elicitation).toMatchObject({ server: 'billing', mode: 'url', url });
    expect(elicitation.form).toBeUndefined();
    await h.invoke('agent.answerElicitation', {
      id,
      elicitation_id: elicitation.elicitation_id,
      action: 'decline',
    });
    expect(toldServer(await h.waitRunEnd(id, from))).toEqual({ action: 'decline' });
  });
});
