import { useEffect, useState, type FormEvent } from 'react';
import { useClient } from '../client-context';
import { useSessions } from '../state/sessions-store';
import { followSession } from '../state/session-sync';
import type { SessionEvent } from '../../../shared/protocol/events';

export function Conversation({ sessionId }: { sessionId: string }) {
  const client = useClient();
  const view = useSessions((s) => s.views[sessionId]);
  const [draft, setDraft] = useState('');

  useEffect(() => followSession(client, sessionId), [client, sessionId]);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    await client.invoke('sessions.send', { id: sessionId, text, capabilities: ['generative_ui', 'ask_user', 'approvals'] });
  };

  return (
    <section className="conversation" aria-label="Conversation">
      <ol className="timeline">
        {(view?.events ?? []).map((e) => (
          <EventRow key={e.seq} event={e} />
        ))}
        {Object.entries(view?.streaming ?? {}).map(([id, text]) => (
          <li key={id} className="msg assistant streaming">{text}</li>
        ))}
      </ol>
      <form className="composer" onSubmit={send}>
        <textarea aria-label="Message" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="Ask the agent…" />
        <button type="submit" className="primary">Send</button>
      </form>
    </section>
  );
}

function EventRow({ event }: { event: SessionEvent }) {
  switch (event.type) {
    case 'user_message':
      return <li className="msg user">{event.text}</li>;
    case 'assistant_message':
      return <li className="msg assistant">{event.text}</li>;
    case 'error':
      return <li className="msg error" role="alert">{event.message}</li>;
    default:
      return null;
  }
}
