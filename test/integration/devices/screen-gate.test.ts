import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';
import { ReferenceClient, type Frame } from '../../helpers/reference-remote-client';
import { makePng } from '../../helpers/png';

const SCREEN = makePng(4, 8, [0, 128, 255]).toString('base64');

// #21 part 5, the host side: a phone (the reference client, from PROTOCOL.md alone) declares
// device_screen_* tools. The model is offered them only while the user has "Screen control" on for
// that phone; each call waits for approval in ask mode; turning it off removes them from the very
// next request, and a call to a remembered name is refused without reaching the phone.

let h: Harness | undefined;
let client: ReferenceClient | undefined;
afterEach(async () => {
  await client?.close().catch(() => undefined);
  await h?.close();
  h = undefined;
  client = undefined;
});

const TOOLS = [
  {
    tool_id: 'device_get_time',
    description: 'The phone clock',
    parameters: { type: 'object', properties: {} },
  },
  {
    tool_id: 'device_screen_capture',
    description: 'A picture of the phone screen',
    parameters: { type: 'object', properties: {} },
  },
  {
    tool_id: 'device_screen_tap',
    description: 'Taps the phone screen',
    parameters: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
    },
  },
];

/** Answers every call as a phone app would, and records what it was asked to run. */
function serve(c: ReferenceClient, ran: string[]): void {
  void (async () => {
    for (;;) {
      const call = await c
        .next((f) => f.type === 'device_tool_call', 3_600_000)
        .catch(() => undefined);
      if (!call) return;
      ran.push(call.tool_id as string);
      c.send({
        type: 'device_tool_result',
        call_id: call.call_id,
        call_token: call.call_token,
        status: 'ok',
        // A capture answers with the screen as an image (PROTOCOL.md, the screen-control gate).
        result:
          call.tool_id === 'device_screen_capture'
            ? { image: { media_type: 'image/png', data: SCREEN }, orientation: 'portrait' }
            : { done: call.tool_id },
      });
    }
  })();
}

const deviceTools = (tools: string[]) => tools.filter((t) => t.startsWith('device_')).sort();

