import { createFindStore, type FindStore } from './find-store';
import { createProjectsStore, type ProjectsStore } from './projects-store';
import { createSessionsStore, type SessionsStore } from './sessions-store';
import { SessionViews } from './session-view-store';
import { createUiStore, type UiStore } from './ui-store';

/**
 * Every store of one app instance: the app-wide ones and the per-session views. The renderer's
 * composition root makes one set and hands it down by context; a test makes its own, so no two
 * share state.
 */
export interface AppStores {
  sessions: SessionsStore;
  ui: UiStore;
  projects: ProjectsStore;
  find: FindStore;
  views: SessionViews;
}

export function createAppStores(): AppStores {
  return {
    sessions: createSessionsStore(),
    ui: createUiStore(),
    projects: createProjectsStore(),
    find: createFindStore(),
    views: new SessionViews(),
  };
}
