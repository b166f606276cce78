import { useClient } from '../client-context';
import { useSessions } from '../state/sessions-store';

export function SessionSidebar() {
  const client = useClient();
  const sessions = useSessions((s) => s.sessions);
  const currentId = useSessions((s) => s.currentId);
  const select = useSessions((s) => s.select);

  const create = async () => {
    const { session } = await client.invoke('sessions.create', {});
    useSessions.getState().upsertSession(session);
    select(session.id);
  };

  return (
    <nav className="sidebar" aria-label="Sessions">
      <button type="button" className="primary" onClick={create}>
        New session
      </button>
      <ul className="session-list">
        {sessions.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              aria-current={s.id === currentId ? 'page' : undefined}
              className={s.id === currentId ? 'session active' : 'session'}
              onClick={() => select(s.id)}
            >
              <span className="title">{s.title}</span>
              <span className="meta">{s.run_state}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
