import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { AnyTool, ToolContext } from '../../../electron/host/tools/tool';
import type { ToolPayload } from '../../../shared/tools/payload';
import { declared, detached, ECHO_TOOL, startHarness, TIME_TOOL, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const SESSION = 's_devicetest1';

function context(sessionId = SESSION, signal = new AbortController().signal): ToolContext {
  return {
    root: '/tmp',
    sessionId,
    agentId: 'root',
    signal,
    config: parseConfig({}),
    services: { devices: h!.service.hub },
    emit: async () => undefined,
  };
}

/** What the agent loop does with one scripted model tool call: bind, validate, run. */
async function modelCalls(name: string, args: unknown, sessionId = SESSION): Promise<ToolPayload> {
  const tools: AnyTool[] = h!.service.hub.toolsFor(sessionId);
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`${name} is not bound`);
  return tool.run(context(sessionId), tool.parameters.parse(args));
}

async function phoneWithTools(name = 'Test phone', tools: unknown[] = [TIME_TOOL, ECHO_TOOL]) {
  const paired = await h!.pairedPhone(name);
  paired.phone.declare(tools);
  await declared(h!.service, paired.deviceId, tools.length);
  return paired;
}

describe('device tool calls through the DeviceHub', () => {
  it('a scripted model call reaches the phone with a single-use token and returns its result', async () => {
    h = await startHarness();
    const { phone, deviceId } = await phoneWithTools();
    const tools = h.service.hub.toolsFor(SESSION);
    expect(tools.map((t) => t.name)).toEqual(['device_get_time', 'device_echo']);
    expect(tools[0]?.flags).toMatchObject({ needsInteractive: true, readOnly: false });

    const payload = modelCalls('device_echo', { text: 'hi' });
    const call = await phone.next('device_tool_call');
    expect(call).toMatchObject({ tool_id: 'device_echo', args: { text: 'hi' } });
    expect(call.call_token.length).toBeGreaterThanOrEqual(43);
    expect(call.expires_at).toBeGreaterThan(Date.now());
    phone.send({
      type: 'device_tool_result',
      call_id: call.call_id,
      call_token: call.call_token,
      status: 'ok',
      result: { echoed: 'hi' },
    });
    expect(await phone.next('result_ack')).toEqual({
      type: 'result_ack',
      call_id: call.call_id,
      code: 200,
    });
    expect(await payload).toEqual({
      kind: 'device_result',
      device_id: deviceId,
      tool_id: 'device_echo',
      result: { echoed: 'hi' },
    });

    expect(h.events.map((e) => [e.sessionId, e.event])).toEqual([
      [
        SESSION,
        {
          type: 'device_tool_call',
          call_id: call.call_id,
          device_id: deviceId,
          tool_id: 'device_echo',
          args: { text: 'hi' },
        },
      ],
      [
        SESSION,
        {
          type: 'device_tool_result',
          call_id: call.call_id,
          device_id: deviceId,
          status: 'ok',
          result: { echoed: 'hi' },
        },
      ],
    ]);
  });

  it('an error from the phone becomes a device_error payload and an error result event', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    phone.serve(async () => ({ error: { code: 'permission_denied', message: 'location is off' } }));
    const payload = await modelCalls('device_get_time', {});
    expect(payload).toMatchObject({
      kind: 'error',
      code: 'device_error',
      details: { device_code: 'permission_denied' },
    });
    expect(String(payload.message)).toContain('location is off');
    expect(h.events.at(-1)?.event).toMatchObject({
      type: 'device_tool_result',
      status: 'error',
      error: { code: 'permission_denied' },
    });
  });

  it('a phone that does not answer in time fails the call as device_timeout, and a late result gets 404', async () => {
    h = await startHarness({ callTimeoutMs: 300 });
    const { phone } = await phoneWithTools();
    const payload = modelCalls('device_get_time', {});
    const call = await phone.next('device_tool_call');
    expect(await payload).toMatchObject({ kind: 'error', code: 'device_timeout' });
    expect(h.events.at(-1)?.event).toMatchObject({
      type: 'device_tool_result',
      status: 'error',
      error: { code: 'device_timeout' },
    });
    phone.send({
      type: 'device_tool_result',
      call_id: call.call_id,
      call_token: call.call_token,
      status: 'ok',
      result: 1,
    });
    expect((await phone.next('result_ack')).code).toBe(404);
  });

  it('with no device attached a call fails at once as device_unavailable', async () => {
    h = await startHarness();
    expect(h.service.hub.toolsFor(SESSION)).toEqual([]);
    expect(await h.service.hub.call(SESSION, 'device_get_time', {})).toMatchObject({
      kind: 'error',
      code: 'device_unavailable',
    });
    const { phone, deviceId } = await phoneWithTools();
    const [tool] = h.service.hub.toolsFor(SESSION);
    await phone.close();
    await detached(h.service, deviceId);
    expect(h.service.hub.toolsFor(SESSION)).toEqual([]);
    expect(await tool!.run(context(), {})).toMatchObject({
      kind: 'error',
      code: 'device_unavailable',
    });
    expect(h.events).toEqual([]);
  });

  it('a tool the attached phone does not offer is unavailable, and bad args are refused before the phone', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    expect(await h.service.hub.call(SESSION, 'device_send_sms', {})).toMatchObject({
      code: 'device_unavailable',
    });
    expect(await h.service.hub.call(SESSION, 'device_echo', { text: 5 })).toMatchObject({
      code: 'invalid_args',
    });
    expect(phone.received.some((f) => f.type === 'device_tool_call')).toBe(false);
  });

  it('device tools are never offered to a headless run', async () => {
    h = await startHarness();
    await phoneWithTools();
    expect(h.service.hub.toolsFor(SESSION, { headless: true })).toEqual([]);
    expect(h.service.hub.toolsFor(SESSION)).toHaveLength(2);
  });

  it('a stopped run ends its device call as aborted', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    const stop = new AbortController();
    const [tool] = h.service.hub.toolsFor(SESSION);
    const payload = tool!.run(context(SESSION, stop.signal), {});
    await phone.next('device_tool_call');
    stop.abort();
    expect(await payload).toMatchObject({ kind: 'error', code: 'aborted' });
  });

  it('a run stopped before the call goes out never reaches the phone', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    const stop = new AbortController();
    stop.abort();
    expect(await h.service.hub.call(SESSION, 'device_get_time', {}, stop.signal)).toMatchObject({
      code: 'aborted',
    });
    phone.send({
      type: 'device_tool_result',
      call_id: 'dc_probe',
      call_token: 't',
      status: 'ok',
      result: 1,
    });
    await phone.next('result_ack');
    expect(phone.received.some((f) => f.type === 'device_tool_call')).toBe(false);
  });

  it('revoking a phone fails its calls in flight at once', async () => {
    h = await startHarness();
    const { phone, deviceId } = await phoneWithTools();
    const payload = modelCalls('device_get_time', {});
    await phone.next('device_tool_call');
    await h.service.revoke(deviceId);
    expect(await payload).toMatchObject({ kind: 'error', code: 'device_unavailable' });
  });
});