describe('the screen-control gate', () => {
  it('offers device_screen_* only while the gate is on, asks approval for each call, and they vanish from the next request when it is turned off', async () => {
    h = await Harness.start({
      wire: 'openai',
      config: {
        permission_mode: 'ask',
        devices: { host: '127.0.0.1' },
        providers: { openai: { images: true } },
      },
    });
    const offer = await h.invoke('devices.createOffer', {});
    client = await ReferenceClient.connect(offer.url, offer.fingerprint);
    const paired: Frame = await client.pair(offer.code, 'Android');
    const deviceId = paired.device_id as string;
    client.send({ type: 'declare', tools: TOOLS });
    const ran: string[] = [];
    serve(client, ran);
    // The declaration is accepted in full: the device list shows all three tools.
    for (let i = 0; i < 200; i++) {
      const d = (await h.invoke('devices.list', {})).devices[0];
      if (d?.tools.length === 3) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await h.invoke('devices.list', {})).devices[0]).toMatchObject({
      screen_control: false,
      tools: expect.arrayContaining([expect.objectContaining({ tool_id: 'device_screen_tap' })]),
    });
    const id = await h.newSession();

    // Off (the default): the model is not told of them, though they are declared.
    h.script.push({ text: 'nothing to do' });
    await h.waitRunEnd(id, await h.send(id, 'look at my phone'));
    expect(deviceTools(h.script.requests.at(-1)!.tools)).toEqual(['device_get_time']);

    // On: offered from the next request, and a call waits for approval in ask mode.
    await h.invoke('devices.setRights', { device_id: deviceId, screen_control: true });
    expect((await client.next((f) => f.type === 'rights')).rights).toEqual({
      remote: false,
      screen_control: true,
    });
    h.script.push(
      { toolCalls: [{ name: 'device_screen_capture', args: {} }] },
      { toolCalls: [{ name: 'device_get_time', args: {} }] },
      { text: 'seen' },
    );
    const from = await h.send(id, 'look at my phone now');
    const waiting = await h.waitFor(
      id,
      (e) => e.some((x) => x.seq >= from && x.type === 'approval_request'),
      'the screen approval',
    );
    expect(deviceTools(h.script.requests.at(-1)!.tools)).toEqual([
      'device_get_time',
      'device_screen_capture',
      'device_screen_tap',
    ]);
    const request = ofType(waiting, 'approval_request').at(-1)!;
    expect(request.tool).toBe('device_screen_capture');
    // Not run before the user decides.
    expect(ran).toEqual([]);
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'allow',
    });
    const events = (await h.waitRunEnd(id, from)).filter((e) => e.seq >= from);
    expect(ran).toEqual(['device_screen_capture', 'device_get_time']);
    // The ordinary device tool did not ask; the screen tool asked once.
    expect(ofType(events, 'approval_request').map((r) => r.tool)).toEqual([
      'device_screen_capture',
    ]);
    expect(ofType(events, 'tool_result').map((r) => [r.name, r.payload.kind])).toEqual([
      ['device_screen_capture', 'image'],
      ['device_get_time', 'device_result'],
    ]);
    // The model sees the capture as an image (Chat Completions: an image_url part after the tool
    // messages), never as base64 text in the result.
    const seen = JSON.stringify(h.fake.requests.at(-2)!.body);
    expect(seen).toContain(`"url":"data:image/png;base64,${SCREEN}"`);
    expect(seen.split(SCREEN).length - 1).toBe(1);
    const screenOn = h.script.requests.length;

    // Off again: gone from the very next request; a remembered name does not reach the phone.
    await h.invoke('devices.setRights', { device_id: deviceId, screen_control: false });
    h.script.push(
      { toolCalls: [{ name: 'device_screen_tap', args: { x: 1, y: 2 } }] },
      { text: 'could not' },
    );
    const again = await h.send(id, 'tap it');
    const after = (await h.waitRunEnd(id, again)).filter((e) => e.seq >= again);
    expect(deviceTools(h.script.requests[screenOn]!.tools)).toEqual(['device_get_time']);
    expect(ofType(after, 'approval_request')).toEqual([]);
    expect(ofType(after, 'tool_result')[0]!.payload.kind).toBe('error');
    expect(ran).toEqual(['device_screen_capture', 'device_get_time']);
  });

  it('the hub refuses a screen call while the gate is off, even when asked directly', async () => {
    h = await Harness.start({
      wire: 'openai',
      config: { permission_mode: 'auto', devices: { host: '127.0.0.1' } },
    });
    const offer = await h.invoke('devices.createOffer', {});
    client = await ReferenceClient.connect(offer.url, offer.fingerprint);
    const paired = await client.pair(offer.code, 'Android');
    client.send({ type: 'declare', tools: TOOLS });
    const ran: string[] = [];
    serve(client, ran);
    const hub = h.host.devices.hub;
    for (let i = 0; i < 200 && hub.toolsFor('s').length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const id = await h.newSession();
    // Unprotected control: an ordinary device tool goes through this same path to the phone.
    expect(await hub.call(id, 'device_get_time', {})).toMatchObject({ kind: 'device_result' });
    expect(await hub.call(id, 'device_screen_capture', {})).toMatchObject({
      kind: 'error',
      code: 'screen_control_off',
    });
    await h.invoke('devices.setRights', {
      device_id: paired.device_id as string,
      screen_control: true,
    });
    expect(await hub.call(id, 'device_screen_capture', {})).toMatchObject({
      kind: 'image',
      media_type: 'image/png',
      width: 4,
      height: 8,
      result: { orientation: 'portrait' },
    });
    expect(ran).toEqual(['device_get_time', 'device_screen_capture']);
  });
});

describe('an image a device returns', () => {
  it('is judged by its bytes: a claimed PNG that is not one is an error, not an image', async () => {
    const { payloadOf } = await import('../../../electron/host/devices/call-outcome');
    const fake = Buffer.from('#!/bin/sh\necho not an image\n').toString('base64');
    expect(
      payloadOf(
        { status: 'ok', result: { image: { media_type: 'image/png', data: fake } } },
        'dev_1',
        'device_screen_capture',
      ),
    ).toMatchObject({ kind: 'error', code: 'device_error' });
    expect(
      payloadOf(
        { status: 'ok', result: { image: { media_type: 'image/jpeg', data: SCREEN } } },
        'dev_1',
        'device_screen_capture',
      ),
    ).toMatchObject({ kind: 'image', media_type: 'image/png', image: { media_type: 'image/png' } });
  });
});
