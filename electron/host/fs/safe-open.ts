import { close as closeFdCb, constants, fstat as fstatCb, open as openFdCb } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import type { BigIntStats, Dirent } from 'node:fs';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';
import { isInside } from './safe-path';

// Opening what safe-path resolved, without the check-then-open race. safe-path decides on a path;
// between that decision and the open, a process in the project can swap a directory or a symlink
// along the path (renameat2 RENAME_EXCHANGE makes the swap atomic), so the open lands outside the
// root. Here every open refuses a symlink as its last component (O_NOFOLLOW) and then asks the
// kernel what the descriptor really is (/proc/self/fd/N): the file is used only if that is the
// path that was resolved. Writes go through a verified descriptor of the parent directory
// (/proc/self/fd/N/name resolves from the directory's inode, like openat), so the temp file, a
// created directory and the rename cannot be redirected by swapping the path after the check.
//
// What a racer can still do: move the verified directory itself (its inode) somewhere else between
// the last check and the rename. That needs write access to the destination, which a confined
// shell does not have for other projects or the app's state, so the write lands where the racer
// could write anyway. Where /proc is missing (not Linux) the check falls back to comparing the
// descriptor's dev/ino with the path after the open, which narrows the race but cannot close it.

let PROC_FD = '/proc/self/fd';

/**
 * Where descriptors are named; a directory that does not exist stands for a system without /proc,
 * so tests on Linux run the fallback for real. Returns the previous value.
 */
export function setProcFdDir(dir: string): string {
  const previous = PROC_FD;
  PROC_FD = dir;
  procChecked = undefined;
  return previous;
}

/** Read-only open that never follows a final symlink, never blocks (FIFO) and never takes a tty. */
const READ_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** The opened object is not what was resolved: something along the path changed in between. */
export class PathChangedError extends Error {
  override name = 'PathChangedError';
  readonly code = 'path_changed';
  constructor(readonly path: string) {
    super(
      `${path} changed while it was being opened (a directory or link along it was replaced); nothing was read or written`,
    );
  }
}

let procChecked: boolean | undefined;

/** Whether /proc/self/fd can tell what a descriptor is (Linux with /proc mounted). */
async function procAvailable(): Promise<boolean> {
  // Stryker disable next-line ConditionalExpression,BlockStatement: a cache; asking again gives the same answer
  if (procChecked === undefined) {
    try {
      await readlink(`${PROC_FD}/0`);
      procChecked = true;
    } catch (err) {
      // fd 0 may be closed (a daemon): the directory itself answering is enough.
      procChecked =
        (err as NodeJS.ErrnoException).code === 'ENOENT' ? await procDirExists() : false;
    }
  }
  return procChecked;
}

