import { Fragment, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  parseUnifiedDiff,
  toSplitRows,
  type DiffFile,
  type DiffRow,
  type SplitRow,
} from '../../../../shared/diff/unified-diff';
import type { QuotedLine, ReviewComment } from '../../../../shared/diff/review-comment';
import { useUi, type DiffLayout } from '../../state/ui-store';
import { useLineSelection, type LineSelection, type LineSide } from './use-line-selection';
import { LineCommentForm } from './LineCommentForm';

/** Rows drawn before "Show all": keeps a whole-file rewrite from stalling the timeline. */
const ROWS_SHOWN = 400;

/**
 * A unified diff drawn inline (one column, +/-) or side by side (old | new). With `onComment`
 * (the Review), lines can be picked by mouse or keyboard and commented on.
 */
export function DiffView({
  text,
  layout,
  names = false,
  onComment,
}: {
  text: string;
  layout: DiffLayout;
  /** Name every file with its +/- counts (an approval); a one-file card names it in its header. */
  names?: boolean;
  onComment?: (comment: ReviewComment) => Promise<void>;
}) {
  const files = useMemo(() => parseUnifiedDiff(text), [text]);
  const [all, setAll] = useState(false);
  if (files.length === 0) return <p className="muted small">No changes.</p>;
  return (
    <div className="diff">
      {files.map((f, i) => (
        <DiffFileView
          // A new layout is a new grid: a pick made in one column set means nothing in the other.
          key={`${i}-${layout}`}
          file={f}
          layout={layout}
          limit={all ? Infinity : ROWS_SHOWN}
          showName={names || files.length > 1}
          onComment={onComment}
        />
      ))}
      {!all && files.some((f) => f.rows.length > ROWS_SHOWN) && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          Show the whole diff
        </button>
      )}
    </div>
  );
}

/** What a file's rows need to be picked and commented on (the Review's diff); absent elsewhere. */
interface Picking {
  sel: LineSelection;
  cellId: (side: LineSide, index: number) => string;
  /** The comment form, drawn under the row `index` when it ends the pick. */
  formAfter: (index: number) => ReactNode;
}

function DiffFileView({
  file,
  layout,
  limit,
  showName,
  onComment,
}: {
  file: DiffFile;
  layout: DiffLayout;
  limit: number;
  showName: boolean;
  onComment?: (comment: ReviewComment) => Promise<void>;
}) {
  const rows = useMemo(() => file.rows.slice(0, limit), [file, limit]);
  const split = useMemo(() => toSplitRows(rows), [rows]);
  const name = file.newPath ?? file.oldPath ?? '';
  const lineAt = (side: LineSide, i: number): QuotedLine | undefined => {
    const row = side === 'inline' ? rows[i] : side === 'old' ? split[i]?.left : split[i]?.right;
    return row && row.kind !== 'hunk' && row.kind !== 'meta' ? (row as QuotedLine) : undefined;
  };
  const sides: LineSide[] = layout === 'split' ? ['old', 'new'] : ['inline'];
  const sel = useLineSelection(lineAt, layout === 'split' ? split.length : rows.length, sides);
  const base = useId();
  const grid = useRef<HTMLTableElement>(null);
  const picking: Picking | undefined = onComment && {
    sel,
    cellId: (side, index) => `${base}-${side}-${index}`,
    formAfter: (index) =>
      sel.composing && sel.pick && index === Math.max(sel.pick.anchor, sel.pick.head) ? (
        <tr className="comment-row">
          <td colSpan={4}>
            <LineCommentForm
              path={name}
              lines={sel.lines}
              onSend={(comment) => onComment({ path: name, lines: sel.lines, comment })}
              onClose={() => {
                sel.close();
                grid.current?.focus();
              }}
            />
          </td>
        </tr>
      ) : null,
  };
  return (
    <div className="diff-file">
      {showName && (
        <div className="diff-file-name">
          {name} <span className="add">+{file.additions}</span>{' '}
          <span className="del">−{file.deletions}</span>
        </div>
      )}
      <table
        ref={grid}
        className={`diff-table ${layout}${picking ? ' pickable' : ''}`}
        {...(picking && {
          role: 'grid',
          tabIndex: 0,
          'aria-label': `Lines of ${name}: arrows move, Shift+arrows select, Enter comments`,
          'aria-multiselectable': true,
          'aria-activedescendant': sel.cursor
            ? picking.cellId(sel.cursor.side, sel.cursor.index)
            : undefined,
          onKeyDown: sel.onKeyDown,
          onFocus: sel.onFocus,
        })}
      >
        {/* Column widths come from here: with table-layout fixed, the first row (a hunk header spanning
            every column) would otherwise split the width evenly. */}
        {layout === 'split' ? (
          <colgroup>
            <col className="ln-col" />
            <col />
            <col className="ln-col" />
            <col />
          </colgroup>
        ) : (
          <colgroup>
            <col className="ln-col" />
            <col className="ln-col" />
            <col className="sign-col" />
            <col />
          </colgroup>
        )}
        <tbody>
          {layout === 'split' ? (
            <SplitRows split={split} picking={picking} />
          ) : (
            <InlineRows rows={rows} picking={picking} />
          )}
        </tbody>
      </table>
    </div>
  );
}

