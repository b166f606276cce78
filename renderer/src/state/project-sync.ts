import { useEffect } from 'react';
import type { Client } from '../transport/transport';
import { useProjectsStore } from './projects-store';

/** Keeps the project registry live: listed once, then again on every `projects` topic event. */
export function useProjectSync(client: Client): void {
  const projects = useProjectsStore();
  useEffect(() => {
    let stopped = false;
    const refresh = () =>
      client
        .invoke('projects.list', {})
        .then((r) => {
          if (!stopped) projects.getState().setListing(r.projects, r.recent);
        })
        .catch(() => {});
    const sub = client.subscribe('projects', undefined, () => void refresh());
    // Listed on every (re)connect: changes made while the socket was down never reached the topic.
    const offStatus = client.transport.onStatus((connected) => {
      if (connected) void refresh();
    });
    return () => {
      stopped = true;
      offStatus();
      sub.unsubscribe();
    };
  }, [client, projects]);
}
