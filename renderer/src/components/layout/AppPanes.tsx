import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  Group,
  Panel,
  Separator,
  useDefaultLayout,
  usePanelRef,
  type PanelImperativeHandle,
  type PanelSize,
} from 'react-resizable-panels';
import { NARROW_WINDOW_PX, useUi } from '../../state/ui-store';
import { paneStorage } from './pane-storage';

// The window's three panes: sessions | conversation | activity dock. Splitters resize them (mouse
// or keyboard: focus a splitter, arrow keys), each side pane collapses (its button, Ctrl+B for
// the sidebar, or dragging it small), and the sizes are remembered per window.

/** Pixels: narrower than this, a session list or dock stops being useful, so it collapses. */
const SIDEBAR_MIN_PX = 160;
const DOCK_MIN_PX = 220;
/** The collapsed dock keeps a strip for its "show" button. */
const DOCK_COLLAPSED_PX = 28;
/** The conversation never gets narrower than a readable column. */
const MAIN_MIN_PX = 360;

/**
 * Keeps a collapsible panel and the preference that says whether it is open in step. The panel's
 * imperative API throws until its group has measured it: a call that early is retried on the
 * next resize report (which the panel makes once measured).
 */
function useCollapse(
  ref: React.RefObject<PanelImperativeHandle | null>,
  open: boolean,
  present: boolean,
) {
  useEffect(() => {
    if (present) applyOpen(ref.current, open);
  }, [ref, open, present]);
}

function applyOpen(p: PanelImperativeHandle | null, open: boolean): void {
  try {
    if (open && p?.isCollapsed()) p.expand();
    if (!open && p && !p.isCollapsed()) p.collapse();
  } catch {
    // Not measured yet.
  }
}

/** A resize report: the user dragged the pane shut or open (the preference follows). */
function followDrag(
  size: PanelSize,
  collapsedPx: number,
  open: boolean,
  setOpen: (open: boolean) => void,
): void {
  const collapsed = size.inPixels <= collapsedPx + 1;
  if (collapsed === open) setOpen(!collapsed);
}

/** Percent of the window the wide dock starts at (its Panel's defaultSize). */
const WIDE_DOCK_PERCENT = 38;

/**
 * Where the dock's last open width is remembered (percent of the panes' width, in the panes'
 * storage): a fold saves the layout with the dock as its strip, and without this a later dock
 * would unfold to the default width instead of the one the user gave it.
 */
const DOCK_OPEN_KEY = 'mewbo-panes:dock-open';

/**
 * The box a wide dock would get if it appeared (or unfolded) now: the first remembered size (in
 * percent) that is not the folded strip, else the default, within the panes' limits.
 */
function futureDockBox(
  group: HTMLElement,
  rememberedPercents: (number | undefined)[],
  sidebarPx: number,
): { width: number; height: number } {
  const total = group.clientWidth;
  const remembered = rememberedPercents.find(
    (p) => p !== undefined && (total * p) / 100 > DOCK_COLLAPSED_PX + 1,
  );
  let width = (total * (remembered ?? WIDE_DOCK_PERCENT)) / 100;
  width = Math.min(width, total * 0.6, total - sidebarPx - MAIN_MIN_PX);
  return { width: Math.floor(Math.max(width, DOCK_MIN_PX)), height: group.clientHeight };
}

