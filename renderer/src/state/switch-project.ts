import { useProjects } from './projects-store';
import { useSessions } from './sessions-store';

/**
 * Makes `key` the sidebar's project and opens its most recent session (or none), so the open
 * conversation always belongs to the project the sidebar shows.
 */
export function showProject(key: string | null): void {
  useProjects.getState().setCurrent(key);
  const { sessions, currentId, select } = useSessions.getState();
  const open = sessions.find((s) => s.id === currentId);
  if (open && open.project === key) return;
  select(sessions.find((s) => s.project === key)?.id ?? null);
}
