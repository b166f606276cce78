import { useEffect } from 'react';
import { useClient } from './client-context';
import { useSessions } from './state/sessions-store';
import { syncSessionList } from './state/session-sync';
import { SessionSidebar } from './components/SessionSidebar';
import { Conversation } from './components/Conversation';

export function App() {
  const client = useClient();
  const currentId = useSessions((s) => s.currentId);
  const connected = useSessions((s) => s.connected);

  useEffect(() => {
    const offStatus = client.transport.onStatus((c) => useSessions.getState().setConnected(c));
    const offList = syncSessionList(client);
    return () => {
      offStatus();
      offList();
    };
  }, [client]);

  return (
    <div className="app">
      <SessionSidebar />
      <main className="main">
        {!connected && <div role="status" className="banner">Connecting to the host…</div>}
        {currentId ? <Conversation key={currentId} sessionId={currentId} /> : <EmptyState />}
      </main>
    </div>
  );
}

function EmptyState() {
  return (
    <div className="empty">
      <h1>Mewbo</h1>
      <p>Create a session to start working with the agent.</p>
    </div>
  );
}
