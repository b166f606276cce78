import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAIR_CODE_TTL_MS } from '../../../electron/host/devices/constants';
import { DevicesService } from '../../../electron/host/devices/devices-service';
import { sha256Hex } from '../../../electron/host/devices/tokens';
import { FakePhone } from '../../helpers/fake-phone';
import { ManualClock, startHarness, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('pairing over wss', () => {
  it('a good code pairs the phone: it gets a device id and token, and is listed by name', async () => {
    h = await startHarness();
    const phone = await h.connect();
    const answer = await phone.pair(h.offer.code, 'Pixel 8');
    expect(answer.type).toBe('paired');
    if (answer.type !== 'paired') return;
    expect(answer.token.length).toBeGreaterThanOrEqual(43);
    const [device] = h.service.listDevices();
    expect(device).toMatchObject({
      device_id: answer.device_id,
      name: 'Pixel 8',
      attached: true,
      tools: [],
    });
    expect(phone.invalidFrames).toEqual([]);
  });

  it('the token is stored only as its sha256, in a 0600 devices file', async () => {
    h = await startHarness();
    const { token } = await h.pairedPhone();
    const file = join(h.stateDir, 'devices.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain(sha256Hex(token));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a wrong code is refused as bad_code and pairs nothing', async () => {
    h = await startHarness();
    const phone = await h.connect();
    const wrong = h.offer.code === '000000' ? '000001' : '000000';
    const answer = await phone.pair(wrong);
    expect(answer).toMatchObject({ type: 'error', code: 'bad_code' });
    expect(h.service.listDevices()).toEqual([]);
  });

  it('a code older than five minutes is refused as expired_code', async () => {
    const clock = new ManualClock();
    h = await startHarness({ clock });
    clock.advance(PAIR_CODE_TTL_MS);
    const phone = await h.connect();
    expect(await phone.pair(h.offer.code)).toMatchObject({ type: 'error', code: 'expired_code' });
    expect(h.service.listDevices()).toEqual([]);
  });

  it('a code just inside five minutes still pairs', async () => {
    const clock = new ManualClock();
    h = await startHarness({ clock });
    clock.advance(PAIR_CODE_TTL_MS - 1);
    const phone = await h.connect();
    expect((await phone.pair(h.offer.code)).type).toBe('paired');
  });

  it('a code pairs one phone only', async () => {
    h = await startHarness();
    const first = await h.connect();
    expect((await first.pair(h.offer.code)).type).toBe('paired');
    const second = await h.connect();
    expect(await second.pair(h.offer.code)).toMatchObject({ type: 'error', code: 'bad_code' });
  });

  it('a new offer replaces the previous code', async () => {
    h = await startHarness();
    const old = h.offer.code;
    const fresh = await h.service.createOffer();
    const phone = await h.connect();
    if (old !== fresh.code)
      expect(await phone.pair(old)).toMatchObject({ type: 'error', code: 'bad_code' });
    expect((await phone.pair(fresh.code)).type).toBe('paired');
  });

  it('nothing but pair or hello is accepted before paired or welcome', async () => {
    h = await startHarness();
    const phone = await h.connect();
    phone.send({ type: 'declare', tools: [] });
    expect(await phone.next('error')).toMatchObject({ code: 'not_authenticated' });
    phone.send({
      type: 'device_tool_result',
      call_id: 'dc_x',
      call_token: 'x',
      status: 'ok',
      result: 1,
    });
    expect(await phone.next('error')).toMatchObject({ code: 'not_authenticated' });
    expect(phone.received.some((f) => f.type === 'result_ack')).toBe(false);
  });

  it('a paired phone reconnects with hello and is welcomed', async () => {
    h = await startHarness();
    const { phone, deviceId, token } = await h.pairedPhone();
    await phone.close();
    const again = await h.connect();
    expect(await again.hello(deviceId, token)).toEqual({
      type: 'welcome',
      rights: { remote: false, screen_control: false },
      remote_versions: [1],
    });
    expect(h.service.listDevices()[0]?.attached).toBe(true);
  });

  it('hello with a wrong token gets bad_token and a closed socket', async () => {
    h = await startHarness();
    const { deviceId } = await h.pairedPhone();
    const intruder = await h.connect();
    expect(await intruder.hello(deviceId, 'x'.repeat(43))).toMatchObject({
      type: 'error',
      code: 'bad_token',
    });
    expect((await intruder.closed).code).toBe(4001);
  });

  it('revoke removes the device at once: its socket closes and its token stops working', async () => {
    h = await startHarness();
    const { phone, deviceId, token } = await h.pairedPhone();
    expect(await h.service.revoke(deviceId)).toEqual({ revoked: true });
    expect(await phone.next('error')).toMatchObject({ code: 'revoked' });
    expect((await phone.closed).code).toBe(4003);
    expect(h.service.listDevices()).toEqual([]);
    const again = await h.connect();
    expect(await again.hello(deviceId, token)).toMatchObject({ type: 'error', code: 'bad_token' });
    expect(await h.service.revoke(deviceId)).toEqual({ revoked: false });
  });

  it('the same phone connecting again replaces its previous socket', async () => {
    h = await startHarness();
    const { phone, deviceId, token } = await h.pairedPhone();
    const second = await h.connect();
    expect((await second.hello(deviceId, token)).type).toBe('welcome');
    expect(await phone.next('error')).toMatchObject({ code: 'replaced' });
    expect((await phone.closed).code).toBe(4004);
    expect(h.service.listDevices()[0]?.attached).toBe(true);
  });

  it('a client pinning another fingerprint refuses the listener', async () => {
    h = await startHarness();
    const wrong = h.offer.fingerprint.replace(
      /^../,
      h.offer.fingerprint.startsWith('00') ? '11' : '00',
    );
    await expect(FakePhone.connect({ url: h.socketUrl, fingerprint: wrong })).rejects.toThrow(
      /does not match/,
    );
  });

  it('a browser page of another origin cannot open the device socket', async () => {
    h = await startHarness();
    await expect(h.connect({ origin: 'https://evil.example' })).rejects.toThrow(/403/);
  });
});

describe('the pairing offer and the listener switch', () => {
  it('an offer carries the URL, a six-digit code valid five minutes, the fingerprint and a QR code', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    h = await startHarness({ clock });
    const { offer } = h;
    expect(offer.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    expect(offer.code).toMatch(/^\d{6}$/);
    expect(offer.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(offer.expires_at).toBe(clock.now() + PAIR_CODE_TTL_MS);
    expect(offer.pairing_url).toBe(`${offer.url}#code=${offer.code}&fp=${offer.fingerprint}`);
    expect(offer.qr_svg).toMatch(/^<svg[^>]*>/);
    expect(offer.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
  });

  it('asking for an offer turned pairing on and remembered it', async () => {
    h = await startHarness();
    expect(h.remembered).toEqual([true]);
    expect(h.service.status()).toMatchObject({
      enabled: true,
      listening: true,
      url: h.offer.url,
      fingerprint: h.offer.fingerprint,
    });
  });

  it('turning pairing off closes the listener and attached phones, and is remembered', async () => {
    h = await startHarness();
    const { phone } = await h.pairedPhone();
    const status = await h.service.disablePairing();
    expect(status).toMatchObject({ enabled: false, listening: false, url: null });
    expect(h.remembered).toEqual([true, false]);
    await phone.closed;
    expect(h.service.listDevices()[0]?.attached).toBe(false);
    await expect(h.connect()).rejects.toThrow();
  });

  it('the certificate is generated once and kept, its key readable by the owner only', async () => {
    h = await startHarness();
    const { stateDir, offer } = h;
    const key = join(stateDir, 'device-tls-key.pem');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    await h.service.dispose();
    const again = await startHarness({ stateDir });
    try {
      expect(again.offer.fingerprint).toBe(offer.fingerprint);
      // The port is remembered too, so the phone page keeps its origin (and its stored token).
      expect(again.offer.url).toBe(offer.url);
    } finally {
      await again.dispose();
    }
  });

  it('at app start the listener stays off unless pairing was left on', async () => {
    h = await startHarness();
    const make = (pairing_enabled: boolean) =>
      DevicesService.create({
        stateDir: h!.stateDir,
        config: { pairing_enabled, host: '127.0.0.1', port: 0 },
        emit: () => undefined,
        rememberPairing: async () => undefined,
      });
    await h.service.dispose();
    const off = await make(false);
    expect(await off.start()).toMatchObject({ enabled: false, listening: false, url: null });
    await off.dispose();
    const on = await make(true);
    try {
      expect(await on.start()).toMatchObject({ enabled: true, listening: true, url: h.offer.url });
    } finally {
      await on.dispose();
    }
  });
});
