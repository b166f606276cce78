import { useCallback, useEffect, useRef } from 'react';
import { useClient } from './client-context';
import { useSessions, useSessionsStore } from './state/sessions-store';
import { syncSessionList } from './state/session-sync';
import { useUi } from './state/ui-store';
import { useApplyTheme } from './theme';
import { isMac, isPrimary, shortcutLabel } from './lib/shortcuts';
import { COMPOSER_ID, keepFocusInApp } from './lib/focus';
import { SessionSidebar } from './components/sidebar/SessionSidebar';
import { Conversation } from './components/conversation/Conversation';
import { ActivityDock } from './components/dock/ActivityDock';
import { ProjectPicker } from './components/dialogs/ProjectPicker';
import { SettingsDialog } from './components/dialogs/SettingsDialog';
import { PairPhoneDialog } from './components/dialogs/PairPhoneDialog';
import { NewSessionDialog } from './components/dialogs/NewSessionDialog';
import { useProjectSync } from './state/project-sync';
import { useConsoleRegistry } from './consoles/console-context';
import { createSession } from './state/session-actions';
import { AppPanes } from './components/layout/AppPanes';
import { FolderDrop } from './components/layout/FolderDrop';
import { FirstRunSetup } from './components/conversation/FirstRunSetup';
import { useWaitingSignals } from './state/waiting-signals';
import { useFocusReport } from './lib/use-focus-report';
import type { Client } from './transport/transport';
import { measureConsole, type Box } from './consoles/console-size-probe';
import { useAppStores, useSessionView, useSessionViews } from './state/session-views-context';

/** App-wide shortcuts; the Electron menu sends the same key events, so there is one path. */
function useShortcuts(client: Client): void {
  const openDialog = useUi((s) => s.openDialog);
  const stores = useAppStores();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isPrimary(e, 'n')) {
        // A browser keeps Ctrl+N for itself; Electron delivers it (and the File menu sends it).
        e.preventDefault();
        void createSession(client, stores).catch((err: unknown) =>
          console.error('could not create a session', err),
        );
      } else if (isPrimary(e, 'p')) {
        e.preventDefault();
        openDialog('picker');
      } else if (isPrimary(e, ',')) {
        e.preventDefault();
        openDialog('settings');
      } else if (isPrimary(e, 'b')) {
        e.preventDefault();
        const ui = stores.ui.getState();
        ui.setSidebarOpen(!ui.sidebarOpen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [client, openDialog, stores]);
}

/**
 * Tells the host the size the open session's first console will have, so its first shell is born
 * at it (shells.resize without a shell id). Sent again only when the size changes. `box` is the
 * whole dock's: the console goes below the session's todos.
 */
function useFirstConsoleSize(client: Client, sessionId: string | null) {
  const sent = useRef<string | null>(null);
  const last = useRef<Box | null>(null);
  const todos = useSessionView(sessionId, (v) => v.todos);
  const report = useCallback(
    (box: Box | null) => {
      last.current = box;
      // Measured with the fonts the console will draw with: a measure taken while a font is
      // still loading gets another cell width (two columns off in a 60-column pane).
      void document.fonts.ready.then(() => {
        if (last.current !== box) return;
        const size = sessionId && box ? measureConsole(box, todos) : null;
        if (!sessionId || !size) return;
        const key = `${sessionId}:${size.cols}x${size.rows}`;
        if (sent.current === key) return;
        sent.current = key;
        client
          .invoke('shells.resize', { session_id: sessionId, ...size })
          .catch(() => (sent.current = null));
      });
    },
    [client, sessionId, todos],
  );
  // A font that finishes loading later changes the cell size: measure again.
  useEffect(() => {
    const again = () => report(last.current);
    document.fonts.addEventListener('loadingdone', again);
    return () => document.fonts.removeEventListener('loadingdone', again);
  }, [report]);
  return report;
}

export function App() {
  const client = useClient();
  const views = useSessionViews();
  const sessions = useSessionsStore();
  const currentId = useSessions((s) => s.currentId);
  const connected = useSessions((s) => s.connected);
  const dialog = useUi((s) => s.dialog);
  const closeDialog = useUi((s) => s.closeDialog);
  const theme = useApplyTheme();
  const consoles = useConsoleRegistry();
  useEffect(() => consoles.setTheme(theme), [consoles, theme]);
  useShortcuts(client);
  const onFutureDock = useFirstConsoleSize(client, currentId);
  useProjectSync(client);
  useEffect(() => keepFocusInApp(window), []);
  useWaitingSignals();
  useFocusReport(client);

  useEffect(() => {
    const offStatus = client.transport.onStatus((c) => sessions.getState().setConnected(c));
    const offList = syncSessionList(client, sessions, views);
    return () => {
      offStatus();
      offList();
    };
  }, [client, sessions, views]);

  // Whether the open session has a dock (todos or consoles), read from its projection.
  const dock = useSessionView(currentId, (v) => {
    if (v.todos === null && v.shells.length === 0) return 'none';
    return v.shells.length > 0 ? 'wide' : 'narrow';
  });

  return (
    <>
      <SkipLink />
      <AppPanes
        sidebar={<SessionSidebar />}
        main={
          <main className="main" tabIndex={-1}>
            <ShowSidebar />
            {!connected && (
              <div role="status" className="banner">
                Connecting to the host…
              </div>
            )}
            {currentId ? <Conversation key={currentId} sessionId={currentId} /> : <EmptyState />}
          </main>
        }
        dock={
          currentId && dock !== 'none' ? (
            <ActivityDock key={currentId} sessionId={currentId} />
          ) : null
        }
        wideDock={dock === 'wide'}
        onFutureDock={onFutureDock}
      />
      {dialog === 'picker' && <ProjectPicker onClose={closeDialog} />}
      {dialog === 'settings' && <SettingsDialog onClose={closeDialog} />}
      {dialog === 'pair' && <PairPhoneDialog onClose={closeDialog} />}
      {dialog === 'new-session' && <NewSessionDialog onClose={closeDialog} />}
      <FolderDrop />
    </>
  );
}

/**
 * The first Tab stop of the page, shown only while focused: past the session list straight to
 * the message box (or the conversation, when no session is open).
 */
function SkipLink() {
  return (
    <a
      href={`#${COMPOSER_ID}`}
      className="skip-link"
      onClick={(e) => {
        e.preventDefault();
        const target =
          document.getElementById(COMPOSER_ID) ?? document.querySelector<HTMLElement>('main');
        target?.focus();
      }}
    >
      Skip to the message box
    </a>
  );
}

/** With the sessions pane folded away, the way back (Ctrl+B does the same). */
function ShowSidebar() {
  const open = useUi((s) => s.sidebarOpen);
  const setOpen = useUi((s) => s.setSidebarOpen);
  if (open) return null;
  return (
    <button
      type="button"
      className="show-sidebar"
      aria-label="Show sessions"
      aria-keyshortcuts={isMac ? 'Meta+B' : 'Control+B'}
      title={`Show sessions (${shortcutLabel('B')})`}
      onClick={() => setOpen(true)}
    >
      ☰
    </button>
  );
}

function EmptyState() {
  return (
    <div className="empty-screen">
      <FirstRunSetup />
      <div className="empty">
        <h1>Mewbo</h1>
        <p>Create a session to start working with the agent, or open a project.</p>
      </div>
    </div>
  );
}
