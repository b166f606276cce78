import type { ShellInfo } from '../../state/timeline-items';
import { useUi } from '../../state/ui-store';
import { ConsoleView } from './ConsoleView';

/** Tabs over the session's background shells, newest first; the chosen one is shown live. */
export function ConsoleDock({ sessionId, shells }: { sessionId: string; shells: ShellInfo[] }) {
  const active = useUi((s) => s.activeConsole);
  const setActive = useUi((s) => s.setActiveConsole);
  const ordered = [...shells].sort((a, b) => b.startedTs - a.startedTs);
  const shown = ordered.find((s) => s.shellId === active) ?? ordered[0];
  if (!shown) return null;
  return (
    <div className="console-dock">
      <div role="tablist" aria-label="Consoles" className="console-tabs">
        {ordered.map((s) => (
          <button
            key={s.shellId}
            type="button"
            role="tab"
            aria-selected={s.shellId === shown.shellId}
            className="console-tab"
            title={s.command}
            onClick={() => setActive(s.shellId)}
          >
            <span
              className={`run-dot ${s.state === 'running' ? 'running' : s.exitCode === 0 ? 'idle' : 'failed'}`}
              aria-hidden="true"
            />
            {s.command.length > 28 ? `${s.command.slice(0, 27)}…` : s.command}
          </button>
        ))}
      </div>
      <ConsoleView key={shown.shellId} sessionId={sessionId} shell={shown} />
    </div>
  );
}
