import { describe, expect, it } from 'vitest';
import { menuTemplate, type MenuItem } from '../../../electron/window/menu-template';

function all(items: MenuItem[]): MenuItem[] {
  return items.flatMap((i) => [i, ...all(i.submenu ?? [])]);
}

describe('application menu', () => {
  it('shows the renderer shortcuts without registering them, and a click sends the same key press', () => {
    const sent: string[] = [];
    const items = all(
      menuTemplate({ isMac: false, isPackaged: true, sendShortcut: (k) => sent.push(k) }),
    );
    const open = items.find((i) => i.label === 'Open Project…')!;
    expect(open).toMatchObject({ accelerator: 'CmdOrCtrl+P', registerAccelerator: false });
    open.click!();
    items.find((i) => i.label === 'New Session')!.click!();
    items.find((i) => i.label === 'Settings…')!.click!();
    expect(sent).toEqual(['P', 'N', ',']);
  });

  it('keeps developer tools out of a packaged build', () => {
    const roles = (packaged: boolean) =>
      all(menuTemplate({ isMac: false, isPackaged: packaged, sendShortcut: () => {} })).map(
        (i) => i.role,
      );
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
  });

  it('puts Settings in the app menu on macOS and in File elsewhere', () => {
    const top = (isMac: boolean) =>
      menuTemplate({ isMac, isPackaged: true, sendShortcut: () => {} });
    expect(top(true)[0]!.submenu!.some((i) => i.label === 'Settings…')).toBe(true);
    expect(
      top(false)
        .find((m) => m.label === 'File')!
        .submenu!.some((i) => i.label === 'Settings…'),
    ).toBe(true);
  });
});
