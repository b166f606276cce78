import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useAppStores } from './session-views-context';
import type { ProjectEntry } from '../../../shared/protocol/commands/projects';

export type { ProjectEntry };

const CURRENT_KEY = 'mewbo.ui.project';

export interface ProjectsState {
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

export type ProjectsStore = StoreApi<ProjectsState>;

/** The project registry and the sidebar's project; one per app instance. */
export function createProjectsStore(): ProjectsStore {
  return createStore<ProjectsState>()((set) => ({
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
}

/** The part of the app's projects state that `select` picks (re-renders when it changes). */
export function useProjects<T>(select: (s: ProjectsState) => T): T {
  return useStore(useAppStores().projects, select);
}

/** The app's projects store itself, for reads and writes outside render (handlers, effects). */
export function useProjectsStore(): ProjectsStore {
  return useAppStores().projects;
}

/** A project's name as the person knows it (never its internal key, "managed:…"); null: none. */
export function useProjectName(key: string | null | undefined): string | null {
  return useProjects((s) => (key ? (s.projects.find((p) => p.key === key)?.name ?? key) : null));
}
