import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ClientContext } from './client-context';
import { Client } from './transport/transport';
import { IpcTransport } from './transport/ipc-transport';
import { WsTransport } from './transport/ws-transport';
import './styles.css';

// Electron's preload provides window.mewbo; a browser (mewbo serve) speaks WebSocket instead.
const transport = window.mewbo ? new IpcTransport(window.mewbo) : WsTransport.fromLocation();
const client = new Client(transport);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ClientContext.Provider value={client}>
      <App />
    </ClientContext.Provider>
  </StrictMode>,
);
