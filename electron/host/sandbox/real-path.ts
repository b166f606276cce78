import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The real path of `p`, following every symlink in the part that exists; a missing tail is kept
 * as written. A deny list entry naming a symlink denies what it points to (Landlock checks the
 * object reached, never the spelling used to reach it).
 */
export function realPathLoose(p: string): string {
  const abs = resolve(p);
  const rest: string[] = [];
  let current = abs;
  for (;;) {
    try {
      const real = realpathSync(current);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) return abs;
      rest.push(basename(current));
      current = parent;
    }
  }
}
