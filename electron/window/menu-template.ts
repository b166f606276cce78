// The application menu as plain data (main.ts hands it to Menu.buildFromTemplate). Shortcuts the
// renderer owns (picker, settings, new session) are shown here but not registered here
// (registerAccelerator: false): the key press reaches the page, which handles it, and a click on
// the item sends the same key press, so keyboard and menu take one path.

export interface MenuItem {
  label?: string;
  role?: string;
  type?: 'separator' | 'submenu';
  accelerator?: string;
  registerAccelerator?: boolean;
  enabled?: boolean;
  visible?: boolean;
  click?: () => void;
  submenu?: MenuItem[];
}

export interface MenuActions {
  /** Sends the renderer a key press, e.g. { key: 'P', modifiers: ['control'] }. */
  sendShortcut(key: string): void;
  isMac: boolean;
  isPackaged: boolean;
}

/** A renderer shortcut: primary modifier + key, shown in the menu, delivered as that key press. */
function shortcut(label: string, key: string, a: MenuActions): MenuItem {
  return {
    label,
    accelerator: `CmdOrCtrl+${key}`,
    registerAccelerator: false,
    click: () => a.sendShortcut(key),
  };
}

export function menuTemplate(a: MenuActions): MenuItem[] {
  const sep: MenuItem = { type: 'separator' };
  const settings = shortcut('Settings…', ',', a);
  return [
    ...(a.isMac
      ? [
          {
            label: 'Mewbo',
            submenu: [
              { role: 'about' },
              sep,
              settings,
              sep,
              { role: 'hide' },
              { role: 'hideOthers' },
              sep,
              { role: 'quit' },
            ],
          },
        ]
      : []),
    {
      label: 'File',
      submenu: [
        shortcut('New Session', 'N', a),
        shortcut('Open Project…', 'P', a),
        ...(a.isMac ? [] : [sep, settings]),
        sep,
        a.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        sep,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        sep,
        { role: 'togglefullscreen' },
        ...(a.isPackaged ? [] : [sep, { role: 'reload' }, { role: 'toggleDevTools' }]),
      ],
    },
    {
      label: 'Window',
      submenu: [
        { role: 'minimize' },
        ...(a.isMac ? [{ role: 'zoom' }, sep, { role: 'front' }] : [{ role: 'close' }]),
      ],
    },
  ];
}
