import type { ProjectEntry } from '../../state/projects-store';
import { remotePlaceText } from '../../lib/remote-place';

export interface PickerOption {
  id: string;
  type:
    | 'project'
    | 'worktree'
    | 'none'
    | 'folder'
    | 'new-worktree'
    | 'directory'
    | 'connect-host'
    | 'remote-url';
  key?: string | null;
  label: string;
  detail: string;
  section: string;
  kindLabel?: string;
  current?: boolean;
  project?: ProjectEntry;
  /** A directory's absolute path (path completion). */
  path?: string;
}

/** Recent projects listed above the rest. */
const RECENT_SHOWN = 5;

const KIND_LABEL: Record<ProjectEntry['kind'], string | undefined> = {
  configured: undefined,
  managed: 'managed',
  worktree: 'worktree',
  repository: 'repository',
  remote: 'remote',
};

/** Where a project is, as the picker says it: a folder, a host and its folder, or no checkout. */
function whereOf(p: ProjectEntry): string {
  if (p.remote) return remotePlaceText(p.remote);
  return p.path ?? (p.repo ? `${p.repo} (no checkout)` : 'no checkout');
}

function toOption(p: ProjectEntry, section: string, current: string | null): PickerOption {
  const where = whereOf(p);
  return {
    id: `${section}:${p.key}`,
    type: p.kind === 'worktree' ? 'worktree' : 'project',
    key: p.key,
    label: p.name || p.key,
    detail: p.branch ? `${where} · ${p.branch}` : where,
    section,
    kindLabel: KIND_LABEL[p.kind],
    current: p.key === current,
    project: p,
  };
}

/**
 * The picker's list before any typing: recent projects, then every project with its worktrees
 * right under it, then "No project". Recency is the host's (projects.open marks a project opened).
 */
export function pickerOptions(
  projects: readonly ProjectEntry[],
  recentKeys: readonly string[],
  current: string | null,
): PickerOption[] {
  const byKey = new Map(projects.map((p) => [p.key, p]));
  const recent = recentKeys
    .map((k) => byKey.get(k))
    .filter((p): p is ProjectEntry => !!p)
    .slice(0, RECENT_SHOWN);

  const out: PickerOption[] = recent.map((p) => toOption(p, 'Recent', current));
  // Each project once: what Recent shows is not listed again (a search would find it twice).
  const shown = new Set(recent.map((p) => p.key));
  const worktrees = projects.filter((p) => p.kind === 'worktree');
  const rest = (p: ProjectEntry) => !shown.has(p.key);
  for (const p of projects) {
    if (p.kind === 'worktree' && p.parent && byKey.has(p.parent)) continue;
    if (rest(p)) out.push(toOption(p, 'Projects', current));
    for (const w of worktrees)
      if (w.parent === p.key && rest(w)) out.push(toOption(w, 'Projects', current));
  }
  out.push({
    id: 'none',
    type: 'none',
    key: null,
    label: 'No project',
    detail: 'sessions bound to no folder',
    section: 'Projects',
    current: current === null,
  });
  return out;
}

/** A branch name git accepts (the same rule projects.createWorktree checks). */
const BRANCH = /^[^\s~^:?*[\\]+$/;

/**
 * The picker's actions for what was typed: open it as a folder (an absolute path), add it as a
 * remote project (an ssh:// URL), make a git worktree of the current project on a branch of that
 * name; and always "Connect to host...".
 */
export function actionOptions(query: string, current: ProjectEntry | undefined): PickerOption[] {
  const q = query.trim();
  if (/^ssh:\/\//i.test(q))
    return [
      {
        id: 'remote-url',
        type: 'remote-url',
        label: `Add remote project ${q}`,
        detail: 'a folder on an SSH host',
        section: 'Actions',
      },
    ];
  const out: PickerOption[] = [
    {
      id: 'open-folder',
      type: 'folder',
      label: q.startsWith('/') ? `Open folder ${q}` : 'Open folder…',
      detail: q.startsWith('/') ? 'register it as a project' : 'type an absolute path',
      section: 'Actions',
    },
  ];
  if (q && !q.startsWith('/') && BRANCH.test(q) && current?.branch && current.path) {
    out.push({
      id: 'new-worktree',
      type: 'new-worktree',
      key: current.key,
      label: `New worktree of ${current.name} on branch ${q}`,
      detail: `git worktree add (from ${current.branch})`,
      section: 'Actions',
    });
  }
  // A path being typed is a local folder: its own action stays the last one, where ↑ finds it.
  if (!q.startsWith('/'))
    out.push({
      id: 'connect-host',
      type: 'connect-host',
      label: 'Connect to host…',
      detail: 'a folder on an SSH host',
      section: 'Actions',
    });
  return out;
}

/** The folders completing a typed path (projects.completeFolder), each one to open or go into. */
export function folderOptions(folders: readonly string[]): PickerOption[] {
  return folders.map((path) => ({
    id: `dir:${path}`,
    type: 'directory',
    label: `${path.slice(path.lastIndexOf('/') + 1)}/`,
    detail: path,
    section: 'Folders',
    path,
  }));
}
