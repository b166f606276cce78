import { useCallback, useRef, useState, type FormEvent } from 'react';
import { useClient } from '../../client-context';
import { useSessions, useSessionsStore } from '../../state/sessions-store';
import { errorText } from '../../state/agent-actions';
import type { SessionSummary } from '../../../../shared/protocol/session-summary';
import { formatAgo } from '../../lib/format';
import { DeleteSessionDialog } from './DeleteSessionDialog';
import { ExportDialog } from '../rewind/ExportDialog';
import { RowMenu } from './RowMenu';
import { pluralize } from '../../lib/format';
import type { SessionWorktree } from '../../../../shared/protocol/session-worktree';
import type { RemoteLinkState } from '../../../../shared/protocol/remote-link';
import { remotePlaceOfUrl } from '../../lib/remote-place';

/**
 * The run's state in a word where the row says when it was last active: a live or failed run is
 * the news (its time is now); a finished one says done beside its time; a fresh one, its time.
 */
function runWord(s: SessionSummary): string {
  if (s.run_state !== 'idle') return s.run_state;
  const ago = formatAgo(s.updated_at);
  return s.event_count > 1 ? `done · ${ago}` : ago;
}

/** A worktree session's branch and how many files it changed (as of its last pause). */
function WorktreeLine({ worktree }: { worktree: SessionWorktree }) {
  if (worktree.removed_at) return <span className="row-worktree muted">worktree discarded</span>;
  return (
    <span className="row-worktree">
      <span className="row-branch">⎇ {worktree.branch}</span>
      {worktree.changed_files !== undefined && (
        <span className="row-changed">{pluralize(worktree.changed_files, 'file')}</span>
      )}
    </span>
  );
}

/** A session on an SSH host: the host, and its link as the `remote` topic last said it. */
function RemoteLine({ url, state }: { url: string; state: RemoteLinkState }) {
  return (
    <span
      className="row-remote"
      aria-label={`on ${remotePlaceOfUrl(url).host}, ${state}`}
      // A narrow sidebar cuts the host: the whole URL on hover.
      title={url}
    >
      <span className="row-host">{remotePlaceOfUrl(url).host}</span>
      <span className={`chip link-state ${state}`}>{state}</span>
    </span>
  );
}

/**
 * One session in the sidebar: select, rename in place (F2), delete with a confirm (Delete), and
 * those and Export in its "⋯" menu (also Shift+F10 or a right click). One Tab stop: `tabbable`
 * is the list's one row in the tab order; Up/Down move between rows.
 */
export function SessionRow({
  session,
  active,
  tabbable,
  onSelect,
  snippet,
}: {
  session: SessionSummary;
  active: boolean;
  tabbable: boolean;
  onSelect: () => void;
  /** Where a search found the query in what was said. */
  snippet?: string;
}) {
  const client = useClient();
  const sessions = useSessionsStore();
  const link = useSessions((st) => st.links[session.id]);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [menu, setMenu] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback((refocus: boolean) => {
    setMenu(false);
    if (refocus) button.current?.focus();
  }, []);
  // Enter submits and the input's blur follows as it unmounts: one rename, not two.
  const committed = useRef(false);

  const startRename = () => {
    committed.current = false;
    setTitle(session.title);
    setRenaming(true);
  };
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (committed.current) return;
    committed.current = true;
    const t = title.trim();
    setRenaming(false);
    if (!t || t === session.title) return;
    try {
      // The answer carries the renamed summary; the sessions topic may announce the old title first.
      const r = await client.invoke('sessions.rename', { id: session.id, title: t });
      sessions.getState().upsertSession(r.session);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <li className={`session-row ${active ? 'active' : ''}`}>
      {renaming ? (
        <form onSubmit={rename} className="rename-form">
          <input
            aria-label="Session title"
            value={title}
            autoFocus
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            onBlur={rename}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                committed.current = true;
                setRenaming(false);
              }
            }}
          />
        </form>
      ) : (
        <button
          ref={button}
          type="button"
          className={active ? 'session active' : 'session'}
          aria-current={active ? 'page' : undefined}
          aria-keyshortcuts="F2 Delete Shift+F10"
          title={`${session.title}${session.worktree ? `\nbranch ${session.worktree.branch}` : ''}\nF2 rename · Delete · Shift+F10 more`}
          tabIndex={tabbable ? 0 : -1}
          onClick={onSelect}
          onDoubleClick={startRename}
          // A right click, Shift+F10 or the Menu key: the browser says contextmenu for each.
          onContextMenu={(e) => {
            e.preventDefault();
            setMenu(true);
          }}
          onKeyDown={(e) => {
            if (e.key === 'F2') startRename();
            if (e.key === 'Delete') setConfirmDelete(true);
          }}
        >
          <span className={`run-dot ${session.run_state}`} aria-hidden="true" />
          <span className="title">{session.title}</span>
          {session.run_state === 'waiting' ? (
            <span className="waiting-badge">
              {/* A narrow list shows "waiting": the title keeps room beside it on one line. */}
              waiting<span className="waiting-more"> for you</span>
            </span>
          ) : (
            <span className={`meta ${session.run_state}`}>{runWord(session)}</span>
          )}
          {session.worktree && <WorktreeLine worktree={session.worktree} />}
          {/* Not told of yet: no link has been opened for it in this run of the app. */}
          {session.remote && <RemoteLine url={session.remote} state={link ?? 'disconnected'} />}
          {snippet && <span className="snippet">{snippet}</span>}
        </button>
      )}
      {!renaming && (
        // Off the tab order: the row's keys (F2, Delete, Shift+F10) do what it does.
        <button
          type="button"
          className="icon row-more"
          aria-label={`More actions for ${session.title}`}
          aria-haspopup="menu"
          aria-expanded={menu}
          tabIndex={-1}
          title="More (Shift+F10)"
          onClick={() => setMenu(!menu)}
        >
          ⋯
        </button>
      )}
      {menu && (
        <RowMenu
          label={`Actions for ${session.title}`}
          onClose={closeMenu}
          items={[
            { label: 'Rename', shortcut: 'F2', run: startRename },
            { label: 'Export…', run: () => setExporting(true) },
            { label: 'Delete…', shortcut: 'Del', danger: true, run: () => setConfirmDelete(true) },
          ]}
        />
      )}
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
      {exporting && (
        <ExportDialog
          sessionId={session.id}
          title={session.title}
          onClose={() => setExporting(false)}
        />
      )}
      {confirmDelete && (
        <DeleteSessionDialog session={session} onClose={() => setConfirmDelete(false)} />
      )}
    </li>
  );
}
