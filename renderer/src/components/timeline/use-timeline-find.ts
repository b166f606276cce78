import { useEffect, useRef, type RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useFind } from '../../state/find-store';
import { clearFind, paintFind } from '../../lib/find-highlight';

/** Room kept between the current match and the edge of the list when it is scrolled to. */
const REVEAL_MARGIN_PX = 80;

/**
 * The timeline's side of Ctrl+F: scrolls the current match's row into view (the list is
 * virtualized, so the row may not exist until then), then the match itself within a tall row, and
 * keeps the highlights painted on whatever rows are drawn as the list scrolls and changes.
 */
export function useTimelineFind(
  scrollRef: RefObject<HTMLDivElement | null>,
  rowOfSeq: (seq: number) => number,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  unstick: () => void,
): void {
  const query = useFind((s) => s.query);
  const target = useFind((s) => s.target);
  const revealed = useRef(0);

  // A new target: bring its row to the middle of the list (it is drawn from then on).
  const rowIndex = target ? rowOfSeq(target.seq) : -1;
  useEffect(() => {
    if (!target || rowIndex < 0) return;
    unstick();
    virtualizer.scrollToIndex(rowIndex, { align: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target?.n, rowIndex]);

  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    if (!query) {
      clearFind();
      return;
    }
    let frame: number | undefined;
    const paint = () => {
      frame = undefined;
      const current = paintFind(scroller, query, target);
      // Once per move: the match itself into view (a long answer is taller than the list).
      if (!current || !target || revealed.current === target.n) return;
      const box = current.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if (box.top < view.top + REVEAL_MARGIN_PX || box.bottom > view.bottom - REVEAL_MARGIN_PX)
        scroller.scrollTop += box.top - view.top - view.height / 2;
      revealed.current = target.n;
    };
    const schedule = () => {
      frame ??= requestAnimationFrame(paint);
    };
    schedule();
    // Rows come and go as the list scrolls, and change as answers stream: paint them again.
    const mo = new MutationObserver(schedule);
    mo.observe(scroller, { childList: true, subtree: true, characterData: true });
    scroller.addEventListener('scroll', schedule, { passive: true });
    return () => {
      mo.disconnect();
      scroller.removeEventListener('scroll', schedule);
      if (frame !== undefined) cancelAnimationFrame(frame);
      clearFind();
    };
  }, [scrollRef, query, target]);
}
