import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/schema';
import { isInside } from '../fs/safe-path';
import { realPathLoose } from './real-path';

// What a shell of this session must not reach, before it is compiled into Landlock grants
// (tool-parameters.md, "The shell sandbox"): other configured projects, all of $MEWBO_HOME
// (configs and keys, sessions, state, the TLS key, device records: always), the app's install
// (harness_self_deny), agent.shell_denied_paths. The active project's
// allowed_paths re-admit and win over every denial.

export interface DenyInputs {
  config: AppConfig;
  /** The session's root (its active project's directory, or the --root of a CLI run). */
  root: string;
  /** $MEWBO_HOME: configs and keys, sessions, state, the TLS key, device records. */
  homeDir: string;
  /** The app's install (package root); null when unknown. */
  installRoot: string | null;
  /** Directories that must stay reachable: the running runtime's and the shell's. */
  protectedDirs: string[];
  /**
   * The session works in a git worktree: the checkout it was made from (and the projects in it)
   * is read-only instead of denied (worktree-grant.ts).
   */
  worktreeCheckout?: string;
}

export interface DenyList {
  /** Real paths denied for reading and writing. */
  denied: string[];
  /** Real paths granted whatever the denials say (the active project's allowed_paths). */
  readmitted: string[];
  /** Real paths readable and never writable, whatever the write scope (a worktree's checkout). */
  readOnly?: string[];
  /** Real path of the session root; always reachable. */
  root: string;
  /** Key of the configured project the root belongs to, or null. */
  activeProject: string | null;
  warnings: string[];
}

/** The configured project whose directory holds `realRoot` (the deepest one), if any. */
function activeProjectOf(config: AppConfig, realRoot: string): string | null {
  let best: { key: string; depth: number } | null = null;
  for (const [key, project] of Object.entries(config.projects)) {
    const path = realPathLoose(project.path);
    if (isInside(path, realRoot) && (!best || path.length > best.depth))
      best = { key, depth: path.length };
  }
  return best?.key ?? null;
}

/**
 * Raw block devices, and the memory devices: a root shell could read any file's blocks off the
 * disk while every path rule held. Listed from /dev at spawn, so a device that appears later is
 * not granted either (it is under no rule).
 */
function rawDevices(): string[] {
  try {
    return readdirSync('/dev', { withFileTypes: true })
      .filter((e) => e.isBlockDevice() || ['mem', 'kmem', 'port'].includes(e.name))
      .map((e) => join('/dev', e.name));
  } catch {
    return [];
  }
}

export function buildDenyList(input: DenyInputs): DenyList {
  const { config } = input;
  const warnings: string[] = [];
  const root = realPathLoose(input.root);
  const activeProject = activeProjectOf(config, root);
  const protectedDirs = input.protectedDirs.map(realPathLoose);

  const checkout = input.worktreeCheckout ? realPathLoose(input.worktreeCheckout) : null;
  const requested: { path: string; source: string }[] = [];
  for (const [key, project] of Object.entries(config.projects)) {
    if (key === activeProject) continue;
    // The checkout of the session's worktree is read-only to it, not another project.
    if (checkout && isInside(checkout, realPathLoose(project.path))) continue;
    requested.push({ path: project.path, source: `project '${key}'` });
  }
  // Never optional: a shell that can write sessions/ rewrites a session's root, state/ pairs a
  // device, configs/ holds the keys.
  requested.push({ path: input.homeDir, source: "the app's state ($MEWBO_HOME)" });
  if (config.agent.harness_self_deny) {
    if (input.installRoot) {
      requested.push({ path: input.installRoot, source: "the app's install (harness_self_deny)" });
      // Packaged, the install is app.asar plus the files unpacked beside it.
      if (input.installRoot.endsWith('.asar')) {
        requested.push({
          path: `${input.installRoot}.unpacked`,
          source: "the app's install (harness_self_deny)",
        });
      }
    }
  }
  for (const path of config.agent.shell_denied_paths) {
    requested.push({ path, source: 'agent.shell_denied_paths' });
  }

  const denied = new Set<string>();
  for (const { path, source } of requested) {
    const real = realPathLoose(path);
    if (real === '/') {
      warnings.push(
        `sandbox: not denying / (from ${source}): it would leave the shell nothing to run`,
      );
      continue;
    }
    const guarded = protectedDirs.find((dir) => isInside(real, dir));
    if (guarded) {
      warnings.push(
        `sandbox: not denying ${real} (from ${source}): it holds ${guarded}, which the shell needs to run`,
      );
      continue;
    }
    denied.add(real);
  }
  for (const device of rawDevices()) denied.add(device);

  const project = activeProject ? config.projects[activeProject] : undefined;
  const readmitted = (project?.allowed_paths ?? []).map(realPathLoose);
  const readOnly = checkout && !denied.has(checkout) ? [checkout] : [];
  return { denied: [...denied].sort(), readmitted, readOnly, root, activeProject, warnings };
}
