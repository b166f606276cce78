import { useEffect } from 'react';
import { useClient } from './client-context';
import { useSessions } from './state/sessions-store';
import { syncSessionList } from './state/session-sync';
import { useUi } from './state/ui-store';
import { useApplyTheme } from './theme';
import { isMac, isPrimary, shortcutLabel } from './lib/shortcuts';
import { keepFocusInApp } from './lib/focus';
import { SessionSidebar } from './components/sidebar/SessionSidebar';
import { Conversation } from './components/conversation/Conversation';
import { ActivityDock } from './components/dock/ActivityDock';
import { ProjectPicker } from './components/dialogs/ProjectPicker';
import { SettingsDialog } from './components/dialogs/SettingsDialog';
import { PairPhoneDialog } from './components/dialogs/PairPhoneDialog';
import { useProjectSync } from './state/project-sync';
import { useConsoleRegistry } from './consoles/console-context';
import { createSession } from './state/session-actions';
import { AppPanes } from './components/layout/AppPanes';
import { FolderDrop } from './components/layout/FolderDrop';
import { FirstRunSetup } from './components/conversation/FirstRunSetup';
import { useWaitingSignals } from './state/waiting-signals';
import { useFocusReport } from './lib/use-focus-report';
import type { Client } from './transport/transport';

/** App-wide shortcuts; the Electron menu sends the same key events, so there is one path. */
function useShortcuts(client: Client): void {
  const openDialog = useUi((s) => s.openDialog);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isPrimary(e, 'n')) {
        // A browser keeps Ctrl+N for itself; Electron delivers it (and the File menu sends it).
        e.preventDefault();
        void createSession(client).catch((err: unknown) =>
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
        const ui = useUi.getState();
        ui.setSidebarOpen(!ui.sidebarOpen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [client, openDialog]);
}

export function App() {
  const client = useClient();
  const currentId = useSessions((s) => s.currentId);
  const connected = useSessions((s) => s.connected);
  const dialog = useUi((s) => s.dialog);
  const closeDialog = useUi((s) => s.closeDialog);
  const theme = useApplyTheme();
  const consoles = useConsoleRegistry();
  useEffect(() => consoles.setTheme(theme), [consoles, theme]);
  useShortcuts(client);
  useProjectSync(client);
  useEffect(() => keepFocusInApp(window), []);
  useWaitingSignals();
  useFocusReport(client);

  useEffect(() => {
    const offStatus = client.transport.onStatus((c) => useSessions.getState().setConnected(c));
    const offList = syncSessionList(client);
    return () => {
      offStatus();
      offList();
    };
  }, [client]);

  // Whether the open session has a dock (todos or consoles), read from its projection.
  const dock = useSessions((s) => {
    const m = currentId ? s.views[currentId]?.model : undefined;
    if (!m || (m.todos === null && m.shells.size === 0)) return 'none';
    return m.shells.size > 0 ? 'wide' : 'narrow';
  });

  return (
    <>
      <AppPanes
        sidebar={<SessionSidebar />}
        main={
          <main className="main">
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
      />
      {dialog === 'picker' && <ProjectPicker onClose={closeDialog} />}
      {dialog === 'settings' && <SettingsDialog onClose={closeDialog} />}
      {dialog === 'pair' && <PairPhoneDialog onClose={closeDialog} />}
      <FolderDrop />
    </>
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
