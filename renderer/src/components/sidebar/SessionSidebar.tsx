import { useHostQuery } from '../../lib/use-host-query';
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import fuzzysort from 'fuzzysort';
import { useClient } from '../../client-context';
import { useSessions } from '../../state/sessions-store';
import { useProjects } from '../../state/projects-store';
import { useUi } from '../../state/ui-store';
import { useAppStores } from '../../state/session-views-context';
import { errorText } from '../../state/agent-actions';
import type { SessionSummary } from '../../../../shared/protocol/session-summary';
import { SessionRow } from './SessionRow';
import { shortcutLabel } from '../../lib/shortcuts';
import { createSession } from '../../state/session-actions';

/** A search waits this long after the last key before asking the host (a keystroke per request is waste). */
const SEARCH_PAUSE_MS = 200;

/** The sessions of the current project: new, search, rename, delete; the project picker above. */
export function SessionSidebar() {
  const client = useClient();
  const stores = useAppStores();
  const sessions = useSessions((s) => s.sessions);
  const listed = useSessions((s) => s.listed);
  const currentId = useSessions((s) => s.currentId);
  const select = useSessions((s) => s.select);
  const project = useProjects((s) => s.current);
  const projects = useProjects((s) => s.projects);
  const openDialog = useUi((s) => s.openDialog);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);

  const inProject = useMemo(
    () => sessions.filter((s) => s.project === project),
    [sessions, project],
  );
  // What was said in a session counts too: the host searches the logs (after a pause in typing).
  const [hits, setHits] = useState<{ query: string; snippets: Map<string, string> } | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (!q) return;
    let live = true;
    const timer = setTimeout(() => {
      client.invoke('sessions.search', { query: q }).then(
        (r) => {
          if (live) setHits({ query: q, snippets: new Map(r.hits.map((h) => [h.id, h.snippet])) });
        },
        () => {},
      );
    }, SEARCH_PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, query]);
  const snippets = hits && hits.query === query.trim() ? hits.snippets : null;
  const shown = useMemo(() => {
    if (!query.trim()) return inProject;
    const byTitle = fuzzysort
      .go(query, inProject, { key: 'title', threshold: 0.2 })
      .map((r) => r.obj);
    const titled = new Set(byTitle.map((s) => s.id));
    const bySaid = snippets ? inProject.filter((s) => snippets.has(s.id) && !titled.has(s.id)) : [];
    return [...byTitle, ...bySaid];
  }, [inProject, query, snippets]);
  const projectName = projects.find((p) => p.key === project)?.name ?? project ?? 'No project';

  const create = async () => {
    setError(null);
    try {
      await createSession(client, stores);
    } catch (err) {
      setError(errorText(err));
    }
  };

  // The list is one Tab stop (the open session's row, else the first); Up/Down, Home/End move
  // between sessions without leaving the keyboard.
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const moves: Record<string, (at: number, last: number) => number> = {
      ArrowDown: (at, last) => Math.min(last, at + 1),
      ArrowUp: (at) => Math.max(0, at - 1),
      Home: () => 0,
      End: (_at, last) => last,
    };
    const move = moves[e.key];
    const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button.session')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (!move || at === -1) return;
    buttons[move(at, buttons.length - 1)]?.focus();
    e.preventDefault();
  };
  const tabbableId = shown.some((s) => s.id === currentId) ? currentId : shown[0]?.id;

  return (
    <nav className="sidebar" aria-label="Sessions">
      <button
        type="button"
        className="project-button"
        onClick={() => openDialog('picker')}
        title={`Open project (${shortcutLabel('P')})`}
      >
        <span className="project-name">{projectName}</span>
        <kbd>{shortcutLabel('P')}</kbd>
      </button>
      <div className="sidebar-actions">
        <button
          type="button"
          className="primary"
          onClick={() => void create()}
          title={`New session (${shortcutLabel('N')})`}
        >
          New session
        </button>
        <button
          type="button"
          className="new-in-worktree"
          onClick={() => openDialog('new-session')}
          aria-label="New session: agent, worktree…"
          title="New session with choices: its agent (the app's or an external one), a new git worktree"
        >
          ⎇
        </button>
      </div>
      <input
        type="search"
        className="search"
        aria-label="Search sessions"
        placeholder="Search sessions"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {error && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
      {shown.length === 0 && !listed ? (
        // Emptiness is only said once the host's list is in (a reload showed "no sessions" beside
        // the open one): until then the list's room stays blank.
        <div className="empty-list" aria-busy="true" />
      ) : shown.length === 0 ? (
        <p className="muted small empty-list">
          {query ? 'No session matches.' : 'No sessions in this project yet.'}
        </p>
      ) : (
        <ul className="session-list" onKeyDown={onListKey}>
          {shown.map((s: SessionSummary) => (
            <SessionRow
              key={s.id}
              session={s}
              active={s.id === currentId}
              tabbable={s.id === tabbableId}
              snippet={query.trim() ? snippets?.get(s.id) : undefined}
              onSelect={() => select(s.id)}
            />
          ))}
        </ul>
      )}

      <div className="sidebar-foot">
        <ScreenControlIndicator onOpen={() => openDialog('pair')} />
        <button type="button" onClick={() => openDialog('pair')}>
          Pair phone
        </button>
        <button type="button" onClick={() => openDialog('settings')}>
          Settings
        </button>
      </div>
    </nav>
  );
}

/**
 * While any phone has screen control on, the sidebar says so (the agent may see or use that
 * phone's screen); a click opens the Pair phone dialog, where it is turned off.
 */
function ScreenControlIndicator({ onOpen }: { onOpen: () => void }) {
  const devices = useHostQuery('devices.list', {}, 'devices');
  const on = devices.data?.devices.filter((d) => d.screen_control) ?? [];
  if (!on.length) return null;
  return (
    <button
      type="button"
      className="screen-control-indicator"
      role="status"
      onClick={onOpen}
      title="The agent may see and use this phone's screen (each action asks first in ask mode). Click to turn it off."
    >
      Screen control on: {on.map((d) => d.name).join(', ')}
    </button>
  );
}