describe('result acknowledgements', () => {
  it('two racing results resolve the call exactly once: the first gets 200, the second 409', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    const payload = modelCalls('device_get_time', {});
    const call = await phone.next('device_tool_call');
    const base = {
      type: 'device_tool_result',
      call_id: call.call_id,
      call_token: call.call_token,
      status: 'ok',
    };
    phone.send({ ...base, result: 'first' });
    phone.send({ ...base, result: 'second' });
    const acks = [await phone.next('result_ack'), await phone.next('result_ack')];
    expect(acks.map((a) => a.code)).toEqual([200, 409]);
    expect(await payload).toMatchObject({ result: 'first' });
    expect(h.events.filter((e) => e.event.type === 'device_tool_result')).toHaveLength(1);
  });

  it('results racing over two sockets of the same phone are still delivered once', async () => {
    h = await startHarness();
    const { phone, deviceId, token } = await phoneWithTools();
    const payload = modelCalls('device_get_time', {});
    const call = await phone.next('device_tool_call');
    const second = await h.connect();
    await second.hello(deviceId, token);
    const base = {
      type: 'device_tool_result',
      call_id: call.call_id,
      call_token: call.call_token,
      status: 'ok',
    };
    second.send({ ...base, result: 'from the new socket' });
    expect((await second.next('result_ack')).code).toBe(200);
    second.send({ ...base, result: 'again' });
    expect((await second.next('result_ack')).code).toBe(409);
    expect(await payload).toMatchObject({ result: 'from the new socket' });
  });

  it('a wrong call token gets 403 and leaves the call waiting for the right one', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    const payload = modelCalls('device_get_time', {});
    const call = await phone.next('device_tool_call');
    const base = { type: 'device_tool_result', call_id: call.call_id, status: 'ok' };
    phone.send({ ...base, call_token: 'forged-token', result: 'forged' });
    expect((await phone.next('result_ack')).code).toBe(403);
    phone.send({ ...base, call_token: call.call_token, result: 'real' });
    expect((await phone.next('result_ack')).code).toBe(200);
    expect(await payload).toMatchObject({ result: 'real' });
  });

  it('another paired phone cannot answer a call sent to this one (403)', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools('Victim');
    const session = 's_boundvictim';
    h.service.bindSessionDevice(session, h.service.listDevices()[0]!.device_id);
    const other = await h.pairedPhone('Other');
    const payload = modelCalls('device_get_time', {}, session);
    const call = await phone.next('device_tool_call');
    other.phone.send({
      type: 'device_tool_result',
      call_id: call.call_id,
      call_token: call.call_token,
      status: 'ok',
      result: 'stolen',
    });
    expect((await other.phone.next('result_ack')).code).toBe(403);
    phone.send({
      type: 'device_tool_result',
      call_id: call.call_id,
      call_token: call.call_token,
      status: 'ok',
      result: 'mine',
    });
    expect(await payload).toMatchObject({ result: 'mine' });
  });

  it('an unknown call id gets 404 and a malformed result 400', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    phone.send({
      type: 'device_tool_result',
      call_id: 'dc_nosuchcall',
      call_token: 't',
      status: 'ok',
      result: 1,
    });
    expect(await phone.next('result_ack')).toEqual({
      type: 'result_ack',
      call_id: 'dc_nosuchcall',
      code: 404,
    });
    phone.send({ type: 'device_tool_result', call_id: 'dc_x', status: 'ok', result: 1 });
    expect(await phone.next('result_ack')).toEqual({
      type: 'result_ack',
      call_id: 'dc_x',
      code: 400,
    });
    phone.send({ type: 'device_tool_result', call_id: 'dc_y', call_token: 't', status: 'maybe' });
    expect((await phone.next('result_ack')).code).toBe(400);
    phone.send({ type: 'device_tool_result', status: 'error' });
    expect(await phone.next('result_ack')).toEqual({
      type: 'result_ack',
      call_id: null,
      code: 400,
    });
  });
});

