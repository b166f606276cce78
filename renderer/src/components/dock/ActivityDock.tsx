import { useEffect } from 'react';
import { useSessionView } from '../../state/session-views-context';
import { useUi } from '../../state/ui-store';
import { useConsoleRegistry } from '../../consoles/console-context';
import { TodoDock } from './TodoDock';
import { ConsoleDock } from '../consoles/ConsoleDock';

/** The right-hand dock of the open session: its todo list and its live consoles. */
export function ActivityDock({ sessionId }: { sessionId: string }) {
  const registry = useConsoleRegistry();
  const todos = useSessionView(sessionId, (v) => v.todos);
  const shells = useSessionView(sessionId, (v) => v.shells);
  const open = useUi((s) => s.dockOpen);
  const setOpen = useUi((s) => s.setDockOpen);

  // The session's terminals go when it closes; reopening replays their retained output.
  useEffect(() => registry.retain(sessionId), [registry, sessionId]);

  if (!todos && shells.length === 0) return null;
  if (!open) {
    return (
      <aside className="dock collapsed" aria-label="Activity">
        <button
          type="button"
          className="dock-toggle"
          onClick={() => setOpen(true)}
          aria-label="Show activity dock"
          title="Show todos and consoles"
        >
          ‹
        </button>
      </aside>
    );
  }
  return (
    <aside className="dock" aria-label="Activity">
      <button
        type="button"
        className="dock-toggle"
        onClick={() => setOpen(false)}
        aria-label="Hide activity dock"
        title="Hide"
      >
        ›
      </button>
      {todos && <TodoDock todos={todos} />}
      {shells.length > 0 && <ConsoleDock sessionId={sessionId} shells={shells} />}
    </aside>
  );
}
