import { create } from 'zustand';
import type { ProjectEntry } from '../../../shared/protocol/commands/projects';

export type { ProjectEntry };

const CURRENT_KEY = 'mewbo.ui.project';

interface ProjectsState {
  projects: ProjectEntry[];
  /** Recently opened keys from the host, newest first (the picker's "Recent"). */
  recent: string[];
  /** The project the sidebar shows sessions of; null: sessions bound to no project. */
  current: string | null;
  /** The first listing arrived (the picker waits for it before acting on Enter). */
  loaded: boolean;
  setListing(projects: ProjectEntry[], recent: string[]): void;
  setCurrent(key: string | null): void;
}

function loadCurrent(): string | null {
  try {
    const v = JSON.parse(localStorage.getItem(CURRENT_KEY) ?? 'null') as unknown;
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

export const useProjects = create<ProjectsState>((set) => ({
  projects: [],
  recent: [],
  current: loadCurrent(),
  loaded: false,
  setListing: (projects, recent) => set({ projects, recent, loaded: true }),
  setCurrent: (current) => {
    set({ current });
    try {
      localStorage.setItem(CURRENT_KEY, JSON.stringify(current));
    } catch {}
  },
}));
