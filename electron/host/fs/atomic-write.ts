import { lstat, readdir, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { createInDir, openDirInRoot, PathChangedError, type RootedDir } from './safe-open';

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

function tempNameFor(name: string): string {
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  return `.${name}.mewbo-${tag}.tmp`;
}

/** Mode of the file `name` in `dir`, null when there is none; a symlink there was planted. */
async function existingMode(dir: RootedDir, name: string): Promise<number | null> {
  try {
    const st = await lstat(dir.child(name));
    if (st.isSymbolicLink()) throw new PathChangedError(join(dir.path, name));
    return st.mode & 0o7777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
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

/** Removes temp files of `name` left by writers that were killed before their rename. */
async function removeStaleTemps(dir: RootedDir, name: string): Promise<void> {
  const prefix = `.${name}.mewbo-`;
  let names: string[];
  try {
    names = await readdir(dir.self);
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const pid = Number(entry.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid))
      await unlink(dir.child(entry)).catch(() => undefined);
  }
}

/**
 * Writes `data` to a temp file beside `target` (a real path inside `root`, as safe-path resolves
 * it), creating missing parent directories. Every name is reached through a verified descriptor of
 * the parent directory, which is checked again right before the rename (see safe-open). The file
 * keeps the target's mode, or takes `opts.mode` (set on the descriptor: a restore's exact mode,
 * with whatever stands at the target, a symlink included, replaced by the rename).
 */
export async function prepareWrite(
  root: string,
  target: string,
  data: string | Uint8Array,
  opts: { mode?: number } = {},
): Promise<PreparedWrite> {
  const name = basename(target);
  const dir = await openDirInRoot(root, dirname(target), true);
  const temp = tempNameFor(name);
  try {
    await removeStaleTemps(dir, name);
    const mode = opts.mode ?? (await existingMode(dir, name));
    // Stryker disable next-line LogicalOperator: with an existing mode the chmod below sets it exactly
    const handle = await createInDir(dir, temp, mode ?? NEW_FILE_MODE);
    try {
      await handle.writeFile(data);
      // open() applied the umask; an existing file gets its exact mode back.
      if (mode !== null) await handle.chmod(mode);
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await unlink(dir.child(temp)).catch(() => undefined);
      throw err;
    }
    await handle.close();
  } catch (err) {
    await dir.close();
    throw err;
  }
  // After a commit or an abort, abort does not unlink the temp name again (a later writer's file
  // could carry it); in a test that unlink only meets ENOENT, so these flags are not observable.
  let done = false;
  return {
    target,
    async commit() {
      await dir.recheck();
      await rename(dir.child(temp), dir.child(name));
      // Stryker disable next-line BooleanLiteral: see `done`
      done = true;
      await dir.sync();
      await dir.close();
    },
    async abort() {
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: see `done`
      if (!done) {
        // Stryker disable next-line BooleanLiteral: see `done`
        done = true;
        await unlink(dir.child(temp)).catch(() => undefined);
      }
      await dir.close();
    },
  };
}

/** Replaces `target` with `data` atomically, keeping its mode. */
export async function atomicWriteFile(
  root: string,
  target: string,
  data: string | Uint8Array,
): Promise<void> {
  const prepared = await prepareWrite(root, target, data);
  try {
    await prepared.commit();
  } finally {
    await prepared.abort();
  }
}

/** Removes `target` (a real path inside `root`) through its verified parent directory. */
async function removeInRoot(root: string, target: string): Promise<void> {
  const dir = await openDirInRoot(root, dirname(target));
  try {
    await unlink(dir.child(basename(target)));
  } finally {
    await dir.close();
  }
}

export interface FileChange {
  path: string;
  /** Content before the edit, or null when the edit creates the file (used to roll back). */
  before: string | Uint8Array | null;
  /** Content after; null removes the file. */
  after: string | Uint8Array | null;
  /** The written file's mode; default: the existing file's (a new one's: 0666 less the umask). */
  mode?: number;
}

/**
 * Applies several file changes as one unit: every temp file is written first (any failure there
 * changes nothing), then `beforeCommit` may still refuse (nothing is changed), then the renames
 * and removals run; if one fails, the ones already done are rolled back to their previous content.
 */
export async function atomicWriteAll(
  root: string,
  changes: FileChange[],
  beforeCommit?: () => Promise<void>,
): Promise<void> {
  const prepared: (PreparedWrite | null)[] = [];
  const abortAll = () => Promise.all(prepared.map((p) => p?.abort()));
  try {
    for (const change of changes)
      prepared.push(
        change.after === null
          ? null
          : await prepareWrite(
              root,
              change.path,
              change.after,
              change.mode === undefined ? {} : { mode: change.mode },
            ),
      );
    await beforeCommit?.();
  } catch (err) {
    await abortAll();
    throw err;
  }
  const committed: FileChange[] = [];
  try {
    for (const [i, p] of prepared.entries()) {
      if (p) await p.commit();
      else await removeInRoot(root, changes[i]!.path);
      committed.push(changes[i]!);
    }
  } catch (err) {
    await abortAll();
    for (const change of committed.reverse()) {
      if (change.before === null) await removeInRoot(root, change.path).catch(() => undefined);
      else await atomicWriteFile(root, change.path, change.before).catch(() => undefined);
    }
    throw err;
  }
}
