import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

// A write that a crash, a SIGKILL or a full disk can never leave half-done: the new content goes
// to a temp file in the same directory (rename is only atomic within one filesystem), is fsynced,
// takes the old file's mode, and replaces the target with one rename. Readers see the old file
// or the new one, never a mix.

/** Mode of a file created by an edit, before the umask (what `open(..., 'w')` would use). */
const NEW_FILE_MODE = 0o666;

/** A complete, fsynced temp file waiting to replace its target. */
export interface PreparedWrite {
  readonly target: string;
  /** Renames the temp file over the target (atomic) and makes the rename durable. */
  commit(): Promise<void>;
  /** Removes the temp file; the target is untouched. Safe to call after commit. */
  abort(): Promise<void>;
}

function tempNameFor(target: string): string {
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  return join(dirname(target), `.${basename(target)}.mewbo-${tag}.tmp`);
}

async function existingMode(target: string): Promise<number | null> {
  try {
    return (await stat(target)).mode & 0o7777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some filesystems refuse to fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temp files of `target` left by writers that were killed before their rename. */
async function removeStaleTemps(target: string): Promise<void> {
  const prefix = `.${basename(target)}.mewbo-`;
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid))
      await unlink(join(dirname(target), name)).catch(() => undefined);
  }
}

/** Writes `data` to a temp file beside `target` (an already validated real path). */
export async function prepareWrite(
  target: string,
  data: string | Uint8Array,
): Promise<PreparedWrite> {
  await removeStaleTemps(target);
  const mode = await existingMode(target);
  const temp = tempNameFor(target);
  const handle = await open(temp, 'wx', mode ?? NEW_FILE_MODE);
  try {
    await handle.writeFile(data);
    // open() applied the umask; an existing file gets its exact mode back.
    if (mode !== null) await handle.chmod(mode);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  let done = false;
  return {
    target,
    async commit() {
      await rename(temp, target);
      done = true;
      await fsyncDir(dirname(target));
    },
    async abort() {
      if (done) return;
      done = true;
      await unlink(temp).catch(() => undefined);
    },
  };
}

/** Replaces `target` with `data` atomically, keeping its mode. */
export async function atomicWriteFile(target: string, data: string | Uint8Array): Promise<void> {
  const prepared = await prepareWrite(target, data);
  try {
    await prepared.commit();
  } finally {
    await prepared.abort();
  }
}

export interface FileChange {
  path: string;
  /** Content before the edit, or null when the edit creates the file (used to roll back). */
  before: string | null;
  after: string;
}

/**
 * Applies several file changes as one unit: every temp file is written first (any failure there
 * changes nothing), then the renames run; if a rename fails, the ones already done are rolled
 * back to their previous content.
 */
export async function atomicWriteAll(changes: FileChange[]): Promise<void> {
  const prepared: PreparedWrite[] = [];
  try {
    for (const change of changes) prepared.push(await prepareWrite(change.path, change.after));
  } catch (err) {
    await Promise.all(prepared.map((p) => p.abort()));
    throw err;
  }
  const committed: FileChange[] = [];
  try {
    for (const [i, p] of prepared.entries()) {
      await p.commit();
      committed.push(changes[i]!);
    }
  } catch (err) {
    await Promise.all(prepared.map((p) => p.abort()));
    for (const change of committed.reverse()) {
      if (change.before === null) await unlink(change.path).catch(() => undefined);
      else await atomicWriteFile(change.path, change.before).catch(() => undefined);
    }
    throw err;
  }
}
