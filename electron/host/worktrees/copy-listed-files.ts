import { basename, dirname, join, posix } from 'node:path';
import { PathValidationError, resolveInsideRoot } from '../fs/safe-path';
import { openForRead, readDirInRoot } from '../fs/safe-open';
import { prepareWrite } from '../fs/atomic-write';
import { COPY_MAX_FILE_BYTES, COPY_MAX_FILES } from './constants';

// `worktrees.copy`: files a new session worktree gets from the checkout it was made from, the
// ones a checkout does not carry (`.env.local`, a local config). The checkout is the user's, but
// a file in it may be a link a past session planted: every source is resolved with its links
// followed and must stay inside the checkout, opened through a verified descriptor, and only a
// regular file is read. The copy is written through the same verified-descriptor path inside the
// worktree, with the source's mode.

export interface CopyOutcome {
  copied: string[];
  /** Listed files not copied, with why (missing, a link out of the repository, too large). */
  skipped: { path: string; reason: string }[];
}

/** `*` within one name: `.env*`, `config/*.local.json`. */
function namePattern(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${body}$`);
}

/** The relative paths a pattern names in `top` (a pattern without `*` names itself). */
async function expand(top: string, pattern: string): Promise<string[]> {
  const name = posix.basename(pattern);
  if (!name.includes('*')) return [pattern];
  const dir = posix.dirname(pattern);
  let realDir: string;
  try {
    realDir = resolveInsideRoot(top, dir === '.' ? '' : dir);
  } catch {
    return [];
  }
  const re = namePattern(name);
  const names = await readDirInRoot(top, realDir, async (entries) =>
    entries.filter((e) => re.test(e.name)).map((e) => e.name),
  ).catch(() => [] as string[]);
  return names
    .sort()
    .slice(0, COPY_MAX_FILES)
    .map((n) => (dir === '.' ? n : `${dir}/${n}`));
}

async function copyOne(top: string, worktree: string, rel: string): Promise<string | null> {
  let source: string;
  try {
    source = resolveInsideRoot(top, rel);
  } catch (err) {
    if (err instanceof PathValidationError) return 'it leads outside the repository';
    throw err;
  }
  let opened;
  try {
    opened = await openForRead(top, source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'not in the checkout' : `cannot open it (${code ?? String(err)})`;
  }
  const { handle, stat } = opened;
  let data: Buffer;
  try {
    if (!stat.isFile()) return 'not a regular file';
    if (stat.size > BigInt(COPY_MAX_FILE_BYTES))
      return `larger than ${COPY_MAX_FILE_BYTES / 2 ** 20} MiB`;
    data = await handle.readFile();
  } finally {
    await handle.close();
  }
  // The worktree's real path and the same relative name; a link the checkout committed at a
  // parent is refused the same way as on the way in.
  let target: string;
  try {
    target = resolveInsideRoot(worktree, join(dirname(rel), basename(rel)));
  } catch (err) {
    if (err instanceof PathValidationError) return 'its place in the worktree leads outside it';
    throw err;
  }
  const write = await prepareWrite(worktree, target, data, { mode: Number(stat.mode & 0o777n) });
  try {
    await write.commit();
  } finally {
    await write.abort();
  }
  return null;
}

/** Copies what `patterns` name from the checkout `top` into the new worktree. */
export async function copyListedFiles(
  top: string,
  worktree: string,
  patterns: readonly string[],
): Promise<CopyOutcome> {
  const out: CopyOutcome = { copied: [], skipped: [] };
  for (const pattern of patterns) {
    const paths = await expand(top, pattern);
    for (const rel of paths) {
      const why = await copyOne(top, worktree, rel);
      if (why) out.skipped.push({ path: rel, reason: why });
      else out.copied.push(rel);
    }
  }
  return out;
}
