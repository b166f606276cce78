import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import { App } from './App';
import { ClientContext } from './client-context';
import { Client } from './transport/transport';
import { IpcTransport } from './transport/ipc-transport';
import { WsTransport } from './transport/ws-transport';
import { ConsoleRegistry } from './consoles/console-registry';
import { ConsoleRegistryContext } from './consoles/console-context';
import { createAppStores } from './state/app-stores';
import { AppStoresContext } from './state/session-views-context';
import './styles/base.css';
import './styles/timeline.css';
import './styles/rewind.css';
import './styles/cards.css';
import './styles/dock.css';
import './styles/dialogs.css';
import './styles/usage.css';
import './styles/mention.css';
import './styles/find.css';
import './styles/folder-drop.css';
import './styles/review.css';

// The composition root of the renderer: one transport, one client, one console registry, one
// set of stores (app-wide and per-session).
// Electron's preload provides window.mewbo; a browser (mewbo serve) speaks WebSocket instead.
const transport = window.mewbo ? new IpcTransport(window.mewbo) : WsTransport.fromLocation();
const client = new Client(transport);
const consoles = new ConsoleRegistry(client);
const stores = createAppStores();
window.addEventListener('pagehide', () => consoles.dispose());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ClientContext.Provider value={client}>
      <ConsoleRegistryContext.Provider value={consoles}>
        <AppStoresContext.Provider value={stores}>
          <App />
        </AppStoresContext.Provider>
      </ConsoleRegistryContext.Provider>
    </ClientContext.Provider>
  </StrictMode>,
);
