import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceStore } from '../../../electron/host/devices/device-store';
import { tempDir } from '../../helpers/temp';

let temp: ReturnType<typeof tempDir>;
afterEach(() => temp.cleanup());

describe('the devices file', () => {
  it('keeps devices across a reopen, with tokens only as sha256, in a 0600 file', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'state', 'devices.json');
    const store = await DeviceStore.open(file);
    const { record, token } = await store.add('Phone', 5);
    expect(readFileSync(file, 'utf8')).not.toContain(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await DeviceStore.open(file);
    expect(again.list()).toEqual([record]);
    expect(again.authenticate(record.device_id, token)?.name).toBe('Phone');
    expect(again.authenticate(record.device_id, `${token}x`)).toBeUndefined();
    expect(again.authenticate('dev_other', token)).toBeUndefined();
  });

  it('a removed device is gone from disk', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'devices.json');
    const store = await DeviceStore.open(file);
    const { record } = await store.add('Phone', 5);
    expect(await store.remove(record.device_id)).toBe(true);
    expect((await DeviceStore.open(file)).list()).toEqual([]);
  });

  it('a corrupt file is moved aside, never half-trusted', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'devices.json');
    writeFileSync(file, '{"version":1,"devices":[{"device_id":');
    const store = await DeviceStore.open(file);
    expect(store.list()).toEqual([]);
    expect(readdirSync(temp.dir).some((f) => f.startsWith('devices.json.corrupt-'))).toBe(true);
  });

  it('concurrent writes leave the last state on disk', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'devices.json');
    const store = await DeviceStore.open(file);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.add(`P${i}`, i)));
    expect((await DeviceStore.open(file)).list()).toHaveLength(20);
  });
});