export function AppPanes({
  sidebar,
  main,
  dock,
  wideDock,
  onFutureDock,
}: {
  sidebar: ReactNode;
  main: ReactNode;
  /** null: the open session has no todos or consoles, so there is no dock pane. */
  dock: ReactNode | null;
  /** The dock shows consoles: it starts wider. */
  wideDock: boolean;
  /**
   * While the dock shows no console: the box of the dock a first console will be shown in (the
   * dock as it is, or the dock it will unfold to). The console goes below the dock's todos.
   */
  onFutureDock?: (box: { width: number; height: number } | null) => void;
}) {
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const setSidebarOpen = useUi((s) => s.setSidebarOpen);
  const dockOpen = useUi((s) => s.dockOpen);
  const setDockOpen = useUi((s) => s.setDockOpen);
  const sidebarRef = usePanelRef();
  const dockRef = usePanelRef();
  const storage = useMemo(() => paneStorage(sessionStorage, localStorage), []);
  const ids = dock ? ['sidebar', 'main', 'dock'] : ['sidebar', 'main'];
  const layout = useDefaultLayout({ id: 'mewbo-panes', panelIds: ids, storage });
  useCollapse(sidebarRef, sidebarOpen, true);
  const narrow = window.innerWidth < NARROW_WINDOW_PX;
  const future = useDefaultLayout({
    id: 'mewbo-panes',
    panelIds: ['sidebar', 'main', 'dock'],
    storage,
  });
  const groupEl = useRef<HTMLDivElement>(null);
  const rememberedDock = future.defaultLayout?.dock;
  const hasDock = dock !== null;
  /** The dock's width the last time it was open in this group (what unfolding returns to). */
  const openPx = useRef<number | null>(null);
  /** The width a folded dock was last said to unfold to (what its first console was sized for). */
  const unfoldPx = useRef<number | null>(null);
  useEffect(() => {
    if (!hasDock) openPx.current = null;
    const p = dockRef.current;
    if (!hasDock || !p) return;
    // A dock that has never been open here unfolds to the width its console was measured for
    // (else the panel library would give it its minimum: a 27-column console).
    if (dockOpen && openPx.current === null && unfoldPx.current !== null) {
      try {
        if (p.isCollapsed()) return p.resize(unfoldPx.current);
      } catch {
        // Not measured yet.
      }
    }
    applyOpen(p, dockOpen);
  }, [dockRef, dockOpen, hasDock]);
  useEffect(() => {
    const group = groupEl.current;
    if (wideDock || !onFutureDock || !group) return;
    const aside = () => group.querySelector<HTMLElement>('aside.dock:not(.collapsed)');
    const report = () => {
      const open = dockOpen ? aside() : null;
      if (open) return onFutureDock({ width: open.clientWidth, height: open.clientHeight });
      const sidebarPx = group.querySelector<HTMLElement>('[data-panel][id="sidebar"]')?.offsetWidth;
      const lastOpen = Number(storage.getItem(DOCK_OPEN_KEY) ?? undefined);
      const box = futureDockBox(group, [rememberedDock, lastOpen], sidebarPx ?? 0);
      if (!dockOpen) {
        box.width = openPx.current ?? box.width;
        unfoldPx.current = box.width;
      }
      onFutureDock(box);
    };
    const observer = new ResizeObserver(report);
    for (const el of [group, aside()]) if (el) observer.observe(el);
    report();
    return () => observer.disconnect();
  }, [hasDock, wideDock, onFutureDock, dockOpen, rememberedDock, storage]);

  return (
    <Group
      id="mewbo-panes"
      elementRef={groupEl}
      className="app"
      orientation="horizontal"
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel
        id="sidebar"
        panelRef={sidebarRef}
        className="pane"
        collapsible
        collapsedSize={0}
        minSize={SIDEBAR_MIN_PX}
        maxSize="40%"
        defaultSize={narrow ? 200 : 248}
        groupResizeBehavior="preserve-pixel-size"
        onResize={(size) => followDrag(size, 0, sidebarOpen, setSidebarOpen)}
      >
        {sidebar}
      </Panel>
      <Separator className="splitter" aria-label="Resize the sessions pane" />
      <Panel id="main" className="pane" minSize={MAIN_MIN_PX}>
        {main}
      </Panel>
      {dock && (
        <>
          <Separator className="splitter" aria-label="Resize the activity dock" />
          <Panel
            id="dock"
            panelRef={dockRef}
            className="pane"
            collapsible
            collapsedSize={DOCK_COLLAPSED_PX}
            minSize={DOCK_MIN_PX}
            maxSize="60%"
            defaultSize={!dockOpen ? DOCK_COLLAPSED_PX : wideDock ? '38%' : 280}
            groupResizeBehavior="preserve-pixel-size"
            onResize={(size) => {
              if (size.inPixels > DOCK_COLLAPSED_PX + 1) {
                openPx.current = size.inPixels;
                storage.setItem(DOCK_OPEN_KEY, String(size.asPercentage));
              }
              followDrag(size, DOCK_COLLAPSED_PX, dockOpen, setDockOpen);
            }}
          >
            {dock}
          </Panel>
        </>
      )}
    </Group>
  );
}
