import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';

// Every path a tool (or a shell `cwd`) touches goes through here. A path is accepted only if,
// after following every symlink that exists on disk, it still lies inside the root's real path.
// Missing trailing components are fine (a file about to be created): the longest existing prefix
// is resolved for real and the rest is appended lexically.

/** Symlink hops followed while resolving one path before giving up (Linux's own MAXSYMLINKS is 40). */
const MAX_SYMLINK_HOPS = 40;

export class PathValidationError extends Error {
  override name = 'PathValidationError';
  readonly code = 'path_validation';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export interface ResolveOptions {
  /** Name of the argument being checked, used in messages ("file_path", "cwd"). Default "path". */
  label?: string;
}

/** True when `p` is `root` or below it (both absolute and normalized). */
export function isInside(root: string, p: string): boolean {
  if (p === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return p.startsWith(prefix);
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function realRootOf(root: string): string {
  if (root.includes('\0')) throw new PathValidationError('root contains a NUL byte', root);
  if (!isAbsolute(root)) throw new PathValidationError(`root must be absolute: ${root}`, root);
  try {
    const real = realpathSync(root);
    if (!statSync(real).isDirectory())
      throw new PathValidationError(`root is not a directory: ${root}`, root);
    return real;
  } catch (err) {
    if (err instanceof PathValidationError) throw err;
    throw new PathValidationError(`root does not exist: ${root}`, root);
  }
}

/** A path that changed between two steps of its resolution (a racer swapping links) is refused. */
function changedWhileResolving(shown: string, err: unknown): PathValidationError {
  const code = errno(err) ?? String(err);
  return new PathValidationError(`${shown} changed while it was being resolved (${code})`, shown);
}

/**
 * Follows symlinks along `abs` as the kernel would: the longest existing prefix is realpath'd, a
 * dangling symlink is followed by hand (writing through it would create its target), and the
 * missing rest is appended as-is.
 */
function resolveOnDisk(abs: string, shown: string): string {
  let current = abs;
  // Stryker disable next-line EqualityOperator,UpdateOperator: past 40 links realpath says ELOOP before this count can end the loop
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
    let prefix = current;
    const rest: string[] = [];
    for (;;) {
      try {
        const real = realpathSync.native(prefix);
        return rest.length ? join(real, ...rest.reverse()) : real;
      } catch (err) {
        const code = errno(err);
        if (code === 'ELOOP') throw new PathValidationError(`symlink loop in ${shown}`, shown);
        if (code === 'ENAMETOOLONG')
          throw new PathValidationError(`path too long: ${shown}`, shown);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw changedWhileResolving(shown, err);
      }
      // realpath failed: either the prefix is missing, or it is a symlink whose target is.
      let isLink = false;
      try {
        isLink = lstatSync(prefix).isSymbolicLink();
      } catch {
        // Missing: not a link.
      }
      if (isLink) {
        let target: string;
        try {
          target = readlinkSync(prefix);
        } catch (err) {
          // It was a symlink a moment ago: something is swapping the path under us.
          throw changedWhileResolving(shown, err);
        }
        current = join(resolve(dirname(prefix), target), ...rest.reverse());
        break;
      }
      const parent = dirname(prefix);
      // Stryker disable next-line ConditionalExpression: realpath of / never fails, so the walk ends before it
      if (parent === prefix) return current;
      rest.push(basename(prefix));
      prefix = parent;
    }
  }
  throw new PathValidationError(`too many symlinks in ${shown}`, shown);
}

/**
 * Resolves `p` (relative to `root`, or absolute) to a real absolute path inside `root`, or throws
 * PathValidationError. The result is the path to operate on: symlinks inside it are already
 * followed, so a later open cannot be redirected by them.
 */
export function resolveInsideRoot(root: string, p: string, opts: ResolveOptions = {}): string {
  const label = opts.label ?? 'path';
  if (typeof p !== 'string') throw new PathValidationError(`${label} must be a string`, String(p));
  if (p.includes('\0')) throw new PathValidationError(`${label} contains a NUL byte`, p);
  // The model means the home directory; expanding it would always leave the root.
  if (p === '~' || p.startsWith('~/')) {
    throw new PathValidationError(
      `${label} '${p}' is home-relative; give a path inside the project root`,
      p,
    );
  }
  const realRoot = realRootOf(root);
  const lexical = isAbsolute(p) ? resolve(p) : resolve(realRoot, p);
  // Absolute paths may name the root by its unresolved spelling (a root under a symlinked /tmp).
  const rootLexical = resolve(root);
  // Stryker disable next-line LogicalOperator: a path outside the root's spelling rebases to outside its real path too
  const rebased =
    isInside(rootLexical, lexical) && !isInside(realRoot, lexical)
      ? join(realRoot, relative(rootLexical, lexical))
      : lexical;
  if (!isInside(realRoot, rebased)) {
    throw new PathValidationError(`${label} '${p}' is outside the project root ${realRoot}`, p);
  }
  const real = resolveOnDisk(rebased, p);
  if (!isInside(realRoot, real)) {
    throw new PathValidationError(
      `${label} '${p}' leads outside the project root through a symlink (to ${real})`,
      p,
    );
  }
  return real;
}

/**
 * The root a tool call works in: the session root, or a model-given `root` that may only narrow it
 * (an existing directory inside the session root). Throws PathValidationError otherwise.
 */
export function narrowRoot(sessionRoot: string, modelRoot?: string | null): string {
  const realSession = realRootOf(sessionRoot);
  if (modelRoot === undefined || modelRoot === null) return realSession;
  // '' resolves to the session root itself.
  const narrowed = resolveInsideRoot(realSession, modelRoot, { label: 'root' });
  let isDir = false;
  try {
    isDir = statSync(narrowed).isDirectory();
  } catch {
    // Missing: not a directory.
  }
  if (!isDir)
    throw new PathValidationError(`root '${modelRoot}' is not an existing directory`, modelRoot);
  return narrowed;
}

/** Path of `abs` relative to `root` for display ("." for the root itself). */
export function relativeToRoot(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' ? '.' : rel;
}

/** The error payload a tool returns for a refused path. */
export function pathErrorPayload(err: PathValidationError): ErrorPayload {
  return errorPayload('path_validation', err.message, { path: err.path });
}

export type SafeResolution =
  { ok: true; root: string; path: string } | { ok: false; error: ErrorPayload };

/**
 * One call for tools: narrows the root, then resolves `p` inside it; refusals come back as a
 * path_validation error payload instead of an exception.
 */
export function safeResolve(
  sessionRoot: string,
  modelRoot: string | null | undefined,
  p: string,
  opts: ResolveOptions = {},
): SafeResolution {
  try {
    const root = narrowRoot(sessionRoot, modelRoot);
    return { ok: true, root, path: resolveInsideRoot(root, p, opts) };
  } catch (err) {
    // Stryker disable next-line ConditionalExpression: nothing else is thrown here; the check keeps a bug from being reported as a path refusal
    if (err instanceof PathValidationError) return { ok: false, error: pathErrorPayload(err) };
    throw err;
  }
}
