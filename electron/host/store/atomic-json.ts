import * as fsp from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';

// The one way the app replaces a state file (configs, secrets, registry, devices, certificates,
// window state, session meta): the new bytes go to a temp file in the same directory (rename is
// only atomic within one filesystem), are fsynced, the temp file is renamed over the target, and
// the directory is fsynced so the rename itself survives a power cut. Readers see the old file or
// the new one, never a mix, and after the promise resolves the new one is on disk.
// (File tools use fs/atomic-write.ts, which adds root confinement and multi-file rollback.)

/** The file-system calls an atomic write makes; tests inject faults and watch the order. */
export interface AtomicIo {
  mkdir: typeof fsp.mkdir;
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  unlink: typeof fsp.unlink;
}

export const nodeIo: AtomicIo = {
  mkdir: fsp.mkdir,
  open: fsp.open,
  rename: fsp.rename,
  unlink: fsp.unlink,
};

export interface AtomicWriteOptions {
  /** Mode of the file (0o600 for keys); default 0o644. */
  mode?: number;
  io?: AtomicIo;
}

/** Replaces `file` with `data` atomically and durably. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const io = opts.io ?? nodeIo;
  const mode = opts.mode ?? 0o644;
  const dir = dirname(file);
  await io.mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await io.open(tmp, 'wx', mode);
  try {
    try {
      await handle.writeFile(data);
      // open() applied the umask; the caller's mode is the file's mode (0600 must stay 0600).
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await io.rename(tmp, file);
  } catch (err) {
    await io.unlink(tmp).catch(() => {});
    throw err;
  }
  await fsyncDir(io, dir);
}

async function fsyncDir(io: AtomicIo, dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await io.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    // Some filesystems refuse to fsync a directory (EINVAL); the rename is still atomic there.
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
  } finally {
    await handle?.close();
  }
}

/** Writes JSON (two-space indent, trailing newline) with writeFileAtomic. */
export function writeJsonAtomic(
  file: string,
  value: unknown,
  mode = 0o644,
  io?: AtomicIo,
): Promise<void> {
  return writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n', { mode, io });
}

export async function readJsonOr<T>(file: string, fallback: T): Promise<T | unknown> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8')) as unknown;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
}
