import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes one of the CLI's caches in $MEWBO_HOME/cache (a V8 code cache, the checked config
 * record): owner-only, whole or not at all (a reader meets the old file or the new one, never a
 * torn one), and never fatal: a cache that cannot be written (read-only home, full disk) only
 * costs the next start, and a temp file a failed write left is removed. Returns whether it wrote.
 */
export function writeCacheFile(file: string, data: string | Uint8Array): boolean {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}
