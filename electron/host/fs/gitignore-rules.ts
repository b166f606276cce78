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

/**
 * A pattern anchored to its own file's directory with a single component (`/dist`, `!/build/`),
 * returned as the name pattern it is for that directory's own entries (`dist`, `!build/`), else
 * null. Such a pattern can only match an entry of that one directory.
 */
function ownDirName(line: string): string | null {
  const text = line.trim();
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  if (!body.startsWith('/')) return null;
  const rest = body.slice(1);
  return rest !== '' && byNameOnly(rest) ? `${negated ? '!' : ''}${rest}` : null;
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

/**
 * The patterns that decide an entry of one directory by its name alone, in precedence order: every
 * file's name-only patterns, and the directory's own file's `/name` patterns as `name`. Null when
 * some pattern needs the path (`docs/*.md`, `/a/b`).
 */
interface NameRules {
  /** For this directory's own entries. */
  here: string[];
  /** For the entries of directories below it (its own `/name` patterns left out). */
  below: string[];
}

export class GitignoreRules {
  /**
   * `names`: every pattern decides by the entry's name alone here (`node_modules/`, `*.log`,
   * `/dist`, as most do, in the root's .gitignore or nested ones), so the answer for a path is
   * the answer for its name: names repeat across a tree and are asked once each (`byName`). Asked
   * about 100k distinct paths instead, `ignore` keeps one cache entry each and re-tests every
   * parent, which was most of a list_dir walk's time. The walk asks only about entries of
   * directories it entered, so no parent of an entry is ignored and the name is enough; one list
   * in file order keeps git's precedence (a deeper `!name` still wins).
   */
  private constructor(
    private readonly patterns: readonly string[],
    private readonly ig: Ignore | null,
    private readonly names: NameRules | null,
    private readonly byName: { ig: Ignore; answers: Map<string, boolean> } | null,
  ) {}

  private belowView: GitignoreRules | undefined;

  static empty(): GitignoreRules {
    return new GitignoreRules([], null, { here: [], below: [] }, null);
  }

  private static of(patterns: readonly string[], names: NameRules | null): GitignoreRules {
    const ig = patterns.length ? ignore().add(patterns) : null;
    const byName =
      ig && names ? { ig: ignore().add(names.here), answers: new Map<string, boolean>() } : null;
    return new GitignoreRules(patterns, ig, names, byName);
  }

  /** These rules for a directory below the one they were entered for (no own `/name` patterns). */
  private below(): GitignoreRules {
    if (!this.names || this.names.here.length === this.names.below.length) return this;
    const names = { here: this.names.below, below: this.names.below };
    return (this.belowView ??= GitignoreRules.of(this.patterns, names));
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
    const parent = this.below();
    if (own === null && exclude === null) return parent;
    const lines = [exclude, own]
      .filter((text): text is string => text !== null)
      .flatMap((text) => text.split('\n'))
      .map((line) => line.replace(/\r$/, ''));
    const patterns = [...parent.patterns, ...lines.map((line) => rebase(line, relDir))];
    let nameRules: NameRules | null = parent.names && {
      here: [...parent.names.here],
      below: [...parent.names.below],
    };
    for (const line of lines) {
      if (!nameRules) break;
      if (byNameOnly(line)) {
        nameRules.here.push(line);
        nameRules.below.push(line);
        continue;
      }
      const anchored = ownDirName(line);
      if (anchored === null) nameRules = null;
      else nameRules.here.push(anchored);
    }
    return GitignoreRules.of(patterns, nameRules);
  }

  /**
   * Whether entry `name` of directory `dirRel` (relative to the walk's root, "" for it) is
   * ignored; `isDir` for a directory. The walk asks only about entries of directories it entered,
   * so no parent of the entry is ignored. The entry's path is built only when a pattern needs it.
   */
  ignores(dirRel: string, name: string, isDir: boolean): boolean {
    if (!this.ig) return false;
    const asked = isDir ? `${name}/` : name;
    if (!this.byName) return this.ig.ignores(dirRel ? `${dirRel}/${asked}` : asked);
    const { answers } = this.byName;
    let ignored = answers.get(asked);
    if (ignored === undefined) answers.set(asked, (ignored = this.byName.ig.ignores(asked)));
    return ignored;
  }
}
