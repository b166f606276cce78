import { create } from 'zustand';

/** One project as the picker lists it (list_projects' shape: key, name, kind, availability). */
export interface ProjectEntry {
  key: string;
  name: string;
  kind: 'configured' | 'managed' | 'worktree' | 'repository';
  description: string;
  path: string | null;
  available: boolean;
  branch?: string | null;
  repo?: string | null;
  /** For a worktree: the key of the project it belongs to. */
  parent?: string | null;
  last_opened?: number | null;
}

const CURRENT_KEY = 'mewbo.ui.project';

interface ProjectsState {
  projects: ProjectEntry[];
  /** The project the sidebar shows sessions of; null: sessions bound to no project. */
  current: string | null;
  /** Keys most recently switched to, newest first (the picker's "Recent"). */
  recent: string[];
  setProjects(list: ProjectEntry[]): void;
  setCurrent(key: string | null): void;
}

const RECENT_MAX = 8;

function loadSaved(): { current: string | null; recent: string[] } {
  try {
    const raw = JSON.parse(localStorage.getItem(CURRENT_KEY) ?? '{}') as {
      current?: unknown;
      recent?: unknown;
    };
    return {
      current: typeof raw.current === 'string' ? raw.current : null,
      recent: Array.isArray(raw.recent)
        ? raw.recent.filter((k): k is string => typeof k === 'string').slice(0, RECENT_MAX)
        : [],
    };
  } catch {
    return { current: null, recent: [] };
  }
}

export const useProjects = create<ProjectsState>((set, get) => ({
  projects: [],
  ...loadSaved(),
  setProjects: (projects) => set({ projects }),
  setCurrent: (current) => {
    const recent = current
      ? [current, ...get().recent.filter((k) => k !== current)].slice(0, RECENT_MAX)
      : get().recent;
    set({ current, recent });
    try {
      localStorage.setItem(CURRENT_KEY, JSON.stringify({ current, recent }));
    } catch {}
  },
}));
