import { useEffect } from 'react';
import { useClient } from '../../client-context';
import { useSessions } from '../../state/sessions-store';
import { useProjects } from '../../state/projects-store';
import { followSession } from '../../state/session-sync';
import { Timeline } from '../timeline/Timeline';
import { SessionIdContext } from '../timeline/session-context';
import { Composer } from './Composer';
import { FindBar } from './FindBar';
import { FirstRunSetup } from './FirstRunSetup';
import { SessionHeader } from './SessionHeader';
import { TrustPrompt } from '../trust/TrustPrompt';

/** One open session: header, timeline, message box. */
export function Conversation({ sessionId }: { sessionId: string }) {
  const client = useClient();
  const view = useSessions((s) => s.views[sessionId]);
  const summary = useSessions((s) => s.sessions.find((x) => x.id === sessionId));

  useEffect(() => followSession(client, sessionId), [client, sessionId]);

  // When the open session moves to another project (the agent's switch_project), the sidebar
  // follows it there, so the session being worked on never drops out of the list.
  const project = view?.loaded ? view.model.project : undefined;
  useEffect(() => {
    if (project === undefined) return;
    if (useProjects.getState().current !== project) useProjects.getState().setCurrent(project);
  }, [project]);

  const pendingQuestion =
    view?.model.items.some((i) => i.kind === 'question' && i.state === 'pending') ?? false;
  return (
    <SessionIdContext.Provider value={sessionId}>
      <section className="conversation" aria-label="Session">
        {view && <SessionHeader id={sessionId} summary={summary} model={view.model} />}
        {view?.loaded && <TrustPrompt root={view.model.root} />}
        <FirstRunSetup compact={(view?.model.items.length ?? 0) > 0} />
        <div className="timeline-area">
          <FindBar sessionId={sessionId} />
          {view?.loaded ? (
            <Timeline view={view} />
          ) : (
            <div className="timeline-scroll loading" role="status">
              Opening session…
            </div>
          )}
        </div>
        <Composer sessionId={sessionId} pendingQuestion={pendingQuestion} />
      </section>
    </SessionIdContext.Provider>
  );
}
