import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../fs/safe-path';
import {
  ALL_RIGHTS,
  DEVICE_WRITE_RIGHTS,
  READ_RIGHTS,
  TERMINAL_WRITE_ONLY_RIGHTS,
} from './access-rights';
import type { DenyList } from './deny-list';
import type { NetworkGrant } from './network-grant';
import { realPathLoose } from './real-path';

// Landlock only grants, so a deny list becomes grants: a tree holding a denied path is not
// granted itself; each of its entries is, except the denied one, and an entry that is an
// ancestor of a denied path is split the same way, down to the denied path. What is granted is
// listed at spawn time, so an entry created later in such an ancestor is under no rule (denied).

/** More grants than this means a huge directory on a denied path's ancestry; the rest are dropped. */
export const MAX_GRANTS = 20_000;

export interface Grant {
  path: string;
  rights: number;
}

export interface GrantPlan {
  grants: Grant[];
  warnings: string[];
}

export type WriteScope = 'unrestricted' | 'project';

export interface PlanInput {
  deny: DenyList;
  writeScope: WriteScope;
  /** Temporary directories writable under the project write scope (the shell's own TMPDIR first). */
  tempDirs: string[];
  /**
   * Package caches writable under the project write scope (sandbox.cache_dirs, absolute): those
   * that exist, never the home nor a directory holding it.
   */
  cacheDirs?: string[];
  /** The user's home: a cache directory may not be it (every dotfile would be writable). */
  home?: string;
  /** Terminals (/dev/pts) may be written but not read: a foreground run on a PTY. */
  terminalWriteOnly?: boolean;
  /**
   * Writable whatever the write scope, inside a read-only path (a worktree's parts of its
   * repository's git directory: worktree-grant.ts).
   */
  gitWritable?: string[];
}

const TERMINALS = '/dev/pts';

/** Devices a confined shell still writes to: `> /dev/null`, its terminal, entropy. */
const WRITABLE_DEVICES = [
  '/dev/null',
  '/dev/zero',
  '/dev/full',
  '/dev/random',
  '/dev/urandom',
  '/dev/tty',
  '/dev/ptmx',
  '/dev/pts',
];

class PlanBuilder {
  readonly rights = new Map<string, number>();
  readonly warnings: string[] = [];
  private full = false;

  constructor(private readonly denied: string[]) {}

  /** Grants all of `path`, denials inside it included (allowed_paths win over denials). */
  grantWhole(path: string, rights: number): void {
    this.add(path, rights);
  }

  private add(path: string, rights: number): void {
    const before = this.rights.get(path);
    if (before === undefined && this.rights.size >= MAX_GRANTS) {
      if (!this.full)
        this.warnings.push(
          `sandbox: more than ${MAX_GRANTS} grants; dropped the rest (starting at ${path})`,
        );
      this.full = true;
      return;
    }
    this.rights.set(path, (before ?? 0) | rights);
  }

  /** Grants `base` minus every denied path strictly inside it. */
  grantTree(base: string, rights: number): void {
    const inner = this.denied.filter((d) => d !== base && isInside(base, d));
    if (inner.length === 0) {
      this.add(base, rights);
      return;
    }
    let entries;
    try {
      entries = readdirSync(base, { withFileTypes: true });
    } catch (err) {
      this.warnings.push(
        `sandbox: dropped grants under ${base}: cannot list it (${(err as NodeJS.ErrnoException).code})`,
      );
      return;
    }
    for (const entry of entries) {
      const path = join(base, entry.name);
      if (inner.includes(path)) continue;
      // A symlink is no grant of its own: what it points to is checked where it really lives.
      if (entry.isSymbolicLink()) continue;
      // Split further when a denial lies below it, else granted whole (grantTree decides).
      this.grantTree(path, rights);
    }
  }
}

