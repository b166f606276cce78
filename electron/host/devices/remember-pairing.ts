import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ConfigError, parseConfig } from '../config/load-config';

/**
 * Remembers `devices.pairing_enabled` in configs/app.json, keeping every other key as the user
 * wrote it. A file that is not valid JSON is left alone (the error says so) rather than replaced.
 */
export async function rememberPairingInConfig(configFile: string, enabled: boolean): Promise<void> {
  let raw: Record<string, unknown> = {};
  try {
    const text = await readFile(configFile, 'utf8');
    const json: unknown = JSON.parse(text);
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw new ConfigError(`${configFile}: must hold a JSON object`);
    }
    raw = json as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw err instanceof ConfigError
        ? err
        : new ConfigError(`${configFile}: not valid JSON: ${(err as Error).message}`);
    }
  }
  const devices =
    raw.devices && typeof raw.devices === 'object' ? (raw.devices as Record<string, unknown>) : {};
  const next = { ...raw, devices: { ...devices, pairing_enabled: enabled } };
  parseConfig(next, configFile);
  await mkdir(dirname(configFile), { recursive: true });
  await writeFileAtomic(configFile, `${JSON.stringify(next, null, 2)}\n`);
}
