import { createHash } from 'node:crypto';
import { basename, resolve, sep } from 'node:path';
import type { ProjectConfig } from '../config/schema';
import type { ProjectEntry, ProjectKind } from '../../../shared/protocol/commands/projects';
import { probeDir } from './disk';
import { repoFacts, repoSlug, type RepoFacts } from './git';
import { slugify, type RegistryState } from './registry-state';

interface Base {
  key: string;
  kind: Exclude<ProjectKind, 'worktree'>;
  name: string;
  description: string;
  path: string | null;
  url: string | null;
}

/** A worktree's key follows from its folder, so it is the same on every scan and every restart. */
export function worktreeKey(path: string): string {
  return `worktree:${slugify(basename(path))}-${createHash('sha1').update(resolve(path)).digest('hex').slice(0, 6)}`;
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/**
 * Every project entry, computed from the config, the stored state, the disk and git. Each folder is
 * probed with a deadline and each git call is killed at its timeout, all in parallel, so one dead
 * mount costs the scan a few seconds at most and never blocks it.
 */
export async function scanProjects(
  configured: Record<string, ProjectConfig>,
  state: RegistryState,
): Promise<ProjectEntry[]> {
  const bases: Base[] = [
    ...Object.entries(configured).map(([key, c]): Base => ({
      key,
      kind: 'configured',
      name: state.names[key] ?? c.name ?? key,
      description: c.description,
      path: resolve(c.path),
      url: null,
    })),
    ...state.managed.map((m): Base => ({
      key: `managed:${m.id}`,
      kind: 'managed',
      name: state.names[`managed:${m.id}`] ?? m.name,
      description: m.description,
      path: m.path,
      url: null,
    })),
    ...state.repositories.map((r): Base => ({
      key: `repo:${r.id}`,
      kind: 'repository',
      name: state.names[`repo:${r.id}`] ?? r.name,
      description: r.description,
      path: r.path,
      url: r.url,
    })),
  ];
  const probed = await Promise.all(
    bases.map(async (b) => {
      const present = b.path !== null && (await probeDir(b.path)) === 'present';
      const facts = present ? await repoFacts(b.path!) : null;
      return { b, present, facts };
    }),
  );
  const entries: ProjectEntry[] = [];
  const paths = new Set(bases.flatMap((b) => (b.path ? [b.path] : [])));
  const worktreeJobs: Promise<ProjectEntry | null>[] = [];
  for (const { b, present, facts } of probed) {
    const own = facts ? ownWorktree(facts, b.path!) : undefined;
    const slug = repoSlug(facts?.originUrl ?? b.url);
    entries.push({
      key: b.key,
      name: b.name,
      kind: b.kind,
      description: b.description,
      path: b.path,
      available: present,
      repo: slug,
      branch: own?.branch ?? null,
      parent: null,
      last_opened_at: state.opened[b.key] ?? null,
      remote: null,
    });
    for (const wt of facts?.worktrees ?? []) {
      const path = resolve(wt.path);
      if (wt.bare || wt === own || paths.has(path)) continue;
      paths.add(path);
      worktreeJobs.push(
        (async () => {
          const key = worktreeKey(path);
          const available = !wt.prunable && (await probeDir(path)) === 'present';
          const on = wt.branch
            ? `branch ${wt.branch}`
            : `detached at ${wt.head?.slice(0, 8) ?? 'unknown'}`;
          return {
            key,
            name: state.names[key] ?? basename(path),
            kind: 'worktree',
            description: `Git worktree of ${b.name} (${on})`,
            path,
            available,
            repo: slug,
            branch: wt.branch,
            parent: b.key,
            last_opened_at: state.opened[key] ?? null,
            remote: null,
          };
        })(),
      );
    }
  }
  for (const wt of await Promise.all(worktreeJobs)) if (wt) entries.push(wt);
  return entries;
}

/** The worktree holding `dir` (a project may be a subfolder of its repository). */
function ownWorktree(facts: RepoFacts, dir: string) {
  let best: RepoFacts['worktrees'][number] | undefined;
  for (const wt of facts.worktrees) {
    if (isInside(dir, resolve(wt.path)) && (!best || wt.path.length > best.path.length)) best = wt;
  }
  return best;
}
