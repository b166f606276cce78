import { useEffect } from 'react';
import { useClient } from '../../client-context';
import { useSessions } from '../../state/sessions-store';
import { useProjectsStore } from '../../state/projects-store';
import { followSession } from '../../state/session-sync';
import { useSessionView, useSessionViews } from '../../state/session-views-context';
import { Timeline } from '../timeline/Timeline';
import { SessionIdContext } from '../timeline/session-context';
import { Composer } from './Composer';
import { ConversationStart } from './ConversationStart';
import { FindBar } from './FindBar';
import { SessionHeader } from './SessionHeader';
import { TrustPrompt } from '../trust/TrustPrompt';
import { ReviewView } from '../review/ReviewView';
import { useUi } from '../../state/ui-store';

/** One open session: header, timeline, message box (which sets up a model when none is). */
export function Conversation({ sessionId }: { sessionId: string }) {
  const client = useClient();
  const views = useSessionViews();
  const projects = useProjectsStore();
  const loaded = useSessionView(sessionId, (v) => v.loaded);
  const root = useSessionView(sessionId, (v) => v.root);
  const hasItems = useSessionView(sessionId, (v) => v.hasItems);
  const pendingQuestion = useSessionView(sessionId, (v) => v.pendingQuestion);
  const summary = useSessions((s) => s.sessions.find((x) => x.id === sessionId));
  const reviewing = useUi((s) => s.reviewing === sessionId) && !!summary?.worktree;

  useEffect(() => followSession(client, views, sessionId), [client, views, sessionId]);

  // When the open session moves to another project (the agent's switch_project), the sidebar
  // follows it there, so the session being worked on never drops out of the list.
  const project = useSessionView(sessionId, (v) => (v.loaded ? v.project : undefined));
  useEffect(() => {
    if (project === undefined) return;
    if (projects.getState().current !== project) projects.getState().setCurrent(project);
  }, [project, projects]);

  return (
    <SessionIdContext.Provider value={sessionId}>
      <section className="conversation" aria-label="Session">
        <SessionHeader id={sessionId} summary={summary} />
        {/* A project on an SSH host is trusted by its URL: its root is a path on the host, which
            names another folder (or none) on this computer. */}
        {loaded && summary && <TrustPrompt root={summary.remote ?? root} />}
        {reviewing && summary?.worktree && (
          <ReviewView sessionId={sessionId} worktree={summary.worktree} remote={summary.remote} />
        )}
        <div className="timeline-area" hidden={reviewing}>
          <FindBar sessionId={sessionId} />
          {!loaded ? (
            <div className="timeline-scroll loading" role="status">
              Opening session…
            </div>
          ) : hasItems ? (
            <Timeline sessionId={sessionId} />
          ) : (
            <ConversationStart project={project ?? null} />
          )}
        </div>
        {!reviewing && <Composer sessionId={sessionId} pendingQuestion={pendingQuestion} />}
      </section>
    </SessionIdContext.Provider>
  );
}