describe('which phone serves a session', () => {
  it('an unbound session uses the most recently attached phone; a bound one only its own', async () => {
    h = await startHarness();
    const a = await phoneWithTools('A', [TIME_TOOL]);
    const b = await phoneWithTools('B', [TIME_TOOL, ECHO_TOOL]);
    expect(h.service.hub.toolsFor(SESSION)).toHaveLength(2);
    expect(h.service.bindSessionDevice(SESSION, a.deviceId)).toEqual({
      bound: a.deviceId,
      serving: a.deviceId,
    });
    expect(h.service.hub.toolsFor(SESSION).map((t) => t.name)).toEqual(['device_get_time']);
    a.phone.serve(async () => ({ ok: 'from A' }));
    b.phone.serve(async () => ({ ok: 'from B' }));
    expect(await modelCalls('device_get_time', {})).toMatchObject({ result: 'from A' });
    expect(await modelCalls('device_get_time', {}, 's_otherunbound')).toMatchObject({
      result: 'from B',
    });

    await a.phone.close();
    await detached(h.service, a.deviceId);
    expect(h.service.hub.toolsFor(SESSION)).toEqual([]);
    expect(h.service.bindSessionDevice(SESSION, null)).toEqual({
      bound: null,
      serving: b.deviceId,
    });
    expect(h.service.hub.toolsFor(SESSION)).toHaveLength(2);
    expect(() => h!.service.bindSessionDevice(SESSION, 'dev_unknown')).toThrow(/no paired device/);
  });

  it('one phone serves several sessions at once', async () => {
    h = await startHarness();
    const { phone } = await phoneWithTools();
    phone.serve(async (call) => ({ ok: call.call_id }));
    const results = await Promise.all(
      ['s_first01', 's_second01', 's_third01'].map((s) => modelCalls('device_get_time', {}, s)),
    );
    expect(new Set(results.map((r) => r.result)).size).toBe(3);
    expect(new Set(h.events.map((e) => e.sessionId))).toEqual(
      new Set(['s_first01', 's_second01', 's_third01']),
    );
  });
});
