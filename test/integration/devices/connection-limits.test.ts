import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_MALFORMED_FRAMES,
  MAX_PAIR_ATTEMPTS_PER_CONNECTION,
} from '../../../electron/host/devices/constants';
import { detached, startHarness, TIME_TOOL, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('per-connection limits', () => {
  it('a malformed frame gets a reason; repeated, the socket is closed (1008)', async () => {
    h = await startHarness();
    const phone = await h.connect();
    phone.sendRaw('not json');
    expect((await phone.next('error')).message).toMatch(/^not JSON/);
    phone.sendRaw(Buffer.from([1, 2, 3]), true);
    expect((await phone.next('error')).message).toMatch(/JSON text, not binary/);
    phone.send({ type: 'pair', code: 5 });
    expect((await phone.next('error')).message).toMatch(/^pair: code/);
    for (let i = 3; i < MAX_MALFORMED_FRAMES; i++) phone.send({ type: 'nonsense' });
    expect((await phone.closed).code).toBe(1008);
    expect(phone.received.filter((f) => f.type === 'error')).toHaveLength(MAX_MALFORMED_FRAMES);
  });

  it('an attached phone flooding frames is told rate_limited, not frame for frame, then cut off', async () => {
    h = await startHarness();
    const { phone } = await h.pairedPhone();
    const sent = 400;
    for (let i = 0; i < sent && phone.isOpen; i++) phone.declare([TIME_TOOL]);
    expect(await phone.next('error')).toMatchObject({ code: 'rate_limited' });
    expect((await phone.closed).code).toBe(1008);
    // One notice per burst of excess (a slow host refills the bucket between bursts).
    const notices = phone.received.filter((f) => f.type === 'error' && f.code === 'rate_limited');
    expect(notices.length).toBeLessThan(sent / 10);
  });

  it('guessing codes on one socket ends after a few attempts (4001)', async () => {
    h = await startHarness();
    const phone = await h.connect();
    for (let i = 0; i < MAX_PAIR_ATTEMPTS_PER_CONNECTION; i++) {
      expect(await phone.pair(`99999${i}` === h.offer.code ? '888888' : `99999${i}`)).toMatchObject(
        { code: 'bad_code' },
      );
    }
    expect((await phone.closed).code).toBe(4001);
  });

  it('a phone that stops answering pings is dropped and detached', async () => {
    h = await startHarness({ heartbeatMs: 100 });
    const { code } = await h.service.createOffer();
    const phone = await h.connect({ autoPong: false });
    // It answers until it is paired (a loaded machine may take longer than a heartbeat to pair),
    // then goes to sleep.
    let awake = true;
    phone.ws.on('ping', (data) => awake && phone.ws.pong(data));
    const answer = await phone.pair(code);
    if (answer.type !== 'paired') throw new Error(answer.message);
    awake = false;
    await detached(h.service, answer.device_id);
    expect((await phone.closed).code).toBe(1006);
  });

  it('a phone that answers pings stays attached across many heartbeats', async () => {
    // Long enough that a busy test machine still answers each ping within one interval.
    h = await startHarness({ heartbeatMs: 400 });
    const { phone, deviceId } = await h.pairedPhone();
    // Several heartbeats' worth of pings, counted by the phone rather than timed.
    let pings = 0;
    await new Promise<void>((resolve) => phone.ws.on('ping', () => ++pings >= 4 && resolve()));
    expect(phone.isOpen).toBe(true);
    expect(h.service.listDevices().find((d) => d.device_id === deviceId)?.attached).toBe(true);
  });
});
