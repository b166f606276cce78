import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';
import {
  documentedApprovalHash,
  ReferenceClient,
  type Frame,
} from '../../helpers/reference-remote-client';
import { waitingShellApproval } from '../../helpers/waiting-approval';

// #21 "How it is proved": a reference client written from PROTOCOL.md alone pairs with remote
// rights over the real pinned-TLS socket of a real host (temp MEWBO_HOME, scripted model), sees a
// waiting approval with its full detail, fails with a stale hash, approves with the right one, and
// the decision is in the session log with the phone's name. Without the rights it is refused all
// of it, and nothing happens.

let h: Harness | undefined;
const clients: ReferenceClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await h?.close();
  h = undefined;
});

async function start(): Promise<Harness> {
  h = await Harness.start({
    wire: 'openai',
    config: { permission_mode: 'ask', devices: { host: '127.0.0.1' } },
  });
  return h;
}

async function pairClient(
  harness: Harness,
  remote: boolean,
  name = 'Reference phone',
): Promise<{
  client: ReferenceClient;
  paired: Frame;
  offer: { url: string; fingerprint: string };
}> {
  const offer = await harness.invoke('devices.createOffer', { remote });
  const client = await ReferenceClient.connect(offer.url, offer.fingerprint);
  clients.push(client);
  const paired = await client.pair(offer.code, name);
  expect(paired.type).toBe('paired');
  return { client, paired, offer };
}

