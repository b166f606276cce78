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
    return new GitignoreRules([...this.sets, { base: relDir, ig }]);
  }

  /** Whether `rel` (relative to the walk's root; directories end in "/") is ignored. */
  ignores(rel: string): boolean {
    for (let k = this.sets.length - 1; k >= 0; k--) {
      const { base, ig } = this.sets[k]!;
      const local = base === '' ? rel : rel.slice(base.length + 1);
      const result = ig.test(local);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
