import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import { FakePhone } from '../../helpers/fake-phone';
import type { DeviceInfo } from '../../../shared/device/api';

let home: ReturnType<typeof tempDir> | undefined;
let host: HostProcess | undefined;
afterEach(async () => {
  await host?.stop();
  home?.cleanup();
  host = undefined;
  home = undefined;
});

async function until<T>(get: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('phone pairing through the app protocol', () => {
  it('an offer pairs a phone, the devices topic shows it with its tools, and revoke closes its socket', async () => {
    home = tempDir('mewbo-devproto-');
    mkdirSync(join(home.dir, 'configs'), { recursive: true });
    writeFileSync(
      join(home.dir, 'configs', 'app.json'),
      JSON.stringify({ devices: { host: '127.0.0.1' } }),
    );
    host = await startHost(home.dir);
    const { client, close } = host.connect();

    expect((await client.invoke('devices.status', {})).enabled).toBe(false);
    let latest: DeviceInfo[] = [];
    client.subscribe('devices', undefined, (d) => {
      const m = d as { type: string; devices?: DeviceInfo[] };
      if (m.type === 'devices') latest = m.devices!;
    });

    const offer = await client.invoke('devices.createOffer', {});
    expect(offer.code).toMatch(/^\d{6}$/);
    expect(offer.qr_svg).toContain('<svg');
    const status = await client.invoke('devices.status', {});
    expect(status).toMatchObject({
      enabled: true,
      listening: true,
      fingerprint: offer.fingerprint,
    });

    const wsUrl = offer.url.replace(/^https:/, 'wss:').replace(/\/?$/, '/ws');
    const phone = await FakePhone.connect({ url: wsUrl, fingerprint: offer.fingerprint });
    const paired = await phone.pair(offer.code, 'Pixel 8');
    expect(paired.type).toBe('paired');
    phone.declare([
      {
        tool_id: 'device_get_time',
        description: 'Current time on the phone',
        parameters: { type: 'object', properties: {} },
      },
    ]);

    const shown = await until(
      () => (latest.find((d) => d.tools.length > 0) ? latest : undefined),
      'declared tools on the devices topic',
    );
    expect(shown[0]).toMatchObject({
      name: 'Pixel 8',
      attached: true,
      tools: [{ tool_id: 'device_get_time' }],
    });
    expect((await client.invoke('devices.list', {})).devices).toHaveLength(1);

    const err = await client.invoke('devices.revoke', { device_id: '' }).catch((e: unknown) => e);
    expect((err as { error: { code: string } }).error.code).toBe('invalid_params');
    expect(await client.invoke('devices.revoke', { device_id: shown[0]!.device_id })).toEqual({
      revoked: true,
    });
    await phone.closed;
    expect((await client.invoke('devices.list', {})).devices).toEqual([]);
    close();
  });
});
