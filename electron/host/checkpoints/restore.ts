import { lstat, rename, rmdir, symlink, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, isAbsolute } from 'node:path';
import { prepareWrite, type PreparedWrite } from '../fs/atomic-write';
import { openDirInRoot, type RootedDir } from '../fs/safe-open';
import { resolveInsideRoot } from '../fs/safe-path';
import { CheckpointError } from './shadow-git';

// Puts files of a snapshot back into a project. Everything that can fail for want of data (a
// missing object) has failed before this runs; here every new content is first staged as a
// complete temp file beside its target, and only then are the renames and deletions done, so a
// failure while staging changes nothing. The project is hostile while this runs (the agent's
// background shell may swap a folder for a symlink to another project at any moment), so every
// step (delete, mkdir, symlink, rename, mode) is done through a verified descriptor of the
// parent folder, never by a path that could be re-walked through a swapped link; and the last
// component is never followed: restoring over a symlink replaces the link, deleting one removes
// the link, never what it points to.

export interface RestoreWrite {
  path: string;
  /** git mode: 100644, 100755 or 120000 (a symlink, `data` is its target). */
  mode: string;
  data: Buffer;
}

export interface RestorePlan {
  writes: RestoreWrite[];
  deletes: string[];
}

/** The real path of `rel`'s parent inside the root (its symlinks followed and checked). */
function parentOf(root: string, rel: string): string {
  return resolveInsideRoot(root, dirname(rel), { label: 'restored path' });
}

/** Runs `fn` with a verified descriptor of `rel`'s parent (made first when `create`). */
async function inParent<T>(
  root: string,
  rel: string,
  create: boolean,
  fn: (dir: RootedDir, name: string) => Promise<T>,
): Promise<T> {
  const dir = await openDirInRoot(root, parentOf(root, rel), create);
  try {
    return await fn(dir, basename(rel));
  } finally {
    await dir.close();
  }
}

/**
 * Removes a file or symlink, or an empty folder (a file restored where a folder stands): a folder
 * that still holds something (ignored or large files) is never removed with its contents.
 */
async function removeChild(dir: RootedDir, name: string): Promise<void> {
  const path = dir.child(name);
  const st = await lstat(path).catch(() => undefined);
  if (!st) return;
  await (st.isDirectory() ? rmdir(path) : unlink(path));
}

/**
 * Where a file or link is put: an empty folder standing there is removed (the rename could not
 * replace it); rmdir refuses a folder that holds something, and leaves a file or a link alone
 * (the rename replaces them, never writing through a link).
 */
async function clearFolder(dir: RootedDir, name: string): Promise<void> {
  await rmdir(dir.child(name)).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  });
}

const removePath = (root: string, rel: string) =>
  inParent(root, rel, false, (dir, name) => removeChild(dir, name)).catch((err: unknown) => {
    // Nothing there to remove: its folder is gone already.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  });

/** Makes `rel`'s parent folders inside the root; a file standing where one must be is an error. */
async function makeParents(root: string, rel: string): Promise<void> {
  try {
    await openDirInRoot(root, parentOf(root, rel), true).then((dir) => dir.close());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR')
      // Stryker disable next-line ObjectLiteral: applyRestore keeps only the message
      throw new Error(`${dirname(rel)} has a file where the restore needs a folder`, {
        cause: err,
      });
    throw err;
  }
}

const tempName = (name: string) => `.${name}.mewbo-${randomBytes(4).toString('hex')}.tmp`;

async function stageSymlink(root: string, rel: string, linkText: string): Promise<PreparedWrite> {
  const dir = await openDirInRoot(root, parentOf(root, rel));
  const name = basename(rel);
  const temp = tempName(name);
  await symlink(linkText, dir.child(temp));
  // As in atomic-write.ts: after a commit or an abort, abort does not unlink the temp name again;
  // in a test that unlink only meets ENOENT, so these flags are not observable.
  let done = false;
  return {
    target: rel,
    async commit() {
      await clearFolder(dir, name);
      await rename(dir.child(temp), dir.child(name));
      // Stryker disable next-line BooleanLiteral: see `done`
      done = true;
      await dir.close();
    },
    async abort() {
      // Stryker disable next-line ConditionalExpression: see `done`
      if (!done) await unlink(dir.child(temp)).catch(() => undefined);
      // Stryker disable next-line BooleanLiteral: see `done`
      done = true;
      await dir.close();
    },
  };
}

async function stage(root: string, w: RestoreWrite): Promise<PreparedWrite> {
  await makeParents(root, w.path);
  if (w.mode === '120000') return stageSymlink(root, w.path, w.data.toString('utf8'));
  const target = `${parentOf(root, w.path)}/${basename(w.path)}`;
  const mode = w.mode === '100755' ? 0o755 : 0o644;
  const prepared = await prepareWrite(root, target, w.data, { mode });
  return {
    target,
    async commit() {
      // A folder or a symlink standing where the file goes is replaced, never written through.
      await inParent(root, w.path, false, (dir, name) => clearFolder(dir, name));
      await prepared.commit();
    },
    abort: () => prepared.abort(),
  };
}

/** Removes folders the restore emptied, deepest first, up to (not including) the root. */
async function pruneEmptyParents(root: string, rels: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of rels) {
    for (let d = dirname(rel); d !== '.'; d = dirname(d)) dirs.add(d);
  }
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    // rmdir removes only an empty folder: one that still holds something stays.
    // Stryker disable next-line BooleanLiteral: the parent of a folder pruned deepest first exists
    await inParent(root, d, false, (dir, name) => rmdir(dir.child(name))).catch(() => undefined);
  }
}

export async function applyRestore(root: string, plan: RestorePlan): Promise<void> {
  // The store's paths are relative to the root; the folder walks here end at its `.`.
  for (const p of [...plan.writes.map((w) => w.path), ...plan.deletes])
    if (isAbsolute(p))
      throw new CheckpointError(
        'restore_failed',
        `restored path '${p}' is not relative to the project`,
      );
  // A deleted path that is the parent of a written one goes first (file -> folder changes).
  const writeParents = new Set<string>();
  for (const w of plan.writes) {
    for (let d = dirname(w.path); d !== '.'; d = dirname(d)) writeParents.add(d);
  }
  const blockers = plan.deletes.filter((d) => writeParents.has(d));
  const rest = plan.deletes.filter((d) => !writeParents.has(d));
  for (const d of blockers) await removePath(root, d);

  const staged: PreparedWrite[] = [];
  try {
    for (const w of plan.writes) staged.push(await stage(root, w));
  } catch (err) {
    await Promise.all(staged.map((s) => s.abort()));
    throw new CheckpointError(
      'restore_failed',
      `could not stage the restored files (nothing was replaced): ${(err as Error).message}`,
    );
  }
  try {
    for (const d of rest) await removePath(root, d);
    await pruneEmptyParents(root, rest);
    for (const s of staged) await s.commit();
  } catch (err) {
    await Promise.all(staged.map((s) => s.abort()));
    throw new CheckpointError(
      'restore_failed',
      `restore stopped part way: ${(err as Error).message}`,
    );
  }
  await pruneEmptyParents(root, blockers);
}
