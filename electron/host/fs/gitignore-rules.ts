import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

// .gitignore rules as git applies them while walking. Every .gitignore on the way down (and
// .git/info/exclude at a repository's top) goes into ONE rule list, its patterns rewritten to be
// relative to the walk's root, deeper files last. One list is git's own precedence: the last
// pattern that matches decides, so a deeper `!pattern` re-includes what a shallower file excluded,
// and `ignore` deciding a path's parents from the same list agrees with git about them (asked per
// file, a shallower file alone would still call a re-included parent excluded). An ignored
// directory is never entered, so nothing inside it can be re-included, as in git.

/** Characters a directory name must escape to be read literally at the start of a pattern. */
const GLOB_SPECIAL = /[\\*?[\]]/g;

/** Whether a pattern line matches by name alone, at any depth: no slash but a trailing one. */
function byNameOnly(line: string): boolean {
  const body = line.trim();
  if (body === '' || body.startsWith('#')) return true;
  const slash = body.indexOf('/');
  return slash === -1 || slash === body.length - 1;
}

/** Whether every pattern in a .gitignore text matches by name alone. */
export function namesOnly(text: string): boolean {
  return text.split(/\r?\n/).every(byNameOnly);
}

/**
 * A pattern of the .gitignore in `dir` (relative to the root, "" for the root itself), rewritten
 * to mean the same relative to the root: a pattern with a slash but a trailing one is anchored to
 * its file's directory, any other matches at any depth below it (gitignore(5), PATTERN FORMAT).
 */
export function rebase(line: string, dir: string): string {
  const text = line.replace(/\r$/, '');
  if (dir === '' || text.trim() === '' || text.startsWith('#')) return text;
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  let base = dir.replace(GLOB_SPECIAL, '\\$&');
  if (base.startsWith('!') || base.startsWith('#')) base = `\\${base}`;
  const anchored = !byNameOnly(body);
  return `${negated ? '!' : ''}${base}${anchored ? '' : '/**'}/${body.replace(/^\//, '')}`;
}

async function readRules(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

export class GitignoreRules {
  /**
   * `byName`: every pattern came from the root's files and matches by name alone (`node_modules/`,
   * `*.log`, as most do), so the answer for a path is the answer for its name: names repeat across
   * a tree and are asked once each. Asked about 100k distinct paths instead, `ignore` keeps one
   * cache entry each and re-tests every parent, which was most of a list_dir walk's time.
   */
  private constructor(
    private readonly patterns: readonly string[],
    private readonly ig: Ignore | null,
    private readonly byName: Map<string, boolean> | null,
  ) {}

  static empty(): GitignoreRules {
    return new GitignoreRules([], null, null);
  }

  /**
   * Rules for a directory: the parent's plus its own .gitignore (and .git/info/exclude at a repo
   * top). `names` (the directory's entries, when the caller has read them) saves trying to open
   * files that are not there, which in a big tree costs more than the walk itself.
   */
  async enter(
    absDir: string,
    relDir: string,
    names?: ReadonlySet<string>,
  ): Promise<GitignoreRules> {
    const own =
      !names || names.has('.gitignore') ? await readRules(join(absDir, '.gitignore')) : null;
    const exclude =
      !names || names.has('.git') ? await readRules(join(absDir, '.git', 'info', 'exclude')) : null;
    if (own === null && exclude === null) return this;
    const added = [exclude, own]
      .filter((text): text is string => text !== null)
      .flatMap((text) => text.split('\n'))
      .map((line) => rebase(line, relDir));
    const patterns = [...this.patterns, ...added];
    const byName = patterns.every(byNameOnly) ? new Map<string, boolean>() : null;
    return new GitignoreRules(patterns, ignore().add(patterns), byName);
  }

  /**
   * Whether `rel` (relative to the walk's root; directories end in "/") is ignored. `name` is its
   * last component (with the "/" of a directory). The walk asks only about entries of directories
   * it entered, so no parent of `rel` is ignored.
   */
  ignores(rel: string, name: string): boolean {
    if (!this.ig) return false;
    if (!this.byName) return this.ig.ignores(rel);
    let ignored = this.byName.get(name);
    if (ignored === undefined) this.byName.set(name, (ignored = this.ig.ignores(name)));
    return ignored;
  }
}
