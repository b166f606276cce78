import { useEffect } from 'react';
import type { Client } from '../transport/transport';
import { useProjects, type ProjectEntry } from './projects-store';

/** Keeps the project registry live: listed once, then again on every `projects` topic event. */
export function useProjectSync(client: Client): void {
  useEffect(() => {
    let stopped = false;
    const refresh = () =>
      client.transport
        .invoke('projects.list', {})
        .then((r) => {
          const { projects, recent } = r as { projects: ProjectEntry[]; recent: string[] };
          if (!stopped) useProjects.getState().setListing(projects, recent);
        })
        .catch(() => {});
    void refresh();
    const sub = client.subscribe('projects', undefined, () => void refresh());
    return () => {
      stopped = true;
      sub.unsubscribe();
    };
  }, [client]);
}
