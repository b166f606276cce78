import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

// .gitignore rules as git applies them while walking: each directory's file speaks for paths below
// it, deeper files win over shallower ones (a deeper `!pattern` re-includes), and an ignored
// directory is never entered (so nothing inside it can be re-included, as in git).

interface RuleSet {
  /** Directory the rules belong to, relative to the walk's root, posix separators; "" for the root. */
  base: string;
  ig: Ignore;
  /**
   * Every pattern has no slash but a trailing one (`node_modules/`, `*.log`), so git matches it
   * against the name alone, at any depth. Such a set is asked about names, which repeat across a
   * tree, with answers kept per name: asked about 100k distinct paths instead, `ignore` keeps one
   * cache entry each and re-tests every parent, which was most of a list_dir walk's time.
   */
  byName: Map<string, { ignored: boolean; unignored: boolean }> | null;
}

/** Whether every pattern in a .gitignore text matches by name alone (see RuleSet.byName). */
export function namesOnly(text: string): boolean {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const slash = line.indexOf('/');
    if (slash !== -1 && slash !== line.length - 1) return false;
  }
  return true;
}

async function readRules(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

export class GitignoreRules {
  private constructor(private readonly sets: RuleSet[]) {}

  static empty(): GitignoreRules {
    return new GitignoreRules([]);
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
    const ig = ignore();
    if (exclude !== null) ig.add(exclude);
    if (own !== null) ig.add(own);
    const byName = namesOnly(`${exclude ?? ''}\n${own ?? ''}`) ? new Map() : null;
    return new GitignoreRules([...this.sets, { base: relDir, ig, byName }]);
  }

  /**
   * Whether `rel` (relative to the walk's root; directories end in "/") is ignored. `name` is its
   * last component (with the "/" of a directory). The walk asks only about entries of directories
   * it entered, so no parent of `rel` is ignored.
   */
  ignores(rel: string, name: string): boolean {
    for (let k = this.sets.length - 1; k >= 0; k--) {
      const { base, ig, byName } = this.sets[k]!;
      let result;
      if (byName) {
        result = byName.get(name);
        if (result === undefined) byName.set(name, (result = ig.test(name)));
      } else {
        result = ig.test(base === '' ? rel : rel.slice(base.length + 1));
      }
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
