import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  safeStorage,
  screen,
  session as electronSession,
  shell,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Host } from './host/host';
import { homePaths } from './host/config/paths';
import { EncryptedSecretStore } from './host/secrets/encrypted-secret-store';
import { RpcConnection } from './host/rpc/connection';
import type { HostFrame } from '../shared/protocol/wire';
import {
  DEFAULT_SIZE,
  MIN_SIZE,
  loadWindowState,
  restoreBounds,
  saveWindowState,
  type WindowState,
} from './window/window-state';
import { menuTemplate } from './window/menu-template';

// The Electron shell: one secure window, one validated IPC entry, the host in this process.
// Everything else lives in electron/host (Electron-free, tested under plain Node).

const RENDERER_INDEX = join(__dirname, 'renderer', 'index.html');
const APP_ORIGIN_URL = pathToFileURL(RENDERER_INDEX).href;
/** Window moves and resizes settle for this long before the state file is written. */
const WINDOW_STATE_SAVE_MS = 500;

/** Only the app's own page in the main frame may talk to the host (VS Code's validated ipcMain). */
function trustedSender(e: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const frame = e.senderFrame;
  return !!frame && frame === e.sender.mainFrame && frame.url.split(/[?#]/)[0] === APP_ORIGIN_URL;
}

/** Links leave the app only for these schemes, and only to the system's browser or mail client. */
function isExternalUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}

function createWindow(stateFile: string): BrowserWindow {
  const saved = loadWindowState(stateFile);
  const bounds = restoreBounds(
    saved,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...(bounds ?? DEFAULT_SIZE),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Mewbo',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  win.once('ready-to-show', () => {
    if (saved?.maximized) win.maximize();
    win.show();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e, url) => {
    if (url.split(/[?#]/)[0] === APP_ORIGIN_URL) return;
    e.preventDefault();
    if (isExternalUrl(url)) void shell.openExternal(url);
  });
  rememberWindowState(win, stateFile);
  void win.loadFile(RENDERER_INDEX);
  return win;
}

/** Saves size, place and maximized state after moves settle and when the window closes. */
function rememberWindowState(win: BrowserWindow, file: string): void {
  let timer: NodeJS.Timeout | null = null;
  const snapshot = (): WindowState => ({
    bounds: win.getNormalBounds(),
    maximized: win.isMaximized(),
  });
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!win.isDestroyed()) void saveWindowState(file, snapshot()).catch(() => {});
    }, WINDOW_STATE_SAVE_MS);
  };
  win.on('resize', schedule);
  win.on('move', schedule);
  win.on('maximize', schedule);
  win.on('unmaximize', schedule);
  win.on('close', () => {
    if (timer) clearTimeout(timer);
    void saveWindowState(file, snapshot()).catch(() => {});
  });
}

function installMenu(getWindow: () => BrowserWindow | null): void {
  const isMac = process.platform === 'darwin';
  const template = menuTemplate({
    isMac,
    isPackaged: app.isPackaged,
    sendShortcut: (key) => {
      const wc = getWindow()?.webContents;
      if (!wc) return;
      // The same key press the renderer handles from the keyboard: one path for both.
      wc.sendInputEvent({ type: 'keyDown', keyCode: key, modifiers: [isMac ? 'meta' : 'control'] });
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template as MenuItemConstructorOptions[]));
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  electronSession.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );
  electronSession.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_e, wc) => {
    wc.on('will-attach-webview', (e) => e.preventDefault());
  });

  // API keys sealed by the OS keyring where it is available; otherwise the host's 0600 file.
  const secrets = safeStorage.isEncryptionAvailable()
    ? new EncryptedSecretStore(homePaths().secretsFile.replace(/\.json$/, '.sealed.json'), {
        encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
        decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
      })
    : undefined;
  const host = await Host.create({ distDir: __dirname, secrets });
  const connections = new Map<number, RpcConnection>();
  const connectionFor = (wc: WebContents): RpcConnection => {
    let conn = connections.get(wc.id);
    if (!conn) {
      const c = new RpcConnection(
        host.router,
        { clientId: `ipc-${wc.id}`, transport: 'ipc' },
        (frame: HostFrame) => {
          if (wc.isDestroyed()) return;
          if (frame.t === 'event') wc.send('mewbo:event', { sub: frame.sub, data: frame.data });
          else if (frame.t === 'sub_error')
            wc.send('mewbo:event', { sub: frame.sub, error: frame.error });
        },
      );
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
    if (!trustedSender(e))
      return { ok: false, error: { code: 'forbidden', message: 'untrusted sender' } };
    return host.router.invoke(String(method), params, {
      clientId: `ipc-${e.sender.id}`,
      transport: 'ipc',
    });
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

  const stateFile = join(host.paths.stateDir, 'window.json');
  let win = createWindow(stateFile);
  installMenu(() => (win.isDestroyed() ? null : win));
  app.on('second-instance', () => {
    if (win.isDestroyed()) win = createWindow(stateFile);
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
