import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session as electronSession,
  shell,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
import {
  APP_CSP,
  APP_ENTRY_URL,
  APP_SCHEME,
  appResource,
  isAppUrl,
  isExternalUrl,
} from './window/app-origin';
import { trustedSender } from './window/ipc-sender';
import { IPC_CHANNEL } from './window/ipc-client';

// The Electron shell: one secure window, one validated IPC entry, the host in this process.
// Everything else lives in electron/host (Electron-free, tested under plain Node).

const RENDERER_DIR = join(__dirname, 'renderer');
/** Window moves and resizes settle for this long before the state file is written. */
const WINDOW_STATE_SAVE_MS = 500;

// app:// is a standard, secure scheme (its own origin, fetch works, not "insecure content"); it
// must be registered before the app is ready.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

/** Answers app://mewbo/... from the built renderer, with the window's CSP on every response. */
function serveAppProtocol(): void {
  protocol.handle(APP_SCHEME, async (req) => {
    const r = appResource(req.url, RENDERER_DIR);
    if (!r.ok) return new Response(null, { status: r.status });
    try {
      return new Response(await readFile(r.file), {
        headers: {
          'content-type': r.contentType,
          'content-security-policy': APP_CSP,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}

/** Every web contents: no new windows (links go to the system browser), no navigation away. */
function lockDown(wc: WebContents): void {
  wc.setWindowOpenHandler(({ url }) => {
    if (isExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const stay = (e: { preventDefault(): void }, url: string) => {
    if (isAppUrl(url)) return;
    e.preventDefault();
    if (isExternalUrl(url)) void shell.openExternal(url);
  };
  wc.on('will-navigate', stay);
  wc.on('will-redirect', stay);
  wc.on('will-attach-webview', (e) => e.preventDefault());
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
  rememberWindowState(win, stateFile);
  void win.loadURL(APP_ENTRY_URL);
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
  app.on('web-contents-created', (_e, wc) => lockDown(wc));
  serveAppProtocol();

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
          if (!wc.isDestroyed()) wc.send(IPC_CHANNEL, frame);
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

  // The one IPC entry: protocol frames (calls, subscriptions, acks) from the app's own page in
  // its main frame; RpcConnection validates each frame. Nothing else calls ipcMain.
  ipcMain.on(IPC_CHANNEL, (e, frame: unknown) => {
    if (trustedSender(e)) connectionFor(e.sender).receive(frame);
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
