import { readFileSync } from 'node:fs';
import { writeJsonAtomic } from '../host/store/atomic-json';

// The main window's size, place and maximized state, remembered across launches in
// $MEWBO_HOME/state/window.json. Electron-free: main.ts passes the displays' work areas in.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 };
/** Smaller than this and the sidebar, timeline and dock cannot all show. */
export const MIN_SIZE = { width: 760, height: 480 };
/** A window must keep this much of itself on a display to count as visible there. */
const MIN_VISIBLE_PX = 80;

export function loadWindowState(file: string): WindowState | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowState>;
    const b = raw.bounds;
    if (!b || ![b.x, b.y, b.width, b.height].every((n) => Number.isFinite(n))) return null;
    return {
      bounds: { x: b.x, y: b.y, width: b.width, height: b.height },
      maximized: raw.maximized === true,
    };
  } catch {
    return null;
  }
}

export function saveWindowState(file: string, state: WindowState): Promise<void> {
  return writeJsonAtomic(file, state);
}

function overlap(a: Rect, b: Rect): { w: number; h: number } {
  return {
    w: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    h: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * The bounds to open with: the saved ones if enough of the window lands on a display that exists
 * now (a monitor may have been unplugged), sized to fit it; otherwise none (the system centres it).
 */
export function restoreBounds(saved: WindowState | null, workAreas: readonly Rect[]): Rect | null {
  if (!saved) return null;
  const b = saved.bounds;
  const area = workAreas.find((w) => {
    const o = overlap(b, w);
    return o.w >= MIN_VISIBLE_PX && o.h >= MIN_VISIBLE_PX;
  });
  if (!area) return null;
  const width = Math.max(MIN_SIZE.width, Math.min(b.width, area.width));
  const height = Math.max(MIN_SIZE.height, Math.min(b.height, area.height));
  const x = Math.min(Math.max(b.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(b.y, area.y), area.y + area.height - height);
  return { x, y, width, height };
}
