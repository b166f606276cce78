import { useEffect } from 'react';
import { useSessions } from '../../state/sessions-store';
import { useUi } from '../../state/ui-store';
import { useConsoleRegistry } from '../../consoles/console-context';
import { TodoDock } from './TodoDock';
import { ConsoleDock } from '../consoles/ConsoleDock';

/** The right-hand dock of the open session: its todo list and its live consoles. */
export function ActivityDock({ sessionId }: { sessionId: string }) {
  const registry = useConsoleRegistry();
  const version = useSessions((s) => s.views[sessionId]?.version ?? 0);
  const model = useSessions.getState().views[sessionId]?.model;
  const open = useUi((s) => s.dockOpen);
  const setOpen = useUi((s) => s.setDockOpen);

  // The session's terminals go when it closes; reopening replays their retained output.
  useEffect(() => registry.retain(sessionId), [registry, sessionId]);

  const todos = model?.todos ?? null;
  const shells = model ? [...model.shells.values()] : [];
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
    <aside className="dock" aria-label="Activity" data-version={version}>
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
