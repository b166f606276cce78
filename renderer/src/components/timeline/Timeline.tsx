import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useShallow } from 'zustand/react/shallow';
import type { AnswerInfo, TimelineItem } from '../../state/timeline-items';
import { AnswerBar } from './AnswerBar';
import { TimelineRow } from './TimelineRow';
import { AssistantText } from './SimpleRows';
import { useClient } from '../../client-context';
import { loadOlderEvents } from '../../state/session-sync';
import { useSessionView, useSessionViews } from '../../state/session-views-context';
import { useTimelineFind } from './use-timeline-find';
import { useFind } from '../../state/find-store';
import { useUi } from '../../state/ui-store';

/** Rows rendered beyond the viewport on each side: smooth scrolling without rendering thousands. */
const OVERSCAN_ROWS = 6;
/** Within this many pixels of the end counts as "at the end": new output keeps it in view. */
const STICK_SLACK_PX = 48;
/** Within this many pixels of the top, the page of older events loads (a session is paged). */
const LOAD_OLDER_PX = 600;
/** Room above the first row while the find bar (about 44 px, 8 px down) covers the list's top. */
const FIND_BAR_ROOM_PX = 64;

type Row =
  | { type: 'item'; item: TimelineItem }
  | { type: 'answer'; key: string; info: AnswerInfo }
  | { type: 'stream'; id: string }
  | { type: 'working' };

function estimate(row: Row | undefined): number {
  if (!row || row.type !== 'item') return 48;
  switch (row.item.kind) {
    case 'tool':
      return row.item.result?.kind === 'diff' ? 220 : 44;
    case 'question':
    case 'elicitation':
    case 'approval':
    case 'plan':
      return 240;
    case 'panel':
      return 200;
    default:
      return 56;
  }
}

/**
 * The conversation as a virtualized list: only the rows in view (plus a few) are in the DOM, so a
 * session of 10,000 events scrolls and streams like a short one. It follows the end while the
 * reader is there, and stays put once they scroll up.
 */
export function Timeline({ sessionId }: { sessionId: string }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [stick, setStick] = useState(true);
  const client = useClient();
  const views = useSessionViews();
  const findOpen = useFind((s) => s.open);
  // Each part this list draws, selected on its own: a streamed delta changes none of them (the
  // streaming row follows its own text), so the list and its other rows do not re-render.
  const items = useSessionView(sessionId, (v) => v.items);
  const answers = useSessionView(sessionId, (v) => v.answers);
  const streamingIds = useSessionView(
    sessionId,
    useShallow((v) => Object.keys(v.streaming)),
  );
  const running = useSessionView(sessionId, (v) => v.runState === 'running');
  const base = useSessionView(sessionId, (v) => v.base);
  // A message the person sends goes to the end: the conversation follows it there.
  const follow = useUi((s) => (s.follow?.sessionId === sessionId ? s.follow.n : 0));
  useEffect(() => {
    if (follow) setStick(true);
  }, [follow]);

  const rows = useMemo<Row[]>(() => {
    const out: Row[] = [];
    for (const item of items) {
      out.push({ type: 'item', item });
      const info = answers[item.key];
      if (info) out.push({ type: 'answer', key: `answer-${item.key}`, info });
    }
    for (const id of streamingIds) out.push({ type: 'stream', id });
    if (running && streamingIds.length === 0) out.push({ type: 'working' });
    return out;
  }, [items, answers, streamingIds, running]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(rows[i]),
    getItemKey: (i) => {
      const r = rows[i]!;
      if (r.type === 'item') return r.item.key;
      if (r.type === 'answer') return r.key;
      return r.type === 'stream' ? `stream-${r.id}` : 'working';
    },
    overscan: OVERSCAN_ROWS,
    // The find bar floats over the list's top: the first row can scroll out from under it.
    paddingStart: findOpen ? FIND_BAR_ROOM_PX : 12,
    paddingEnd: 16,
  });

  useTimelineFind(
    scrollRef,
    (seq) => rows.findIndex((r) => r.type === 'item' && r.item.seq === seq),
    virtualizer,
    () => setStick(false),
  );

  // Rows measured taller or shorter (a pane resized, a card opened, fonts loaded) change the total
  // height without adding a row: that, too, keeps the end in view while the reader is there.
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (stick && rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, total, stick, virtualizer]);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      if (stickRef.current && rowsRef.current)
        virtualizer.scrollToIndex(rowsRef.current - 1, { align: 'end' });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [virtualizer]);
  const stickRef = useRef(stick);
  const rowsRef = useRef(rows.length);
  useLayoutEffect(() => {
    stickRef.current = stick;
    rowsRef.current = rows.length;
  });

  // An older page lands above what the reader looks at: keep that row where it was on screen.
  const anchor = useRef<{ key: unknown; delta: number } | null>(null);
  useLayoutEffect(() => {
    const a = anchor.current;
    if (!a || stick) return;
    const m = virtualizer.measurementsCache.find((x) => x.key === a.key);
    if (m) virtualizer.scrollToOffset(m.start + a.delta);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [base]);

  // A window too short to scroll cannot be scrolled up to: fetch the page before it at once.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && base > 0 && el.scrollHeight <= el.clientHeight + LOAD_OLDER_PX)
      void loadOlderEvents(client, views, sessionId).catch(() => {});
  }, [client, views, sessionId, base, rows.length]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    setStick(el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_SLACK_PX);
    const first = virtualizer.getVirtualItems().find((v) => v.end > el.scrollTop);
    anchor.current = first ? { key: first.key, delta: el.scrollTop - first.start } : null;
    if (el.scrollTop < LOAD_OLDER_PX && base > 0)
      void loadOlderEvents(client, views, sessionId).catch(() => {});
  }, [client, views, sessionId, base, virtualizer]);

  return (
    <>
      <div className="timeline-scroll" ref={scrollRef} onScroll={onScroll}>
        <div
          role="log"
          aria-label="Conversation"
          className="timeline"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            return (
              <div
                key={v.key}
                data-index={v.index}
                data-seq={row.type === 'item' ? row.item.seq : undefined}
                ref={virtualizer.measureElement}
                className="tl-row"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                {row.type === 'item' ? (
                  <TimelineRow item={row.item} />
                ) : row.type === 'answer' ? (
                  <AnswerBar sessionId={sessionId} info={row.info} />
                ) : row.type === 'stream' ? (
                  <StreamingRow sessionId={sessionId} id={row.id} />
                ) : (
                  <div className="working" role="status">
                    <span className="spinner" aria-hidden="true" /> Working…
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {/* Below the list, not over it: a pill floating on the rows covered their headers. */}
      {!stick && (
        <div className="jump-bar">
          <button type="button" className="jump" onClick={() => setStick(true)}>
            Jump to latest ↓
          </button>
        </div>
      )}
    </>
  );
}

/** An answer streaming in: the one row a delta re-renders (it selects its own text). */
function StreamingRow({ sessionId, id }: { sessionId: string; id: string }) {
  const s = useSessionView(sessionId, (v) => v.streaming[id]);
  if (!s) return null;
  return <AssistantText text={s.text} agentId={s.agentId} thinking={s.thinking} streaming />;
}
