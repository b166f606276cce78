import { chmod, lstat, mkdir, readdir, rename, rmdir, symlink, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { prepareWrite, type PreparedWrite } from '../fs/atomic-write';
import { resolveInsideRoot } from '../fs/safe-path';
import { CheckpointError } from './shadow-git';

// Puts files of a snapshot back into a project. Everything that can fail for want of data (a
// missing object) has failed before this runs; here every new content is first staged as a
// complete temp file beside its target, and only then are the renames and deletions done, so a
// failure while staging changes nothing. Paths are resolved inside the root with their parent's
// symlinks followed and checked, and the last component is never followed: restoring over a
// symlink replaces the link, deleting one removes the link, never what it points to.

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

function inRoot(root: string, rel: string): string {
  const parent = resolveInsideRoot(root, dirname(rel) === '.' ? '.' : dirname(rel), {
    label: 'restored path',
  });
  return join(parent, basename(rel));
}

async function kind(path: string): Promise<'missing' | 'dir' | 'other'> {
  const st = await lstat(path).catch(() => null);
  return !st ? 'missing' : st.isDirectory() ? 'dir' : 'other';
}

/**
 * Removes a file or symlink, or an empty folder (a file restored where a folder stands): a folder
 * that still holds something (ignored or large files) is never removed with its contents.
 */
async function removePath(path: string): Promise<void> {
  const k = await kind(path);
  if (k === 'missing') return;
  if (k === 'other') return unlink(path);
  await rmdir(path);
}

/** Makes `rel`'s parent folders inside the root, replacing a file that stands where one must be. */
async function makeParents(root: string, rel: string): Promise<void> {
  const parts = dirname(rel) === '.' ? [] : dirname(rel).split('/');
  let at = '.';
  for (const part of parts) {
    at = at === '.' ? part : `${at}/${part}`;
    const abs = inRoot(root, at);
    const k = await kind(abs);
    if (k === 'other') throw new Error(`${at} is a file where the restore needs a folder`);
    if (k === 'missing') await mkdir(abs);
  }
}

async function stageSymlink(target: string, linkText: string): Promise<PreparedWrite> {
  const temp = join(
    dirname(target),
    `.${basename(target)}.mewbo-${randomBytes(4).toString('hex')}.tmp`,
  );
  await symlink(linkText, temp);
  let done = false;
  return {
    target,
    async commit() {
      if ((await kind(target)) === 'dir') await removePath(target);
      await rename(temp, target);
      done = true;
    },
    async abort() {
      if (!done) await unlink(temp).catch(() => undefined);
      done = true;
    },
  };
}

async function stage(root: string, w: RestoreWrite): Promise<PreparedWrite> {
  await makeParents(root, w.path);
  const target = inRoot(root, w.path);
  if (w.mode === '120000') return stageSymlink(target, w.data.toString('utf8'));
  // A symlink standing where a file goes is replaced, not written through.
  if ((await lstat(target).catch(() => null))?.isSymbolicLink()) await unlink(target);
  const prepared = await prepareWrite(root, target, w.data);
  return {
    target,
    async commit() {
      if ((await kind(target)) === 'dir') await removePath(target);
      await prepared.commit();
      await chmod(target, w.mode === '100755' ? 0o755 : 0o644);
    },
    abort: () => prepared.abort(),
  };
}

/** Removes folders the restore emptied, deepest first, up to (not including) the root. */
async function pruneEmptyParents(root: string, rels: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of rels) {
    for (let d = dirname(rel); d !== '.' && d !== '/'; d = dirname(d)) dirs.add(d);
  }
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    let abs: string;
    try {
      abs = inRoot(root, d);
    } catch {
      continue;
    }
    const names = await readdir(abs).catch(() => null);
    if (names && names.length === 0) await rmdir(abs).catch(() => undefined);
  }
}

export async function applyRestore(root: string, plan: RestorePlan): Promise<void> {
  // A deleted path that is the parent of a written one goes first (file -> folder changes).
  const writeParents = new Set<string>();
  for (const w of plan.writes) {
    for (let d = dirname(w.path); d !== '.'; d = dirname(d)) writeParents.add(d);
  }
  const blockers = plan.deletes.filter((d) => writeParents.has(d));
  const rest = plan.deletes.filter((d) => !writeParents.has(d));
  for (const d of blockers) await removePath(inRoot(root, d));

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
    for (const d of rest) await removePath(inRoot(root, d));
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
