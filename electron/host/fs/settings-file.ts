import { lstat, mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { prepareWrite } from './atomic-write';
import { openDirInRoot, openInDir, PathChangedError, type RootedDir } from './safe-open';

// Settings files (a project's .mewbo/settings.json, configs/app.json, configs/secrets.json, the
// trust record) are read and replaced only through verified descriptors (safe-open), never
// through a link: an agent that planted `.mewbo/settings.json -> ~/.mewbo/configs/secrets.json`
// would otherwise have "Always allow" read the secret and write it, plus a rule, into the project.
// What is refused, with an error naming the file: a symbolic link at any component between the
// root and the file, a file that is not a regular file, and a regular file with other hard links
// (its content is another file's). Read-modify-writes of one file run one at a time (SettingsFiles).

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

export class SettingsFileError extends Error {
  override name = 'SettingsFileError';
  readonly code = 'unsafe_settings_file';
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(
      `${file} ${why}: the app never reads or writes settings through a link or a shared file, so nothing was changed. Replace it with a plain file of its own`,
    );
  }
}

/** The components of `file` below `root`; throws when it is not below it. */
function componentsBelow(root: string, file: string): string[] {
  const rel = relative(root, file);
  if (!rel || rel.startsWith('..') || rel.startsWith(sep))
    throw new SettingsFileError(file, `is not inside ${root}`);
  return rel.split(sep);
}

/** Refuses a symlink at any existing component from `root` down to `file`. */
async function refuseLinks(root: string, file: string): Promise<void> {
  let at = root;
  for (const name of componentsBelow(root, file)) {
    at = join(at, name);
    let st;
    try {
      st = await lstat(at);
    } catch (err) {
      if (errno(err) === 'ENOENT') return;
      throw err;
    }
    if (st.isSymbolicLink())
      throw new SettingsFileError(
        file,
        at === file ? 'is a symbolic link' : `lies under ${at}, a symbolic link`,
      );
  }
}

/** `dir` made absolute and real (created first when `create`): the root a settings file lives in. */
export async function settingsRoot(dir: string, create = false): Promise<string> {
  if (create) await mkdir(dir, { recursive: true });
  return realpath(dir);
}

/**
 * A directory on the way was replaced: safe-open saw another object, or the open met a link where
 * it wanted a directory (O_NOFOLLOW|O_DIRECTORY on a link is ENOTDIR, on a last link ELOOP).
 */
const swapped = (err: unknown) =>
  err instanceof PathChangedError || errno(err) === 'ENOTDIR' || errno(err) === 'ELOOP';

const LINK_SWAPPED = 'changed while it was being read (a link was swapped in)';
const LINK_SWAPPED_WRITE = 'changed while it was being written (a link was swapped in)';

/**
 * The text of settings file `file` (a path below the real directory `root`), or undefined when it
 * does not exist. Throws SettingsFileError for a link, a non-regular file or a hard-linked file.
 * The file is opened by name in a verified descriptor of its directory, so "not there" is never
 * the answer for a directory that a racer had swapped away.
 */
export async function readSettingsFile(root: string, file: string): Promise<string | undefined> {
  await refuseLinks(root, file);
  let dir: RootedDir;
  try {
    dir = await openDirInRoot(root, dirname(file));
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined;
    if (swapped(err)) throw new SettingsFileError(file, LINK_SWAPPED);
    throw err;
  }
  try {
    let opened;
    try {
      opened = await openInDir(dir, basename(file));
    } catch (err) {
      if (errno(err) === 'ENOENT') return undefined;
      if (errno(err) === 'ELOOP') throw new SettingsFileError(file, 'is a symbolic link');
      throw err;
    }
    const { handle, stat } = opened;
    try {
      if (!stat.isFile()) throw new SettingsFileError(file, 'is not a regular file');
      if (stat.nlink > 1n)
        throw new SettingsFileError(file, `has ${stat.nlink} hard links (its content is shared)`);
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}

/**
 * Replaces settings file `file` (below the real directory `root`) with `text`, atomically, through
 * a verified descriptor of its parent (created inside the root when missing). A link planted at
 * the name is replaced, never written through; a parent swapped for a link fails the write.
 */
export async function replaceSettingsFile(
  root: string,
  file: string,
  text: string,
  mode?: number,
): Promise<void> {
  await refuseLinks(root, file);
  let prepared;
  try {
    prepared = await prepareWrite(root, file, text, mode === undefined ? {} : { mode });
  } catch (err) {
    if (swapped(err)) throw new SettingsFileError(file, LINK_SWAPPED_WRITE);
    throw err;
  }
  try {
    await prepared.commit();
  } catch (err) {
    if (swapped(err)) throw new SettingsFileError(file, LINK_SWAPPED_WRITE);
    throw err;
  } finally {
    await prepared.abort();
  }
}

/**
 * The one read-modify-write of settings files: per file, one edit at a time (two "Always allow"
 * clicks at once both land), each reading the file afresh through readSettingsFile. `edit` gets
 * the current text (undefined: no file) and returns the new text, or null to leave it as it is.
 */
export class SettingsFiles {
  private readonly tails = new Map<string, Promise<unknown>>();

  edit<T>(
    root: string,
    file: string,
    edit: (text: string | undefined) => { text: string | null; result: T },
    mode?: number,
  ): Promise<T> {
    const previous = this.tails.get(file) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        const out = edit(await readSettingsFile(root, file));
        if (out.text !== null) await replaceSettingsFile(root, file, out.text, mode);
        return out.result;
      });
    this.tails.set(file, run);
    // The map forgets a file once its last edit settled, so it never grows with the files seen.
    void run
      .catch(() => undefined)
      .then(() => {
        if (this.tails.get(file) === run) this.tails.delete(file);
      });
    return run;
  }
}
