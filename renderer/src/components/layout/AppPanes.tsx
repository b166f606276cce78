import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  Group,
  Panel,
  Separator,
  useDefaultLayout,
  useGroupRef,
  usePanelRef,
  type LayoutStorage,
} from 'react-resizable-panels';
import { NARROW_WINDOW_PX, useUi } from '../../state/ui-store';
import { paneStorage } from './pane-storage';
import {
  DOCK_COLLAPSED_PX,
  DOCK_MAX_SHARE,
  DOCK_MIN_PX,
  fitPanes,
  MAIN_MIN_PX,
  SIDEBAR_MAX_SHARE,
  SIDEBAR_MIN_PX,
  WIDE_DOCK_PERCENT,
  type PaneWants,
} from './pane-sizes';

// The window's three panes: sessions | conversation | activity dock. Splitters resize them (mouse
// or keyboard: focus a splitter, arrow keys), each side pane collapses (its button, Ctrl+B for
// the sidebar, or dragging it small), and the widths a person gives them are remembered per
// window. How wide each side pane is in a given window is pane-sizes.ts's fit: a change of the
// window's width re-fits them, and only a person's own drag changes what they want.

/**
 * Where the widths a person gave the side panes are remembered (pixels, in the panes' storage):
 * a window that shrank and grew again gives them back, and a reload keeps them.
 */
const SIDEBAR_PX_KEY = 'mewbo-panes:sidebar-px';
const DOCK_PX_KEY = 'mewbo-panes:dock-px';

