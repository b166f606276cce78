import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';
import { FakePhone } from '../../helpers/fake-phone';

// A scripted model calls the tools a paired phone declared, through the real agent loop: the
// tools are offered only while the phone is attached, results and errors come back as tool
// results, and each call and result is a session event.

let h: Harness | undefined;
let phone: FakePhone | undefined;
afterEach(async () => {
  await phone?.close().catch(() => {});
  await h?.close();
  h = undefined;
  phone = undefined;
});

async function pairPhone(harness: Harness): Promise<FakePhone> {
  const offer = await harness.invoke('devices.createOffer', {});
  const p = await FakePhone.connect({
    url: offer.url.replace(/^https:/, 'wss:').replace(/\/?$/, '/ws'),
    fingerprint: offer.fingerprint,
  });
  const paired = await p.pair(offer.code, 'Test phone');
  if (paired.type !== 'paired') throw new Error(`pairing failed: ${JSON.stringify(paired)}`);
  p.declare([
    {
      tool_id: 'device_get_time',
      description: 'Current time on the phone',
      parameters: { type: 'object', properties: {} },
    },
    {
      tool_id: 'device_send_text',
      description: 'Send a text message',
      parameters: {
        type: 'object',
        properties: { to: { type: 'string' }, body: { type: 'string' } },
        required: ['to', 'body'],
      },
    },
  ]);
  p.serve(async (call) =>
    call.tool_id === 'device_get_time'
      ? { ok: { iso: '2026-12-02T10:00:00+01:00' } }
      : { error: { code: 'permission_denied', message: 'SMS permission not granted' } },
  );
  // The declaration is applied when the host reads it; wait until the hub lists the tools.
  for (let i = 0; i < 200 && !harness.host.devices.hub.toolsFor('any').length; i++)
    await new Promise((r) => setTimeout(r, 10));
  return p;
}

describe('device tools through the agent loop', () => {
  it('a scripted model gets the phone time and an error it can read; both are session events', async () => {
    h = await Harness.start({
      config: { permission_mode: 'auto', devices: { host: '127.0.0.1' } },
    });
    const id = await h.newSession();

    h.script.push({ text: 'no phone yet' });
    const first = await h.send(id, 'what time is it on my phone?');
    await h.waitRunEnd(id, first);
    expect(h.script.requests[0]!.tools.filter((t) => t.startsWith('device_'))).toEqual([]);

    phone = await pairPhone(h);
    h.script.push(
      { toolCalls: [{ name: 'device_get_time', args: {} }] },
      { toolCalls: [{ name: 'device_send_text', args: { to: '+100', body: 'hi' } }] },
      { text: 'It is 10:00 on your phone; the text could not be sent.' },
    );
    const from = await h.send(id, 'what time is it on my phone, and text +100 hi');
    const events = (await h.waitRunEnd(id, from)).filter((e) => e.seq >= from);

    expect(h.script.requests[1]!.tools).toEqual(
      expect.arrayContaining(['device_get_time', 'device_send_text']),
    );
    const results = ofType(events, 'tool_result');
    expect(results.map((r) => [r.name, r.payload.kind])).toEqual([
      ['device_get_time', 'device_result'],
      ['device_send_text', 'error'],
    ]);
    expect(results[0]!.payload).toMatchObject({ result: { iso: '2026-12-02T10:00:00+01:00' } });
    expect(results[1]!.payload).toMatchObject({ code: 'device_error' });
    expect(ofType(events, 'device_tool_call').map((e) => e.tool_id)).toEqual([
      'device_get_time',
      'device_send_text',
    ]);
    expect(ofType(events, 'device_tool_result').map((e) => e.status)).toEqual(['ok', 'error']);
    expect(h.script.requests[2]!.transcript).toContain('2026-12-02T10:00:00+01:00');

    // The phone leaves: its tools are no longer offered on the next run.
    await phone.close();
    phone = undefined;
    for (let i = 0; i < 200 && h.host.devices.hub.toolsFor(id).length; i++)
      await new Promise((r) => setTimeout(r, 10));
    h.script.push({ text: 'the phone is gone' });
    const last = await h.send(id, 'again?');
    await h.waitRunEnd(id, last);
    expect(h.script.requests.at(-1)!.tools.filter((t) => t.startsWith('device_'))).toEqual([]);
  });
});
