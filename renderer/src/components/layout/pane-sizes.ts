import { NARROW_WINDOW_PX } from '../../state/ui-store';

// How wide the window's three panes are: the sizes the panes may take, and the fit of the side
// panes to a window width. A side pane has a width the person chose (by dragging its splitter or
// with the keyboard) or, until they do, a default for the window; the window only lends and takes
// back room: a smaller window narrows the dock first, then the sessions pane, down to their
// minimums, so the conversation keeps a readable column; a larger one gives them back the width
// they had. Nothing a window does is remembered as a choice.

/** Pixels: narrower than this, a session list or dock stops being useful, so it collapses. */
export const SIDEBAR_MIN_PX = 160;
export const DOCK_MIN_PX = 220;
/** The collapsed dock keeps a strip for its "show" button. */
export const DOCK_COLLAPSED_PX = 28;
/** The conversation never gets narrower than a readable column. */
export const MAIN_MIN_PX = 360;
/** The side panes' largest share of the window (their Panels' maxSize). */
export const SIDEBAR_MAX_SHARE = 0.4;
export const DOCK_MAX_SHARE = 0.6;
/** Default sessions pane: a little narrower in a small window, where the conversation needs it. */
const SIDEBAR_DEFAULT_PX = 248;
const SIDEBAR_NARROW_DEFAULT_PX = 200;
/** Default dock: a todo list needs a column; consoles need room for their lines. */
const DOCK_TODOS_DEFAULT_PX = 280;
export const WIDE_DOCK_PERCENT = 38;

export interface PaneWants {
  sidebarOpen: boolean;
  /** The width the person gave the sessions pane, or null for the default. */
  sidebarPx: number | null;
  dock: 'none' | 'folded' | 'open';
  /** The dock shows consoles (its default is wider). */
  wideDock: boolean;
  /** The width the person gave the dock, or null for the default. */
  dockPx: number | null;
}

export interface PaneFit {
  sidebar: number;
  dock: number;
}

/** The side panes' widths in a window `total` pixels wide. */
export function fitPanes(total: number, w: PaneWants): PaneFit {
  const clamp = (px: number, min: number, share: number) =>
    Math.max(min, Math.min(px, total * share));
  let sidebar = w.sidebarOpen
    ? clamp(
        w.sidebarPx ?? (total < NARROW_WINDOW_PX ? SIDEBAR_NARROW_DEFAULT_PX : SIDEBAR_DEFAULT_PX),
        SIDEBAR_MIN_PX,
        SIDEBAR_MAX_SHARE,
      )
    : 0;
  let dock =
    w.dock === 'open'
      ? clamp(
          w.dockPx ?? (w.wideDock ? (total * WIDE_DOCK_PERCENT) / 100 : DOCK_TODOS_DEFAULT_PX),
          DOCK_MIN_PX,
          DOCK_MAX_SHARE,
        )
      : w.dock === 'folded'
        ? DOCK_COLLAPSED_PX
        : 0;
  // Short of room, the dock gives first (down to its minimum), then the sessions pane.
  let over = sidebar + dock + MAIN_MIN_PX - total;
  if (over > 0 && w.dock === 'open') {
    const give = Math.min(over, dock - DOCK_MIN_PX);
    dock -= give;
    over -= give;
  }
  if (over > 0 && w.sidebarOpen) sidebar -= Math.min(over, sidebar - SIDEBAR_MIN_PX);
  return { sidebar, dock };
}
