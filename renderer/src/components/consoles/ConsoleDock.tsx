import { useEffect, useState } from 'react';
import type { ShellInfo } from '../../state/timeline-items';
import type { ShellInfo as HostShell } from '../../../../shared/tools/shell-payload';
import { useUi } from '../../state/ui-store';
import { useClient } from '../../client-context';
import { ConsoleView } from './ConsoleView';
import { shellState } from './shell-state';

/**
 * The host's view of the session's shells, asked again whenever the log's view changes. Only an
 * answer to the current question counts, so a listing in flight never overrides a newer start.
 */
function useHostShells(sessionId: string, shells: ShellInfo[]): Map<string, HostShell> {
  const client = useClient();
  const key = shells.map((s) => `${s.shellId}:${s.state}`).join(',');
  const [answer, setAnswer] = useState<{ key: string; shells: HostShell[] } | null>(null);
  useEffect(() => {
    let live = true;
    client.invoke('shells.list', { session_id: sessionId }).then(
      (r) => live && setAnswer({ key, shells: r.shells }),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, key]);
  return new Map(answer?.key === key ? answer.shells.map((s) => [s.shell_id, s]) : []);
}

/** Tabs over the session's background shells, newest first; the chosen one is shown live. */
export function ConsoleDock({ sessionId, shells }: { sessionId: string; shells: ShellInfo[] }) {
  const active = useUi((s) => s.activeConsole);
  const setActive = useUi((s) => s.setActiveConsole);
  const host = useHostShells(sessionId, shells);
  const ordered = [...shells].sort((a, b) => b.startedTs - a.startedTs);
  const shown = ordered.find((s) => s.shellId === active) ?? ordered[0];
  if (!shown) return null;
  return (
    <div className="console-dock">
      <div role="tablist" aria-label="Consoles" className="console-tabs">
        {ordered.map((s) => {
          const state = shellState(s, host.get(s.shellId) ?? null);
          return (
            <button
              key={s.shellId}
              type="button"
              role="tab"
              aria-selected={s.shellId === shown.shellId}
              className="console-tab"
              title={`${s.command}\n${state.label}`}
              aria-label={`${s.command}, ${state.word}`}
              onClick={() => setActive(s.shellId)}
            >
              <span className={`run-dot ${state.dot}`} aria-hidden="true" />
              {s.command.length > 28 ? `${s.command.slice(0, 27)}…` : s.command}
            </button>
          );
        })}
      </div>
      <ConsoleView key={shown.shellId} sessionId={sessionId} shell={shown} />
    </div>
  );
}
