import type { Client } from '../transport/transport';
import type { AppStores } from './app-stores';

/**
 * Makes `key` the sidebar's project and opens its most recent session (or none), so the open
 * conversation always belongs to the project the sidebar shows.
 */
export function showProject(
  stores: Pick<AppStores, 'sessions' | 'projects'>,
  key: string | null,
): void {
  stores.projects.getState().setCurrent(key);
  const { sessions, currentId, select } = stores.sessions.getState();
  const open = sessions.find((s) => s.id === currentId);
  if (open && open.project === key) return;
  select(sessions.find((s) => s.project === key)?.id ?? null);
}

/**
 * Opens the folder at `path` as a project (registered if it is new) and shows it: the picker's
 * "Open folder" and a folder dropped on the window.
 */
export async function openFolderAsProject(
  client: Client,
  stores: Pick<AppStores, 'sessions' | 'projects'>,
  path: string,
): Promise<void> {
  const r = await client.invoke('projects.openFolder', { path });
  await client.invoke('projects.open', { project: r.project.key });
  showProject(stores, r.project.key);
}
