import { useEffect } from 'react';
import type { Client } from '../transport/transport';
import { useProjects, type ProjectEntry } from './projects-store';

/** Keeps the project registry live: listed once, then refreshed on every `projects` topic event. */
export function useProjectSync(client: Client): void {
  useEffect(() => {
    let stopped = false;
    const refresh = () =>
      client.transport
        .invoke('projects.list', {})
        .then((r) => {
          if (!stopped)
            useProjects.getState().setProjects((r as { projects: ProjectEntry[] }).projects);
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
