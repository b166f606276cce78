import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../host/store/atomic-json';
import type { HomePaths } from '../host/config/paths';

// Where the web host keeps what outlives it: the port it listened on (so an open tab finds it
// again after a restart) and the secret its login cookie derives from.

export function webSecretFile(paths: HomePaths): string {
  return join(paths.configDir, 'web-host.key');
}

function stateFile(paths: HomePaths): string {
  return join(paths.stateDir, 'web-host.json');
}

/** The port the last web host listened on, or null. */
export function rememberedPort(paths: HomePaths): number | null {
  try {
    const json = JSON.parse(readFileSync(stateFile(paths), 'utf8')) as { port?: unknown };
    const port = json.port;
    return Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536
      ? (port as number)
      : null;
  } catch {
    return null;
  }
}

export async function rememberPort(paths: HomePaths, port: number): Promise<void> {
  await writeJsonAtomic(stateFile(paths), { port }, 0o600);
}
