import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROTECTED_POLICY_PATHS } from './policy-paths';

// The launcher's read-only bind mounts over a project's policy files (issue 25 part 3, kernel
// side; policy-mounts.c makes them). Only what exists at spawn can be held: a bind mount needs a
// file or directory to cover. A policy file created later by a confined command (a `.mcp.json`
// that was absent) is the host's to catch: the trust digests do not obey a file they were not
// shown. Making placeholders instead (Claude Code's sandbox binds /dev/null over an absent path,
// which leaves empty files in the project) would change the user's tree on every command.

/**
 * Entries of a held directory looked at for hard links before the walk gives up: a `.claude`
 * with its skills and commands is tens of files; this bounds a hostile tree.
 */
const MAX_LINK_WALK = 2000;

/** The launcher's mount records for one root: what to pin (parents first), what to hold. */
export interface PolicyMounts {
  /** Bound onto themselves, writable: directories between the root and a held path, root first. */
  pins: string[];
  /** Bound onto themselves read-only. */
  holds: string[];
  /** Policy paths that are not fully held (a symbolic link on the way, a second hard link). */
  warnings: string[];
}

// Stryker disable BlockStatement: an emptied catch block returns undefined, which reads as null everywhere this is used (`?.`, `!st`)
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
// Stryker restore BlockStatement

/**
 * Files under `held` with another name somewhere: writable through that name, whatever the mount
 * over this one says. Bounded by MAX_LINK_WALK.
 */
function linkedFiles(held: string): string[] {
  const found: string[] = [];
  const queue = [held];
  for (let seen = 0; queue.length > 0 && seen < MAX_LINK_WALK; seen++) {
    const path = queue.shift()!;
    const st = lstatOrNull(path);
    if (st?.isFile() && st.nlink > 1) found.push(path);
    if (!st?.isDirectory()) continue;
    try {
      for (const name of readdirSync(path)) queue.push(join(path, name));
    } catch {
      // unreadable here: the mount covers it all the same
    }
  }
  return found;
}

/**
 * What to hold under `root` (a real path): every policy path that exists, reached through real
 * directories only. A `.git` that is a file (a worktree's or a submodule's pointer to its git
 * directory) is held itself: rewritten, it would point git at hooks of the agent's choosing.
 * Each directory between the root and a held path is pinned: the kernel refuses to rename or
 * remove a mountpoint (EBUSY), whereas a directory merely holding one could be renamed away and
 * replaced.
 */
export function policyMounts(root: string): PolicyMounts {
  const holds = new Set<string>();
  const warnings: string[] = [];
  const gitIsFile = lstatOrNull(join(root, '.git'))?.isFile() === true;
  for (const rel of PROTECTED_POLICY_PATHS) {
    const parts = rel.split('/');
    if (parts[0] === '.git' && gitIsFile) {
      holds.add(join(root, '.git'));
      continue;
    }
    let at = root;
    for (const part of parts) {
      at = join(at, part);
      const st = lstatOrNull(at);
      if (!st) break;
      if (st.isSymbolicLink()) {
        warnings.push(
          `sandbox: ${at} is a symbolic link: the policy files under it are not held read-only`,
        );
        break;
      }
      if (at === join(root, rel)) holds.add(at);
    }
  }
  for (const held of holds)
    for (const linked of linkedFiles(held))
      warnings.push(
        `sandbox: ${linked} has another hard link: a command can change it through that name`,
      );
  const pins = new Set<string>();
  for (const held of holds)
    for (let dir = dirname(held); dir.startsWith(root); dir = dirname(dir)) {
      pins.add(dir);
      // Stryker disable next-line ConditionalExpression: the loop's own test stops there too, root's parent never starting with root (a root of `/`, the one exception, is refused as a session root)
      if (dir === root) break;
    }
  // Parents before children: a pin must exist before the mounts beneath it are made. The holds
  // follow PROTECTED_POLICY_PATHS, where none lies inside another.
  const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length;
  return { pins: [...pins].sort(byDepth), holds: [...holds], warnings };
}
