import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../electron/host/config/load-config';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { rememberPairingInConfig } from '../../../electron/host/devices/remember-pairing';
import { tempDir } from '../../helpers/temp';

let temp: ReturnType<typeof tempDir>;
afterEach(() => temp.cleanup());

describe('remembering the pairing switch in configs/app.json', () => {
  it('writes devices.pairing_enabled and keeps every other key', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'configs', 'app.json');
    const store = ConfigStore.open({ file, watch: false });
    await rememberPairingInConfig(store, true);
    expect(loadConfigFile(file).devices.pairing_enabled).toBe(true);
    writeFileSync(
      file,
      JSON.stringify({ permission_mode: 'plan', devices: { port: 47000, pairing_enabled: true } }),
    );
    await rememberPairingInConfig(store, false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      permission_mode: 'plan',
      devices: { port: 47000, pairing_enabled: false },
    });
  });

  it('leaves a file that is not valid JSON alone and says so', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'app.json');
    writeFileSync(file, '{ nope');
    const store = ConfigStore.open({ file, watch: false, warn: () => {} });
    await expect(rememberPairingInConfig(store, true)).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ nope');
  });
});