const SIGN: Record<DiffRow['kind'], string> = {
  add: '+',
  del: '−',
  context: ' ',
  hunk: '',
  meta: '',
};

/** A line's cell attributes when lines can be picked: its id, selected state, active cell. */
function pickAttrs(picking: Picking | undefined, side: LineSide, i: number, line: boolean) {
  if (!picking || !line) return {};
  const { sel } = picking;
  const active = sel.cursor?.side === side && sel.cursor.index === i;
  return {
    id: picking.cellId(side, i),
    'aria-selected': sel.selected(side, i),
    'data-active': active || undefined,
  };
}

/** A line number's cell: the handle lines are picked by, when they can be. */
function LineNo({
  n,
  cls,
  picking,
  side,
  i,
}: {
  n: number | undefined;
  cls: string;
  picking: Picking | undefined;
  side: LineSide;
  i: number;
}) {
  return (
    <td
      className={`ln ${cls}`}
      {...(picking && n !== undefined
        ? {
            ...picking.sel.gutter(side, i),
            title: 'Press to comment; drag or Shift+press for more lines',
          }
        : {})}
    >
      {n ?? ''}
    </td>
  );
}

function InlineRows({ rows, picking }: { rows: DiffRow[]; picking?: Picking }) {
  return (
    <>
      {rows.map((r, i) =>
        r.kind === 'hunk' || r.kind === 'meta' ? (
          <tr key={i} className={r.kind}>
            <td colSpan={4}>{r.text}</td>
          </tr>
        ) : (
          <Fragment key={i}>
            <tr className={`${r.kind}${picking?.sel.selected('inline', i) ? ' picked' : ''}`}>
              <LineNo n={r.oldLine} cls="" picking={picking} side="inline" i={i} />
              <LineNo n={r.newLine} cls="" picking={picking} side="inline" i={i} />
              <td className="sign" aria-hidden="true">
                {SIGN[r.kind]}
              </td>
              <td className="text" {...pickAttrs(picking, 'inline', i, true)}>
                {r.text}
              </td>
            </tr>
            {picking?.formAfter(i)}
          </Fragment>
        ),
      )}
    </>
  );
}

function SplitRows({ split, picking }: { split: SplitRow[]; picking?: Picking }) {
  const picked = (side: LineSide, i: number) => (picking?.sel.selected(side, i) ? ' picked' : '');
  return (
    <>
      {split.map((r, i) =>
        r.full ? (
          <tr key={i} className={r.full.kind}>
            <td colSpan={4}>{r.full.text}</td>
          </tr>
        ) : (
          <Fragment key={i}>
            <tr>
              <LineNo
                n={r.left?.oldLine}
                cls={(r.left?.kind ?? 'empty') + picked('old', i)}
                picking={picking}
                side="old"
                i={i}
              />
              <td
                className={`text ${r.left?.kind ?? 'empty'}${picked('old', i)}`}
                {...pickAttrs(picking, 'old', i, !!r.left)}
              >
                {r.left?.text ?? ''}
              </td>
              <LineNo
                n={r.right?.newLine}
                cls={(r.right?.kind ?? 'empty') + picked('new', i)}
                picking={picking}
                side="new"
                i={i}
              />
              <td
                className={`text ${r.right?.kind ?? 'empty'}${picked('new', i)}`}
                {...pickAttrs(picking, 'new', i, !!r.right)}
              >
                {r.right?.text ?? ''}
              </td>
            </tr>
            {picking?.formAfter(i)}
          </Fragment>
        ),
      )}
    </>
  );
}

/** Inline or side by side, for every diff on screen (a preference kept across sessions). */
export function DiffLayoutToggle() {
  const layout = useUi((s) => s.diffLayout);
  const setLayout = useUi((s) => s.setDiffLayout);
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button type="button" aria-pressed={layout === 'inline'} onClick={() => setLayout('inline')}>
        Inline
      </button>
      <button type="button" aria-pressed={layout === 'split'} onClick={() => setLayout('split')}>
        Side by side
      </button>
    </div>
  );
}
