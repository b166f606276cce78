import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadWindowState,
  restoreBounds,
  saveWindowState,
} from '../../../electron/window/window-state';
import { tempDir } from '../../helpers/temp';

const screen = { x: 0, y: 0, width: 1920, height: 1080 };

describe('window state', () => {
  it('reopens where it was when that place is still on a display', () => {
    expect(
      restoreBounds({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: false }, [
        screen,
      ]),
    ).toEqual({ x: 100, y: 50, width: 1200, height: 800 });
  });

  it('forgets a place on a display that is gone', () => {
    expect(
      restoreBounds({ bounds: { x: 2500, y: 100, width: 1200, height: 800 }, maximized: false }, [
        screen,
      ]),
    ).toBeNull();
  });

  it('shrinks and moves a window larger than the display onto it', () => {
    expect(
      restoreBounds({ bounds: { x: 1000, y: -40, width: 3000, height: 2000 }, maximized: true }, [
        screen,
      ]),
    ).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
  });

  it('round-trips through its file and ignores a damaged one', async () => {
    const t = tempDir('mewbo-win-');
    try {
      const file = join(t.dir, 'window.json');
      await saveWindowState(file, {
        bounds: { x: 1, y: 2, width: 900, height: 700 },
        maximized: true,
      });
      expect(loadWindowState(file)).toEqual({
        bounds: { x: 1, y: 2, width: 900, height: 700 },
        maximized: true,
      });
      writeFileSync(file, '{"bounds": {"x": "a"}');
      expect(loadWindowState(file)).toBeNull();
    } finally {
      t.cleanup();
    }
  });
});
