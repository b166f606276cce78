import { app, BrowserWindow, ipcMain, session as electronSession, shell, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Host } from './host/host';
import { RpcConnection } from './host/rpc/connection';
import type { HostFrame } from '../shared/protocol/wire';

// The Electron shell: one secure window, one validated IPC entry, the host in this process.
// Everything else lives in electron/host (Electron-free, tested under plain Node).

const RENDERER_INDEX = join(__dirname, 'renderer', 'index.html');
const APP_ORIGIN_URL = pathToFileURL(RENDERER_INDEX).href;

/** Only the app's own page in the main frame may talk to the host (VS Code's validated ipcMain). */
function trustedSender(e: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const frame = e.senderFrame;
  return !!frame && frame === e.sender.mainFrame && frame.url.split(/[?#]/)[0] === APP_ORIGIN_URL;
}

function isHttpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Mewbo',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isHttpUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e, url) => {
    if (url.split(/[?#]/)[0] !== APP_ORIGIN_URL) e.preventDefault();
  });
  void win.loadFile(RENDERER_INDEX);
  return win;
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  electronSession.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  const host = await Host.create();
  const connections = new Map<number, RpcConnection>();
  const connectionFor = (wc: WebContents): RpcConnection => {
    let conn = connections.get(wc.id);
    if (!conn) {
      const c = new RpcConnection(host.router, { clientId: `ipc-${wc.id}`, transport: 'ipc' }, (frame: HostFrame) => {
        if (wc.isDestroyed()) return;
        if (frame.t === 'event') wc.send('mewbo:event', { sub: frame.sub, data: frame.data });
        else if (frame.t === 'sub_error') wc.send('mewbo:event', { sub: frame.sub, error: frame.error });
      });
      connections.set(wc.id, c);
      wc.once('destroyed', () => {
        c.dispose();
        connections.delete(wc.id);
      });
      conn = c;
    }
    return conn;
  };

  ipcMain.handle('mewbo:invoke', (e, method: unknown, params: unknown) => {
    if (!trustedSender(e)) return { ok: false, error: { code: 'forbidden', message: 'untrusted sender' } };
    return host.router.invoke(String(method), params, { clientId: `ipc-${e.sender.id}`, transport: 'ipc' });
  });
  ipcMain.on('mewbo:subscribe', (e, sub: unknown, topic: unknown, cursor: unknown) => {
    if (!trustedSender(e)) return;
    connectionFor(e.sender).receive({ t: 'subscribe', sub, topic, cursor: cursor ?? undefined });
  });
  ipcMain.on('mewbo:unsubscribe', (e, sub: unknown) => {
    if (trustedSender(e)) connectionFor(e.sender).receive({ t: 'unsubscribe', sub });
  });
  ipcMain.on('mewbo:ack', (e, sub: unknown, n: unknown) => {
    if (trustedSender(e)) connectionFor(e.sender).receive({ t: 'ack', sub, n });
  });

  let win = createWindow();
  app.on('second-instance', () => {
    if (win.isDestroyed()) win = createWindow();
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  let disposed = false;
  app.on('will-quit', (e) => {
    if (disposed) return;
    e.preventDefault();
    disposed = true;
    for (const c of connections.values()) c.dispose();
    void Promise.resolve(host.dispose()).finally(() => app.exit(0));
  });
}

void start();