async function procDirExists(): Promise<boolean> {
  try {
    return (await lstat(PROC_FD)).isDirectory();
  } catch {
    return false;
  }
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * Checks that descriptor `fd` is the object at `expected` (a real path inside `root`); throws
 * PathChangedError otherwise. On Linux the kernel names the descriptor's path; elsewhere its
 * dev/ino (`stat`, asked only there) must match what `expected` names now and `expected` must
 * still resolve inside the root.
 */
async function verify(
  fd: number,
  root: string,
  expected: string,
  stat: () => Promise<BigIntStats>,
): Promise<void> {
  if (await procAvailable()) {
    let actual: string;
    try {
      actual = await readlink(`${PROC_FD}/${fd}`);
    } catch {
      throw new PathChangedError(expected);
    }
    if (actual !== expected || !isInside(root, actual)) throw new PathChangedError(expected);
    return;
  }
  try {
    const st = await stat();
    const now = await lstat(expected, { bigint: true });
    const real = await realpath(expected);
    if (now.dev !== st.dev || now.ino !== st.ino || !isInside(root, real))
      throw new PathChangedError(expected);
  } catch (err) {
    if (err instanceof PathChangedError) throw err;
    throw new PathChangedError(expected);
  }
}

async function openVerified(
  root: string,
  path: string,
  flags: number,
  mode?: number,
): Promise<{ handle: FileHandle; stat: BigIntStats }> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags, mode);
  } catch (err) {
    // The resolved path has no symlink as its last part; one there now was planted after the check.
    if (errno(err) === 'ELOOP') throw new PathChangedError(path);
    throw err;
  }
  try {
    const st = await handle.stat({ bigint: true });
    await verify(handle.fd, root, path, async () => st);
    return { handle, stat: st };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Opens `path` (a real path inside `root`, as safe-path returns it) for reading. Never blocks: a
 * FIFO or device opens non-blocking, and the caller decides from `stat` before reading anything.
 */
export function openForRead(
  root: string,
  path: string,
): Promise<{ handle: FileHandle; stat: BigIntStats }> {
  return openVerified(root, path, READ_FLAGS);
}

/** A verified descriptor of a directory inside the root; names below it resolve from its inode. */
export interface RootedDir {
  /** Real path the directory had when it was verified. */
  readonly path: string;
  /** Path naming the directory itself through its descriptor (for readdir). */
  readonly self: string;
  /** Path through which `name` in this directory is reached without re-walking `path`. */
  child(name: string): string;
  /** Throws PathChangedError unless the descriptor is still the directory at `path` in the root. */
  recheck(): Promise<void>;
  /** fsync of the directory (makes a rename in it durable); errors are ignored. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

async function rootedDir(root: string, path: string): Promise<RootedDir> {
  const { handle, stat } = await openVerified(root, path, DIR_FLAGS);
  const proc = await procAvailable();
  let closed = false;
  const self = proc ? `${PROC_FD}/${handle.fd}` : path;
  return {
    path,
    self,
    child: (name) => {
      if (name.includes('/') || name === '..' || name === '.' || name === '')
        throw new Error(`not a single path component: ${name}`);
      return `${self}/${name}`;
    },
    recheck: () => verify(handle.fd, root, path, async () => stat),
    sync: () => handle.sync().catch(() => undefined),
    close: async () => {
      if (closed) return;
      closed = true;
      await handle.close().catch(() => undefined);
    },
  };
}

const openFd = promisify(openFdCb);
const closeFd = promisify(closeFdCb);
const fstatFd = (fd: number): Promise<BigIntStats> =>
  new Promise((resolve, reject) =>
    fstatCb(fd, { bigint: true }, (err, st) => (err ? reject(err) : resolve(st))),
  );

/**
 * Reads directory `path` (a real path inside `root`) through a descriptor verified as
 * openDirInRoot's are, and hands `use` its entries and a path naming it through the descriptor
 * (for reading files in it), closing the descriptor after. A bare descriptor, not a FileHandle:
 * list_dir reads every directory of a project, and a FileHandle each (the object, its close
 * machinery, its garbage) was a third of a 100k-file walk.
 */
export async function readDirInRoot<T>(
  root: string,
  path: string,
  use: (entries: Dirent[], self: string) => Promise<T>,
): Promise<T> {
  let fd: number;
  try {
    fd = await openFd(path, DIR_FLAGS);
  } catch (err) {
    if (errno(err) === 'ELOOP') throw new PathChangedError(path);
    throw err;
  }
  try {
    await verify(fd, root, path, () => fstatFd(fd));
    const self = (await procAvailable()) ? `${PROC_FD}/${fd}` : path;
    return await use(await readdir(self, { withFileTypes: true }), self);
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}

/**
 * Opens directory `path` (a real path inside `root`), creating it and its missing parents first
 * when `create` is set; every directory is made through its verified parent, so a swap cannot
 * make one outside the root.
 */
export async function openDirInRoot(
  root: string,
  path: string,
  create = false,
): Promise<RootedDir> {
  if (!create) return rootedDir(root, path);
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    try {
      const st = await lstat(existing);
      if (!st.isDirectory()) {
        if (st.isSymbolicLink()) throw new PathChangedError(existing);
        const err = new Error(`ENOTDIR: not a directory, ${existing}`) as NodeJS.ErrnoException;
        err.code = 'ENOTDIR';
        throw err;
      }
      break;
    } catch (err) {
      if (errno(err) !== 'ENOENT' || existing === root || !isInside(root, existing)) throw err;
      missing.push(basename(existing));
      existing = dirname(existing);
    }
  }
  let dir = await rootedDir(root, existing);
  for (const name of missing.reverse()) {
    try {
      await mkdir(dir.child(name));
    } catch (err) {
      if (errno(err) !== 'EEXIST') {
        await dir.close();
        throw err;
      }
    }
    const next = join(dir.path, name);
    await dir.close();
    dir = await rootedDir(root, next);
  }
  return dir;
}

/**
 * Opens file `name` in the verified directory `dir` for reading, as openForRead does (never a
 * link at the name, never blocking); the name is looked up from the directory's inode.
 */
export async function openInDir(
  dir: RootedDir,
  name: string,
): Promise<{ handle: FileHandle; stat: BigIntStats }> {
  const handle = await open(dir.child(name), READ_FLAGS);
  try {
    return { handle, stat: await handle.stat({ bigint: true }) };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Creates file `name` in `dir` exclusively, for a temp file. O_CREAT|O_EXCL never follows a
 * symlink at the name: one planted there is EEXIST, and nothing is created where it points.
 */
export function createInDir(dir: RootedDir, name: string, mode: number): Promise<FileHandle> {
  return open(dir.child(name), CREATE_FLAGS, mode);
}
