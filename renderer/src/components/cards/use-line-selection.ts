import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { QuotedLine } from '../../../../shared/diff/review-comment';

// Picking lines of one file's diff to comment on, by mouse (press a line number, drag or
// Shift+click to extend) and by keyboard (the diff grid takes the focus: arrows move, Shift+arrows
// extend, Left/Right change sides when side by side, Enter comments, Escape lets go). A pick is
// one side of one file: side by side, the old and the new column are different lines.

/** `inline`: the one column; `old` / `new`: a column of the side-by-side layout. */
export type LineSide = 'inline' | 'old' | 'new';

export interface LinePick {
  side: LineSide;
  anchor: number;
  head: number;
}

export interface LineSelection {
  pick: LinePick | null;
  /** The line the keyboard is on (drawn as the grid's active cell). */
  cursor: { side: LineSide; index: number } | null;
  composing: boolean;
  /** The picked lines, in the diff's order. */
  lines: QuotedLine[];
  selected(side: LineSide, index: number): boolean;
  /** Handlers of a line number's cell: press to pick, drag or Shift+press to extend. */
  gutter(side: LineSide, index: number): { onMouseDown(e: MouseEvent): void; onMouseEnter(): void };
  onKeyDown(e: KeyboardEvent): void;
  onFocus(): void;
  /** The comment form is done (sent or cancelled): the pick goes, the cursor stays. */
  close(): void;
}

export function useLineSelection(
  lineAt: (side: LineSide, index: number) => QuotedLine | undefined,
  count: number,
  sides: readonly LineSide[],
): LineSelection {
  const [pick, setPick] = useState<LinePick | null>(null);
  const [cursor, setCursor] = useState<{ side: LineSide; index: number } | null>(null);
  const [composing, setComposing] = useState(false);
  const dragging = useRef(false);

  // A drag ends wherever the button is let go, inside the diff or not.
  useEffect(() => {
    const up = () => {
      if (!dragging.current) return;
      dragging.current = false;
      setComposing(true);
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, []);

  /** The next line of `side` from `from` going `step` (1 or -1), or `from` when there is none. */
  const nextLine = (side: LineSide, from: number, step: 1 | -1): number => {
    for (let i = from + step; i >= 0 && i < count; i += step) if (lineAt(side, i)) return i;
    return from;
  };
  const firstLine = (side: LineSide, from = 0): number | null => {
    for (let i = from; i < count; i++) if (lineAt(side, i)) return i;
    for (let i = Math.min(from, count) - 1; i >= 0; i--) if (lineAt(side, i)) return i;
    return null;
  };

  const lines: QuotedLine[] = [];
  if (pick) {
    const lo = Math.min(pick.anchor, pick.head);
    const hi = Math.max(pick.anchor, pick.head);
    for (let i = lo; i <= hi; i++) {
      const line = lineAt(pick.side, i);
      if (line) lines.push(line);
    }
  }

  const moveTo = (side: LineSide, index: number, extend: boolean) => {
    setComposing(false);
    setCursor({ side, index });
    if (extend && pick && pick.side === side) setPick({ ...pick, head: index });
    else if (extend && cursor && cursor.side === side)
      setPick({ side, anchor: cursor.index, head: index });
    else setPick(null);
  };

  return {
    pick,
    cursor,
    composing,
    lines,
    selected: (side, index) =>
      !!pick &&
      pick.side === side &&
      index >= Math.min(pick.anchor, pick.head) &&
      index <= Math.max(pick.anchor, pick.head) &&
      !!lineAt(side, index),
    gutter: (side, index) => ({
      onMouseDown(e) {
        if (e.button !== 0 || !lineAt(side, index)) return;
        e.preventDefault();
        const anchor = e.shiftKey && pick?.side === side ? pick.anchor : index;
        setPick({ side, anchor, head: index });
        setCursor({ side, index });
        setComposing(false);
        dragging.current = true;
      },
      onMouseEnter() {
        if (dragging.current && pick?.side === side && lineAt(side, index))
          setPick({ ...pick, head: index });
      },
    }),
    onFocus() {
      if (cursor) return;
      const index = firstLine(sides[0]!);
      if (index !== null) setCursor({ side: sides[0]!, index });
    },
    onKeyDown(e) {
      if (e.target !== e.currentTarget || !cursor) return;
      const { side, index } = cursor;
      switch (e.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          moveTo(side, nextLine(side, index, e.key === 'ArrowDown' ? 1 : -1), e.shiftKey);
          break;
        case 'Home':
        case 'End': {
          const to = e.key === 'Home' ? firstLine(side) : nextLine(side, count, -1);
          if (to !== null) moveTo(side, to, e.shiftKey);
          break;
        }
        case 'ArrowLeft':
        case 'ArrowRight': {
          const other =
            sides[
              (sides.indexOf(side) + (e.key === 'ArrowRight' ? 1 : -1) + sides.length) %
                sides.length
            ]!;
          const to = firstLine(other, index);
          if (other === side || to === null) return;
          setPick(null);
          setComposing(false);
          setCursor({ side: other, index: to });
          break;
        }
        case 'Enter':
          if (!pick) setPick({ side, anchor: index, head: index });
          setComposing(true);
          break;
        case 'Escape':
          if (!pick && !composing) return;
          setPick(null);
          setComposing(false);
          break;
        default:
          return;
      }
      e.preventDefault();
      e.stopPropagation();
    },
    close() {
      setPick(null);
      setComposing(false);
    },
  };
}
