import { z } from 'zod';
import { command } from '../../../shared/protocol/command';
import {
  sessionWorktreeSchema,
  worktreeCopySchema,
  worktreeRequestSchema,
} from '../../../shared/protocol/session-worktree';
import { worktreeLossSchema } from '../../../shared/protocol/commands/worktrees';
import { HOST_PATH_MAX_CHARS, HOST_TEXT_MAX_CHARS } from './constants';

// The remote part's worktree commands (issue #29 part 3): a session of a project on an SSH host
// works in a git worktree made, reviewed, committed, applied and removed there by the host's git,
// with the same code a local project's uses (worktrees/worktree-site.ts). The app keeps the
// worktree's record in the session and sends it with each call.
//
// What the host answers is read as a hostile host's answer: a path must be an absolute,
// normalized path (no `.`, `..`, empty part or control character), a branch a name git would take,
// a commit an id, so nothing that comes back can name an option, climb out of a folder or hide a
// line break in a message. The app never uses these paths on its own disk anyway
// (worktrees/session-worktrees.ts keeps remote records out of everything local).

/** A control character (a NUL, a line break, an escape): no path or branch of ours holds one. */
const hasControl = (s: string) =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** An absolute, normalized POSIX path on the host. */
export const hostPathSchema = z
  .string()
  .max(HOST_PATH_MAX_CHARS)
  .refine(
    (p) =>
      p.startsWith('/') &&
      !hasControl(p) &&
      p
        .slice(1)
        .split('/')
        .every((c) => c !== '' && c !== '.' && c !== '..'),
    'not an absolute, normalized path (no ".", "..", empty part or control character)',
  );

/**
 * A tool call's or hook's session worktree on the host: its top folder, from the app's record of
 * the session. Only a spawn of that session inside that worktree gets the repository's git parts
 * (host-worktree-grant.ts). Absent: the session works in its project's folder, and its shells get
 * nothing beyond their root, even when that folder happens to be some session's worktree.
 */
export const sessionWorktreeTop = hostPathSchema.optional();

/** A branch name as `git check-ref-format --branch` takes one (short, no refs/heads/). */
export const branchNameSchema = z
  .string()
  .min(1)
  .max(200)
  .refine(
    (b) =>
      !hasControl(b) &&
      !/[ ~^:?*[\\]/.test(b) &&
      !b.includes('..') &&
      !b.includes('@{') &&
      b !== '@' &&
      !b.startsWith('-') &&
      !b.endsWith('.') &&
      b.split('/').every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock')),
    'not a branch name git would take',
  );

const commitIdSchema = z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, 'not a commit id');

/** A path in the repository as git lists it (shown, sent back to the host, never opened here). */
const repoPathSchema = z
  .string()
  .min(1)
  .max(HOST_PATH_MAX_CHARS)
  .refine((p) => !p.includes('\0'), 'a path with a NUL byte');

const text = z.string().max(HOST_TEXT_MAX_CHARS);

/** A session worktree's record on the host, each field checked as above. */
export const hostWorktreeSchema = sessionWorktreeSchema.extend({
  path: hostPathSchema,
  branch: branchNameSchema,
  base: commitIdSchema,
  checkout: hostPathSchema,
  git_dir: hostPathSchema,
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/, 'not a worktree name git makes'),
});

const hostCommitSchema = z.object({
  sha: commitIdSchema,
  subject: text,
  author: text,
  time: z.number(),
});

const worktree = z.object({ worktree: hostWorktreeSchema });

export const worktreeCommands = {
  /**
   * A new worktree of the repository holding `root` on a new branch from its HEAD, beside the
   * repository on the host (`<repo>.worktrees/`), with the `copy` files; `root` in the answer is
   * the session's root there, which must lie in the worktree.
   */
  'worktree.create': command(
    () =>
      z.object({
        root: hostPathSchema,
        request: worktreeRequestSchema,
        title: z.string(),
        copy: z.array(z.string()),
      }),
    () =>
      z
        .object({ worktree: hostWorktreeSchema, root: hostPathSchema, copy: worktreeCopySchema })
        .refine(
          (r) => r.root === r.worktree.path || r.root.startsWith(`${r.worktree.path}/`),
          'a session root outside its worktree',
        ),
  ),
  'worktree.review': command(
    () => worktree,
    () =>
      z.object({
        files: z.array(
          z.object({
            path: repoPathSchema,
            status: z.enum(['A', 'D', 'M', 'T']),
            additions: z.number().int().min(0).nullable(),
            deletions: z.number().int().min(0).nullable(),
          }),
        ),
        commits: z.array(hostCommitSchema),
        uncommitted: z.array(repoPathSchema),
      }),
  ),
  'worktree.count': command(
    () => worktree,
    () => z.object({ changed_files: z.number().int().min(0) }),
  ),
  'worktree.diff': command(
    () => worktree.extend({ path: repoPathSchema.optional() }),
    () => z.object({ patch: z.string() }),
  ),
  'worktree.uncommitted': command(
    () => worktree,
    () => z.object({ patch: z.string(), files: z.array(repoPathSchema) }),
  ),
  /** Refused (`apply_conflict`, each file an issue) when the checkout changed the same lines. */
  'worktree.apply': command(
    () => worktree,
    () => z.object({ files: z.array(repoPathSchema) }),
  ),
  'worktree.commit': command(
    () => worktree.extend({ message: z.string().min(1) }),
    () => z.object({ sha: commitIdSchema }),
  ),
  'worktree.loss': command(
    () => worktree,
    () =>
      worktreeLossSchema.extend({
        uncommitted: z.array(repoPathSchema),
        commits: z.array(hostCommitSchema),
      }),
  ),
  'worktree.remove': command(
    () => worktree,
    () => z.object({}),
  ),
};