export function compileGrants(input: PlanInput): GrantPlan {
  const { deny } = input;
  // A write-only terminal and read-only trees are carved out of every tree like a denial, then
  // granted on their own.
  const builder = new PlanBuilder([
    ...deny.denied,
    ...(deny.readOnly ?? []),
    ...(input.terminalWriteOnly ? [TERMINALS] : []),
  ]);
  const insideDenied = (p: string) => deny.denied.some((d) => isInside(d, p));
  const project = input.writeScope === 'project';

  builder.grantTree('/', project ? READ_RIGHTS : ALL_RIGHTS);
  for (const dir of deny.readOnly ?? []) builder.grantTree(dir, READ_RIGHTS);
  // The session's own root is reachable even when it lies under a denied directory.
  builder.grantTree(deny.root, ALL_RIGHTS);
  for (const dir of (input.gitWritable ?? []).map(realPathLoose)) {
    if (insideDenied(dir) || !existsSync(dir))
      builder.warnings.push(`sandbox: dropped git grant ${dir}: missing or in a denied path`);
    else builder.grantTree(dir, ALL_RIGHTS);
  }
  for (const dir of input.tempDirs.map(realPathLoose)) {
    if (!existsSync(dir)) continue;
    if (insideDenied(dir)) {
      builder.warnings.push(`sandbox: temp directory ${dir} lies in a denied path; not granted`);
      continue;
    }
    builder.grantTree(dir, ALL_RIGHTS);
    if (!project) break; // unrestricted: only the shell's own TMPDIR needs its explicit grant
  }
  if (project) {
    for (const dir of (input.cacheDirs ?? []).map(realPathLoose)) {
      if (dir === '/' || (input.home && isInside(dir, realPathLoose(input.home)))) {
        builder.warnings.push(
          `sandbox: cache directory ${dir} not granted: it would make every file of the home writable (choose agent.shell_write_scope "unrestricted" for that)`,
        );
      } else if (insideDenied(dir)) {
        builder.warnings.push(`sandbox: cache directory ${dir} lies in a denied path; not granted`);
      } else if (existsSync(dir)) {
        builder.grantTree(dir, ALL_RIGHTS);
      }
    }
    for (const dev of WRITABLE_DEVICES) {
      if (dev === TERMINALS && input.terminalWriteOnly) continue;
      if (existsSync(dev) && !insideDenied(dev)) builder.grantTree(dev, DEVICE_WRITE_RIGHTS);
    }
  }
  if (input.terminalWriteOnly && existsSync(TERMINALS))
    builder.grantWhole(TERMINALS, TERMINAL_WRITE_ONLY_RIGHTS);
  for (const path of deny.readmitted) {
    if (existsSync(path)) builder.grantWhole(path, ALL_RIGHTS);
    else builder.warnings.push(`sandbox: dropped grant ${path} (allowed_paths): it does not exist`);
  }
  const grants = [...builder.rights].map(([path, rights]) => ({ path, rights }));
  return { grants, warnings: builder.warnings };
}

/**
 * The launcher's rules (landlock-launcher.c reads them), NUL-terminated records:
 * - `HEXMASK PATH`: grant the Landlock rights MASK beneath PATH;
 * - `net`: confine the network (TCP connect is a handled right; sockets only through the
 *   launcher, bound to loopback); absent, the network is open;
 * - `port N`: allow TCP connect to port N (decimal), only with `net`;
 * - `pin PATH`: bind PATH onto itself in a private mount namespace, so it cannot be renamed or
 *   removed (parents first);
 * - `hold PATH`: bind PATH onto itself read-only (policy-mounts.ts says which).
 * Paths are UTF-8 bytes (a string's default encoding). The keywords hold letters no hex mask has.
 */
export function encodeRules(
  grants: Grant[],
  extra: { network?: NetworkGrant; pins?: string[]; holds?: string[] } = {},
): Buffer {
  const records = grants.map((g) => `${g.rights.toString(16)} ${g.path}`);
  if (extra.network) {
    records.push('net', ...extra.network.connectPorts.map((port) => `port ${port}`));
  }
  records.push(...(extra.pins ?? []).map((p) => `pin ${p}`));
  records.push(...(extra.holds ?? []).map((p) => `hold ${p}`));
  return Buffer.from(records.map((r) => `${r}\0`).join(''));
}
