import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolPayload } from '../../shared/tools/payload';
import { MAX_FRAME_BYTES } from '../../shared/device/limits';
import type { FakePhone } from '../helpers/fake-phone';
import { declared, startHarness, TIME_TOOL, type Harness } from '../integration/devices/harness';

// The pairing listener is the app's only LAN-facing surface: whatever arrives, the host stays
// up, memory stays bounded, and no call resolves without its token.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Deterministic, so a failure replays. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A frame that must not pair, authenticate or resolve anything. */
function hostileFrame(rand: () => number, callIds: string[]): string | Buffer {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const callId = pick([...callIds, 'dc_0000000000000000', '', 'x'.repeat(500)]);
  const kinds: (() => string | Buffer)[] = [
    () =>
      Buffer.from(
        Array.from({ length: 1 + Math.floor(rand() * 64) }, () => Math.floor(rand() * 256)),
      ),
    () => '{"type":"pair","code":"12',
    () => pick(['null', '42', '"pair"', '[]', '[{"type":"hello"}]', 'true', '{}', '']),
    () =>
      JSON.stringify({
        type: pick([
          'PAIR',
          'welcome',
          'paired',
          'device_tool_call',
          'result_ack',
          'error',
          '__proto__',
          'constructor',
        ]),
      }),
    () => JSON.stringify({ type: { toString: 'pair' } }),
    () => `{"type":"declare","tools":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    () => '{"__proto__":{"polluted":true},"type":"pair","code":"000000","device_name":"x"}',
    () =>
      JSON.stringify({
        type: 'pair',
        code: pick([123456, null, '', 'x'.repeat(40), '000000']),
        device_name: pick(['', 'x'.repeat(100), 7, 'Fuzz']),
      }),
    () =>
      JSON.stringify({
        type: 'hello',
        device_id: pick(['dev_x', '', 5]),
        token: pick(['', 'y'.repeat(43), null]),
      }),
    () =>
      JSON.stringify({
        type: 'declare',
        tools: [{ tool_id: 'device_x', description: 'x', parameters: { type: 'object' } }],
      }),
    () =>
      JSON.stringify({
        type: 'device_tool_result',
        call_id: callId,
        call_token: pick(['', 'forged', 'A'.repeat(43)]),
        status: pick(['ok', 'error', 'maybe']),
        result: 1,
      }),
    () => JSON.stringify({ type: 'device_tool_result', call_id: callId, status: 'ok' }),
  ];
  return pick(kinds)();
}

async function openCalls(harness: Harness, victim: FakePhone, count: number) {
  const payloads: Promise<ToolPayload>[] = [];
  for (let i = 0; i < count; i++)
    payloads.push(harness.service.hub.call('s_fuzzvictim', 'device_get_time', {}));
  const calls = [];
  for (let i = 0; i < count; i++) calls.push(await victim.next('device_tool_call'));
  return { payloads, calls };
}

describe('the pairing listener under hostile input', () => {
  it('survives 1,000+ malformed and out-of-order frames and 20 flooding connections; no call resolves without its token', async () => {
    h = await startHarness({ callTimeoutMs: 120_000 });
    const victim = await h.pairedPhone('Victim');
    victim.phone.declare([TIME_TOOL]);
    await declared(h.service, victim.deviceId, 1);
    const { payloads, calls } = await openCalls(h, victim.phone, 5);
    const callIds = calls.map((c) => c.call_id);

    gc();
    const heapBefore = process.memoryUsage().heapUsed;

    // 1. Unauthenticated fuzz: reconnect whenever the host closes a socket (as it should).
    // Each hostile frame is answered (an error, or a 400/403/404 ack) before the next is sent,
    // so every one of them was read and judged by the host, not lost in a closing socket.
    const rand = prng(0xdecade);
    let answered = 0;
    let connections = 0;
    let fuzz: FakePhone | undefined;
    while (answered < 1000) {
      if (!fuzz?.isOpen) {
        fuzz = await h.connect();
        connections += 1;
      }
      const frame = hostileFrame(rand, callIds);
      fuzz.sendRaw(frame, Buffer.isBuffer(frame));
      const reply = await fuzz.nextFrame().catch(() => undefined);
      if (!reply) continue;
      answered += 1;
      expect(['error', 'result_ack']).toContain(reply.type);
      if (reply.type === 'result_ack') expect(reply.code).not.toBe(200);
    }
    await fuzz?.close();

    // 2. Oversized frames close their socket with 1009 (message too big).
    for (let i = 0; i < 3; i++) {
      const big = await h.connect();
      big.sendRaw(`{"type":"pair","pad":"${'x'.repeat(MAX_FRAME_BYTES)}"}`);
      expect((await big.closed).code).toBe(1009);
    }

    // 3. A second, authenticated phone forges results for the victim's calls: 403 or 404, never 200.
    const attacker = await h.pairedPhone('Attacker');
    for (const callId of callIds) {
      attacker.phone.send({
        type: 'device_tool_result',
        call_id: callId,
        call_token: 'A'.repeat(43),
        status: 'ok',
        result: 'forged',
      });
    }
    const attackerAcks = await Promise.all(callIds.map(() => attacker.phone.next('result_ack')));
    expect(attackerAcks.every((a) => a.code === 403)).toBe(true);

    // 4. A flood from 20 connections, each until the host cuts it off (at most 5,000 frames):
    //    10 paired phones spamming results and declarations, 10 strangers.
    const flooders: FakePhone[] = [];
    // One code is active at a time, so the paired ones pair one after another.
    for (let i = 0; i < 20; i++)
      flooders.push(i < 10 ? (await h.pairedPhone(`Flood ${i}`)).phone : await h.connect());
    await Promise.all(
      flooders.map(async (phone, i) => {
        for (let n = 0; n < 5000 && phone.isOpen; n++) {
          phone.send(
            i % 2
              ? {
                  type: 'device_tool_result',
                  call_id: callIds[n % callIds.length],
                  call_token: `forged-${n}`,
                  status: 'ok',
                  result: n,
                }
              : { type: 'declare', tools: [{ ...TIME_TOOL, tool_id: `device_flood_${n % 7}` }] },
          );
          if (n % 50 === 0) await new Promise((r) => setImmediate(r));
        }
      }),
    );
    const floodClosed = await Promise.all(
      flooders.map((p) => p.closed.then((c) => c.code).catch(() => 0)),
    );
    // Every flooder ran into a limit and was cut off (rate limit, malformed budget or auth).
    expect(floodClosed.every((code) => code === 1008 || code === 4001)).toBe(true);
    for (const phone of [...flooders, attacker.phone]) {
      expect(phone.received.filter((f) => f.type === 'result_ack' && f.code === 200)).toEqual([]);
      expect(phone.invalidFrames).toEqual([]);
    }

    // The host is up: the victim still answers its own calls, with the right tokens only.
    expect(h.service.hub.pendingCallCount).toBe(5);
    for (const call of calls) {
      victim.phone.send({
        type: 'device_tool_result',
        call_id: call.call_id,
        call_token: call.call_token,
        status: 'ok',
        result: `legit ${call.call_id}`,
      });
    }
    const results = await Promise.all(payloads);
    expect(results.map((r) => r.result)).toEqual(calls.map((c) => `legit ${c.call_id}`));
    expect(h.service.hub.pendingCallCount).toBe(0);
    const fresh = await h.connect();
    expect((await fresh.pair((await h.service.createOffer()).code)).type).toBe('paired');

    gc();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    console.log(
      `devices fuzz: ${answered} hostile frames over ${connections} connections, 20 flooders; heap growth ${(growth / 2 ** 20).toFixed(1)} MiB`,
    );
    // Bounded: closed sockets leave nothing behind (generous against GC noise).
    expect(growth).toBeLessThan(64 * 2 ** 20);
  });

  it('a frame of exactly 1 MiB is read; one byte more closes the socket', async () => {
    h = await startHarness();
    const phone = await h.connect();
    const prefix = '{"type":"pair","code":"1","device_name":"x","pad":"';
    const exact = `${prefix}${'x'.repeat(MAX_FRAME_BYTES - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(exact)).toBe(MAX_FRAME_BYTES);
    phone.sendRaw(exact);
    expect(await phone.next('error')).toMatchObject({ code: 'bad_code' });
    phone.sendRaw(`${exact} `);
    expect((await phone.closed).code).toBe(1009);
  });
});