describe('remote frames: the reference client from PROTOCOL.md', () => {
  it('pairs with remote rights, sees the waiting approval in full, fails with a stale hash, approves with the right one (logged with its name), and a replay is refused', async () => {
    const harness = await start();
    const { client, paired } = await pairClient(harness, true);
    expect(paired.rights).toEqual({ remote: true, screen_control: false });
    expect(paired.remote_versions).toEqual([1]);

    const { id, from, request } = await waitingShellApproval(harness, 'echo remote-ok');

    const sessions = await client.request('remote_sessions');
    expect(sessions.type).toBe('remote_sessions');
    expect(sessions.sessions).toEqual([
      expect.objectContaining({ session_id: id, state: 'waiting', waiting: 1 }),
    ]);

    const pending = await client.request('remote_pending');
    expect(pending.total).toBe(1);
    const item = (pending.items as Frame[])[0]!;
    expect(item).toMatchObject({
      kind: 'approval',
      session_id: id,
      approval_id: request.approval_id,
      tool: 'aider_shell_tool',
      truncated: false,
    });
    // The full command, as the desktop shows it.
    expect(item.detail).toContain('$ echo remote-ok');
    expect(JSON.parse(item.args_json as string)).toEqual({ command: 'echo remote-ok' });
    // The hash is what the document says it is, over what the phone shows.
    const shown = item as unknown as Parameters<typeof documentedApprovalHash>[0];
    expect(item.hash).toBe(documentedApprovalHash(shown));

    // Stale: the hash of something else under this approval's id (another command).
    const stale = documentedApprovalHash({
      ...shown,
      detail: shown.detail.replace('remote-ok', 'rm -rf ~'),
    });
    const refused = await client.request('remote_decide', {
      session_id: id,
      approval_id: item.approval_id,
      hash: stale,
      decision: 'allow',
    });
    expect(refused).toMatchObject({ type: 'remote_error', code: 'stale' });
    expect(ofType(await harness.events(id), 'approval_decision')).toEqual([]);

    const decide = {
      session_id: id,
      approval_id: item.approval_id,
      hash: item.hash,
      decision: 'allow',
    };
    expect(await client.request('remote_decide', decide)).toMatchObject({ type: 'remote_done' });
    const events = await harness.waitRunEnd(id, from);
    expect(ofType(events, 'approval_decision')).toEqual([
      expect.objectContaining({
        approval_id: request.approval_id,
        decision: 'allow',
        by: 'user',
        via: { device_id: paired.device_id, device_name: 'Reference phone' },
      }),
    ]);
    const result = ofType(events, 'tool_result')[0]!;
    expect(JSON.stringify(result.payload)).toContain('remote-ok');

    // The same frame again (a replay) decides nothing.
    expect(await client.request('remote_decide', decide)).toMatchObject({
      type: 'remote_error',
      code: 'already_decided',
    });
    expect(ofType(await harness.events(id), 'approval_decision')).toHaveLength(1);
  });

  it("one approval's hash cannot decide another approval", async () => {
    const harness = await start();
    const { client } = await pairClient(harness, true);
    const a = await waitingShellApproval(harness, 'echo first');
    const b = await waitingShellApproval(harness, 'echo second');
    const items = (await client.request('remote_pending')).items as Frame[];
    const itemA = items.find((i) => i.approval_id === a.request.approval_id)!;
    const itemB = items.find((i) => i.approval_id === b.request.approval_id)!;
    const crossed = await client.request('remote_decide', {
      session_id: b.id,
      approval_id: itemB.approval_id,
      hash: itemA.hash,
      decision: 'allow',
    });
    expect(crossed).toMatchObject({ type: 'remote_error', code: 'stale' });
    expect(ofType(await harness.events(b.id), 'approval_decision')).toEqual([]);
    // A deny with the right hash carries its reason to the agent, logged with the phone.
    expect(
      await client.request('remote_decide', {
        session_id: b.id,
        approval_id: itemB.approval_id,
        hash: itemB.hash,
        decision: 'deny',
        reason: 'not from my phone',
      }),
    ).toMatchObject({ type: 'remote_done' });
    const events = await harness.waitRunEnd(b.id, b.from);
    expect(ofType(events, 'approval_decision')[0]).toMatchObject({
      decision: 'deny',
      reason: 'not from my phone',
      via: { device_name: 'Reference phone' },
    });
  });

  it('without remote rights every remote frame is refused and does nothing', async () => {
    const harness = await start();
    const { client, paired, offer } = await pairClient(harness, false);
    expect(paired.rights).toEqual({ remote: false, screen_control: false });
    const { id, request } = await waitingShellApproval(harness, 'echo never');
    // What a remote phone would send, each a real attempt with valid content (the right hash).
    const tries: Array<[string, object]> = [
      ['remote_sessions', {}],
      ['remote_pending', {}],
      [
        'remote_decide',
        {
          session_id: id,
          approval_id: request.approval_id,
          hash: documentedApprovalHash({
            session_id: id,
            approval_id: request.approval_id,
            tool: request.tool,
            detail: request.detail,
            args_json: JSON.stringify({ command: 'echo never' }),
          }),
          decision: 'allow',
        },
      ],
      ['remote_read', { session_id: id }],
      ['remote_message', { session_id: id, text: 'do something else' }],
      ['remote_answer', { session_id: id, question_id: 'q_x', answers: [{ text: 'x' }] }],
    ];
    let socket = client;
    for (const [i, [type, body]] of tries.entries()) {
      // Each refusal counts as a malformed frame; the fifth closes the socket: reconnect.
      if (i === 5) {
        expect((await socket.closed).code).toBe(1008);
        socket = await ReferenceClient.connect(offer.url, offer.fingerprint);
        clients.push(socket);
        expect((await socket.hello(paired.device_id as string, paired.token as string)).type).toBe(
          'welcome',
        );
      }
      const reply = await socket.request(type, body);
      expect(reply, type).toMatchObject({ type: 'remote_error', code: 'no_remote_rights' });
    }
    const events = await harness.events(id);
    expect(ofType(events, 'approval_decision')).toEqual([]);
    expect(ofType(events, 'user_message')).toHaveLength(1);
    expect(socket.frames.some((f) => f.type === 'remote_sessions')).toBe(false);
  });

  it('answers a question, reads the newest messages and sends a short message, each logged with the phone', async () => {
    const harness = await start();
    const { client } = await pairClient(harness, true, 'Pixel');
    harness.script.push(
      {
        toolCalls: [
          {
            name: 'ask_user_question',
            args: {
              questions: [
                {
                  header: 'DB',
                  question: 'Which database?',
                  options: [
                    { label: 'Postgres', description: 'server' },
                    { label: 'SQLite', description: 'file' },
                  ],
                },
              ],
            },
          },
        ],
      },
      { text: 'Using SQLite.' },
      { text: 'Noted: tables in snake_case.' },
    );
    const id = await harness.newSession();
    const from = await harness.send(id, 'set up storage');
    await harness.waitFor(
      id,
      (e) => e.some((x) => x.type === 'run_state' && x.state === 'waiting'),
      'the question',
    );
    const item = (
      (await client.request('remote_pending', { session_id: id })).items as Frame[]
    )[0]!;
    expect(item).toMatchObject({ kind: 'question', session_id: id });
    expect((item.questions as Frame[])[0]).toMatchObject({
      question: 'Which database?',
      options: [
        { label: 'Postgres', description: 'server' },
        { label: 'SQLite', description: 'file' },
      ],
    });
    expect(
      await client.request('remote_answer', {
        session_id: id,
        question_id: item.question_id,
        answers: [{ selected: [5] }],
      }),
    ).toMatchObject({ type: 'remote_error', code: 'invalid' });
    expect(
      await client.request('remote_answer', {
        session_id: id,
        question_id: item.question_id,
        answers: [{ selected: [1] }],
      }),
    ).toMatchObject({ type: 'remote_done' });
    const ran = await harness.waitRunEnd(id, from);
    expect(ofType(ran, 'question_answer')[0]).toMatchObject({
      answer: { answers: [{ selected: [1] }] },
      via: { device_name: 'Pixel' },
    });

    const read = await client.request('remote_read', { session_id: id, limit: 2 });
    expect(read).toMatchObject({ type: 'remote_conversation', state: 'done', more: true });
    expect((read.items as Frame[]).map((i) => [i.role, i.text])).toEqual([
      ['tool', 'ask_user_question'],
      ['assistant', 'Using SQLite.'],
    ]);

    expect(
      await client.request('remote_message', { session_id: id, text: '/compact now' }),
    ).toMatchObject({ type: 'remote_error', code: 'invalid' });
    expect(
      await client.request('remote_message', { session_id: id, text: 'x'.repeat(2001) }),
    ).toMatchObject({ type: 'remote_error', code: 'bad_request' });
    const before = (await harness.events(id)).length;
    const sent = await client.request('remote_message', {
      session_id: id,
      text: 'Use snake_case for tables',
    });
    expect(sent).toMatchObject({ type: 'remote_done', message_id: expect.any(String) });
    const after = await harness.waitRunEnd(id, before);
    expect(ofType(after, 'user_message').at(-1)).toMatchObject({
      text: 'Use snake_case for tables',
      message_id: sent.message_id,
      via: { device_name: 'Pixel' },
    });
    expect(harness.script.requests.at(-1)!.transcript).toContain('Use snake_case for tables');
  });

  it('taking the remote right away closes the socket at once (4005); the phone comes back without it', async () => {
    const harness = await start();
    const { client, paired, offer } = await pairClient(harness, true);
    expect((await client.request('remote_sessions')).type).toBe('remote_sessions');

    await harness.invoke('devices.setRights', {
      device_id: paired.device_id as string,
      remote: false,
    });
    const rights = await client.next((f) => f.type === 'rights');
    expect(rights.rights).toEqual({ remote: false, screen_control: false });
    expect((await client.closed).code).toBe(4005);

    const again = await ReferenceClient.connect(offer.url, offer.fingerprint);
    clients.push(again);
    const welcome = await again.hello(paired.device_id as string, paired.token as string);
    expect(welcome).toMatchObject({ type: 'welcome', rights: { remote: false } });
    expect(await again.request('remote_sessions')).toMatchObject({ code: 'no_remote_rights' });

    // Granting it back needs no reconnect.
    await harness.invoke('devices.setRights', {
      device_id: paired.device_id as string,
      remote: true,
    });
    expect((await again.next((f) => f.type === 'rights')).rights).toMatchObject({ remote: true });
    expect((await again.request('remote_sessions')).type).toBe('remote_sessions');
    const listed = (await harness.invoke('devices.list', {})).devices;
    expect(listed[0]).toMatchObject({ remote: true, screen_control: false });
  });

  it('rate-limits remote requests per device, and a reconnect does not refill the budget', async () => {
    const harness = await start();
    const { client, paired, offer } = await pairClient(harness, true);
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => client.request('remote_sessions')),
    );
    const limited = replies.filter((r) => r.code === 'rate_limited').length;
    expect(limited).toBeGreaterThan(0);
    expect(replies.filter((r) => r.type === 'remote_sessions').length).toBeLessThan(30);
    await client.close();
    const again = await ReferenceClient.connect(offer.url, offer.fingerprint);
    clients.push(again);
    await again.hello(paired.device_id as string, paired.token as string);
    const burst = await Promise.all(
      Array.from({ length: 25 }, () => again.request('remote_sessions')),
    );
    expect(burst.some((r) => r.code === 'rate_limited')).toBe(true);
  });
});

describe('remote frames: an approval too large to show in full', () => {
  it('is sent cut with truncated:true; it can be denied from the phone but allowed only on the desktop', async () => {
    const harness = await start();
    const { client } = await pairClient(harness, true);
    const command = `echo ${'a'.repeat(100 * 1024)}`;
    const { id, from } = await waitingShellApproval(harness, command);
    const item = ((await client.request('remote_pending')).items as Frame[])[0]!;
    expect(item.truncated).toBe(true);
    expect(String(item.detail)).toHaveLength(96 * 1024);
    const allow = await client.request('remote_decide', {
      session_id: id,
      approval_id: item.approval_id,
      hash: item.hash,
      decision: 'allow',
    });
    expect(allow).toMatchObject({ type: 'remote_error', code: 'too_large' });
    expect(ofType(await harness.events(id), 'approval_decision')).toEqual([]);
    const deny = await client.request('remote_decide', {
      session_id: id,
      approval_id: item.approval_id,
      hash: item.hash,
      decision: 'deny',
    });
    expect(deny.type).toBe('remote_done');
    const events = await harness.waitRunEnd(id, from);
    expect(ofType(events, 'approval_decision')[0]).toMatchObject({ decision: 'deny' });
  });
});
