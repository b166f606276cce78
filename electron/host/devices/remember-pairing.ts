import type { ConfigStore } from '../config/config-store';
import { isObject } from '../../../shared/is-object';

/**
 * Remembers `devices.pairing_enabled` in configs/app.json through its owner, keeping every other
 * key as the user wrote it. A file that is not valid JSON is left alone (the error says so).
 */
export async function rememberPairingInConfig(
  config: ConfigStore,
  enabled: boolean,
): Promise<void> {
  await config.update((raw) => {
    const devices = isObject(raw.devices) ? raw.devices : {};
    raw.devices = { ...devices, pairing_enabled: enabled };
  });
}
