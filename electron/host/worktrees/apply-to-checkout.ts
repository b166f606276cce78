import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionWorktree } from '../../../shared/protocol/session-worktree';
import { HostError } from '../rpc/host-error';
import { git } from '../projects/git';
import { atomicWriteAll, type FileChange } from '../fs/atomic-write';
import { PathValidationError, resolveInsideRoot } from '../fs/safe-path';
import { openForRead } from '../fs/safe-open';
import { changedFiles, readBlobs, type ChangedFile } from './session-work';

// Apply: the session's changes (its base to its work now) onto the checkout it was made from, as
// uncommitted edits, all or nothing. Each file is merged three ways, as git would: the base, the
// checkout's file as it is now (the user may have changed it since), the session's. A file both
// changed on the same lines, added by both, or deleted by one and changed by the other is a
// conflict; with any conflict nothing is written and every conflicting file is named. The
// writes go through the verified-descriptor code, every temp file first, and the checkout is read
// again just before the renames: a file changed meanwhile aborts the whole Apply.

export interface Conflict {
  path: string;
  reason: string;
}

export class ApplyConflictError extends HostError {
  constructor(
    readonly conflicts: Conflict[],
    checkout: string,
  ) {
    super(
      'apply_conflict',
      `nothing was applied to ${checkout}: ${conflicts.length} file${conflicts.length === 1 ? '' : 's'} cannot be: ${conflicts
        .map((c) => `${c.path} (${c.reason})`)
        .join(
          ', ',
        )}. Commit or set aside your own changes to them (or take the session's branch with git), then apply again`,
      conflicts.map((c) => ({ path: c.path, message: c.reason })),
    );
  }
}

/** A checkout file changed between Apply's check and its renames: nothing was written. */
export class CheckoutChangedError extends HostError {
  constructor(path: string, checkout: string) {
    super(
      'checkout_changed',
      `nothing was applied: ${path} changed in ${checkout} while the changes were being applied; try again`,
      [{ path, message: 'changed while the changes were being applied' }],
    );
  }
}

const REGULAR = /^100(644|755)$/;

/**
 * A path Apply never writes: one inside a `.git` (the agent can make a tree holding
 * `.git/hooks/post-checkout` with `git mktree`; written into the checkout, it would run at the
 * user's next checkout) or one no checkout could hold (`..`, `.`, an empty name).
 */
function unsafePath(path: string): boolean {
  return path
    .split('/')
    .some((c) => c === '' || c === '.' || c === '..' || c.toLowerCase() === '.git');
}
const digest = (b: Uint8Array | null) =>
  b === null ? 'none' : createHash('sha256').update(b).digest('hex');

/** The checkout's file at `path` now: bytes, null when absent; a link or non-file is refused. */
async function readCheckout(top: string, path: string): Promise<Buffer | null | string> {
  let real: string;
  try {
    real = resolveInsideRoot(top, path);
  } catch (err) {
    if (err instanceof PathValidationError) return 'a link in the checkout leads outside it';
    throw err;
  }
  if (real !== join(top, path)) return 'it is reached through a link in the checkout';
  let opened;
  try {
    opened = await openForRead(top, real);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `it cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  try {
    if (!opened.stat.isFile()) return 'it is not a regular file in the checkout';
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}

/** `git merge-file`: the merged bytes, or null when the two sides touch the same lines. */
async function mergeThreeWay(
  scratch: string,
  ours: Buffer,
  base: Buffer,
  theirs: Buffer,
): Promise<Buffer | null> {
  const dir = await mkdtemp(join(scratch, 'merge-'));
  try {
    const [o, b, t] = ['ours', 'base', 'theirs'].map((n) => join(dir, n));
    await Promise.all([writeFile(o!, ours), writeFile(b!, base), writeFile(t!, theirs)]);
    const r = await git(['merge-file', '-p', '--quiet', o!, b!, t!], dir, undefined, {
      bytes: true,
    });
    // Exit 0: merged; more: that many conflicts; a binary file fails (not mergeable by lines).
    return r.ok && r.bytes ? r.bytes : null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Planned {
  change: FileChange;
  /** The checkout file's digest this plan was made against. */
  seen: string;
}

async function plan(
  wt: SessionWorktree,
  files: ChangedFile[],
  scratch: string,
): Promise<{ planned: Planned[]; conflicts: Conflict[] }> {
  const blobs = await readBlobs(
    wt,
    files.flatMap((f) => [f.oldSha, f.newSha]),
  );
  const planned: Planned[] = [];
  const conflicts: Conflict[] = [];
  for (const f of files) {
    if (unsafePath(f.path)) {
      conflicts.push({ path: f.path, reason: 'a path inside .git, never written by Apply' });
      continue;
    }
    const unsupported = [f.oldMode, f.newMode].find((m) => m !== '000000' && !REGULAR.test(m));
    if (unsupported) {
      conflicts.push({
        path: f.path,
        reason: unsupported === '120000' ? 'a symbolic link' : `a ${unsupported} entry`,
      });
      continue;
    }
    const now = await readCheckout(wt.checkout, f.path);
    if (typeof now === 'string') {
      conflicts.push({ path: f.path, reason: now });
      continue;
    }
    const base = f.oldSha ? blobs.get(f.oldSha)! : null;
    const theirs = f.newSha ? blobs.get(f.newSha)! : null;
    const mode = f.newMode === '100755' ? 0o755 : 0o644;
    const modeChanged = f.oldMode !== f.newMode;
    const write = (after: Buffer | null): Planned => ({
      change: {
        path: join(wt.checkout, f.path),
        before: now,
        after,
        ...(after && (now === null || modeChanged) ? { mode } : {}),
      },
      seen: digest(now),
    });
    const same = (a: Buffer | null, b: Buffer | null) =>
      a === null || b === null ? a === b : a.equals(b);
    if (same(now, theirs)) {
      if (modeChanged && theirs) planned.push(write(theirs));
      continue; // already as the session left it
    }
    if (same(now, base)) {
      planned.push(write(theirs));
      continue;
    }
    if (base === null) conflicts.push({ path: f.path, reason: 'added in both' });
    else if (now === null) conflicts.push({ path: f.path, reason: 'deleted in the checkout' });
    else if (theirs === null)
      conflicts.push({ path: f.path, reason: 'changed in the checkout, deleted by the session' });
    else {
      const merged = await mergeThreeWay(scratch, now, base, theirs);
      if (merged) planned.push(write(merged));
      else conflicts.push({ path: f.path, reason: 'both changed the same lines' });
    }
  }
  return { planned, conflicts };
}

/**
 * Applies the session's work (`tree`, from session-work.ts) onto its checkout; returns the paths
 * written. Throws ApplyConflictError (nothing written) when the checkout changed the same lines.
 */
export async function applyToCheckout(
  wt: SessionWorktree,
  tree: string,
  scratchDir: string,
): Promise<string[]> {
  await mkdir(scratchDir, { recursive: true, mode: 0o700 });
  const files = await changedFiles(wt, tree);
  const { planned, conflicts } = await plan(wt, files, scratchDir);
  if (conflicts.length) throw new ApplyConflictError(conflicts, wt.checkout);
  await atomicWriteAll(
    wt.checkout,
    planned.map((p) => p.change),
    async () => {
      for (const p of planned) {
        const rel = p.change.path.slice(wt.checkout.length + 1);
        const now = await readCheckout(wt.checkout, rel);
        if (typeof now === 'string' || digest(now) !== p.seen)
          throw new CheckoutChangedError(rel, wt.checkout);
      }
    },
  );
  return planned.map((p) => p.change.path.slice(wt.checkout.length + 1));
}