function readPx(storage: LayoutStorage, key: string): number | null {
  const n = Number(storage.getItem(key) ?? NaN);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The width the panels share: the window's, less the splitters' (the panel library's 100%). */
function panesWidth(group: HTMLElement): number {
  let splitters = 0;
  for (const el of group.querySelectorAll('[data-separator]'))
    splitters += el.getBoundingClientRect().width;
  return group.clientWidth - splitters;
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
  const groupRef = useGroupRef();
  const storage = useMemo(() => paneStorage(sessionStorage, localStorage), []);
  const ids = dock ? ['sidebar', 'main', 'dock'] : ['sidebar', 'main'];
  const layout = useDefaultLayout({ id: 'mewbo-panes', panelIds: ids, storage });
  const narrow = window.innerWidth < NARROW_WINDOW_PX;
  const groupEl = useRef<HTMLDivElement>(null);
  const hasDock = dock !== null;
  /** The widths the person gave the side panes (null: the default for the window). */
  const chosen = useRef({
    sidebar: readPx(storage, SIDEBAR_PX_KEY),
    dock: readPx(storage, DOCK_PX_KEY),
  });
  // Read when a fit is made, not a reason for one: a dock that gains its first console keeps the
  // width that console was born at, and widens only with the window.
  const wide = useRef(wideDock);
  useEffect(() => {
    wide.current = wideDock;
  }, [wideDock]);
  const wants = useCallback(
    (dockState: PaneWants['dock']): PaneWants => ({
      sidebarOpen,
      sidebarPx: chosen.current.sidebar,
      dock: dockState,
      wideDock: wide.current,
      dockPx: chosen.current.dock,
    }),
    [sidebarOpen],
  );
  const dockState: PaneWants['dock'] = !hasDock ? 'none' : dockOpen ? 'open' : 'folded';

  // The fit, applied whenever the window's width, a pane's open state or the dock's presence
  // changes; the whole layout at once, so no pane is squeezed in between.
  useEffect(() => {
    const group = groupEl.current;
    if (!group) return;
    const apply = () => {
      const total = panesWidth(group);
      const handle = groupRef.current;
      if (!total || !handle) return;
      const fit = fitPanes(total, wants(dockState));
      const pct = (px: number) => (px / total) * 100;
      const next: Record<string, number> = {
        sidebar: pct(fit.sidebar),
        main: pct(total - fit.sidebar - fit.dock),
      };
      if (dockState !== 'none') next.dock = pct(fit.dock);
      try {
        handle.setLayout(next);
      } catch {
        // Not measured yet: the observer calls again once it is.
      }
    };
    let width = -1;
    const observer = new ResizeObserver(() => {
      if (group.clientWidth === width) return;
      width = group.clientWidth;
      apply();
    });
    observer.observe(group);
    apply();
    return () => observer.disconnect();
  }, [groupRef, wants, dockState]);

  useEffect(() => {
    const group = groupEl.current;
    if (wideDock || !onFutureDock || !group) return;
    const aside = () => group.querySelector<HTMLElement>('aside.dock:not(.collapsed)');
    const report = () => {
      const open = dockOpen ? aside() : null;
      if (open) return onFutureDock({ width: open.clientWidth, height: open.clientHeight });
      // Folded or not there yet: the width it will unfold to, as the fit gives it.
      const width = fitPanes(panesWidth(group), { ...wants('open'), wideDock: true }).dock;
      onFutureDock({ width, height: group.clientHeight });
    };
    const observer = new ResizeObserver(report);
    for (const el of [group, aside()]) if (el) observer.observe(el);
    report();
    return () => observer.disconnect();
  }, [hasDock, wideDock, onFutureDock, dockOpen, wants]);

  // What a person does with a splitter (a drag, or arrow keys on a focused one) is read once they
  // let go: the width they gave the pane is remembered, and a pane dragged shut (or open) says so.
  // Sizes the panel reports in between may be a fit or the other pane making way: not choices.
  const sidebarRef = usePanelRef();
  const dockRef = usePanelRef();
  const settle = useCallback(
    (pane: 'sidebar' | 'dock') => {
      const panel = (pane === 'sidebar' ? sidebarRef : dockRef).current;
      if (!panel) return;
      const collapsed = panel.isCollapsed();
      if (!collapsed) {
        chosen.current[pane] = panel.getSize().inPixels;
        storage.setItem(
          pane === 'sidebar' ? SIDEBAR_PX_KEY : DOCK_PX_KEY,
          String(chosen.current[pane]),
        );
      }
      const [open, setOpen] =
        pane === 'sidebar' ? [sidebarOpen, setSidebarOpen] : [dockOpen, setDockOpen];
      if (collapsed === open) setOpen(!collapsed);
    },
    [sidebarRef, dockRef, storage, sidebarOpen, setSidebarOpen, dockOpen, setDockOpen],
  );
  useEffect(() => {
    const group = groupEl.current;
    if (!group) return;
    const paneOf = (el: Element | null | undefined) =>
      el?.closest('[data-pane]')?.getAttribute('data-pane') as 'sidebar' | 'dock' | undefined;
    const keyUp = (e: KeyboardEvent) => {
      const pane = paneOf(e.target as Element | null);
      if (pane) settle(pane);
    };
    // Read before the panel library lets the splitter go; its last size lands a frame later.
    const pointerUp = () => {
      const pane = paneOf(group.querySelector('[data-pane][data-separator="active"]'));
      if (pane) requestAnimationFrame(() => settle(pane));
    };
    group.addEventListener('keyup', keyUp);
    window.addEventListener('pointerup', pointerUp, true);
    return () => {
      group.removeEventListener('keyup', keyUp);
      window.removeEventListener('pointerup', pointerUp, true);
    };
  }, [settle]);

  return (
    <Group
      id="mewbo-panes"
      elementRef={groupEl}
      groupRef={groupRef}
      className="app"
      orientation="horizontal"
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel
        id="sidebar"
        className="pane"
        collapsible
        collapsedSize={0}
        minSize={SIDEBAR_MIN_PX}
        maxSize={`${SIDEBAR_MAX_SHARE * 100}%`}
        defaultSize={narrow ? 200 : 248}
        groupResizeBehavior="preserve-pixel-size"
        panelRef={sidebarRef}
      >
        {sidebar}
      </Panel>
      <Separator className="splitter" data-pane="sidebar" aria-label="Resize the sessions pane" />
      <Panel id="main" className="pane" minSize={MAIN_MIN_PX}>
        {main}
      </Panel>
      {dock && (
        <>
          <Separator className="splitter" data-pane="dock" aria-label="Resize the activity dock" />
          <Panel
            id="dock"
            className="pane"
            collapsible
            collapsedSize={DOCK_COLLAPSED_PX}
            minSize={DOCK_MIN_PX}
            maxSize={`${DOCK_MAX_SHARE * 100}%`}
            defaultSize={!dockOpen ? DOCK_COLLAPSED_PX : wideDock ? `${WIDE_DOCK_PERCENT}%` : 280}
            groupResizeBehavior="preserve-pixel-size"
            panelRef={dockRef}
          >
            {dock}
          </Panel>
        </>
      )}
    </Group>
  );
}
