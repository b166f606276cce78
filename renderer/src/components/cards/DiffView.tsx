import { useMemo, useState } from 'react';
import {
  parseUnifiedDiff,
  toSplitRows,
  type DiffFile,
  type DiffRow,
} from '../../../../shared/diff/unified-diff';
import { useUi, type DiffLayout } from '../../state/ui-store';

/** Rows drawn before "Show all": keeps a whole-file rewrite from stalling the timeline. */
const ROWS_SHOWN = 400;

/** A unified diff drawn inline (one column, +/-) or side by side (old | new). */
export function DiffView({
  text,
  layout,
  names = false,
}: {
  text: string;
  layout: DiffLayout;
  /** Name every file with its +/- counts (an approval); a one-file card names it in its header. */
  names?: boolean;
}) {
  const files = useMemo(() => parseUnifiedDiff(text), [text]);
  const [all, setAll] = useState(false);
  if (files.length === 0) return <p className="muted small">No changes.</p>;
  return (
    <div className="diff">
      {files.map((f, i) => (
        <DiffFileView
          key={i}
          file={f}
          layout={layout}
          limit={all ? Infinity : ROWS_SHOWN}
          showName={names || files.length > 1}
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

function DiffFileView({
  file,
  layout,
  limit,
  showName,
}: {
  file: DiffFile;
  layout: DiffLayout;
  limit: number;
  showName: boolean;
}) {
  const rows = file.rows.slice(0, limit);
  const name = file.newPath ?? file.oldPath ?? '';
  return (
    <div className="diff-file">
      {showName && (
        <div className="diff-file-name">
          {name} <span className="add">+{file.additions}</span>{' '}
          <span className="del">−{file.deletions}</span>
        </div>
      )}
      <table className={`diff-table ${layout}`}>
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
        <tbody>{layout === 'split' ? <SplitRows rows={rows} /> : <InlineRows rows={rows} />}</tbody>
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

function InlineRows({ rows }: { rows: DiffRow[] }) {
  return (
    <>
      {rows.map((r, i) =>
        r.kind === 'hunk' || r.kind === 'meta' ? (
          <tr key={i} className={r.kind}>
            <td colSpan={4}>{r.text}</td>
          </tr>
        ) : (
          <tr key={i} className={r.kind}>
            <td className="ln">{r.oldLine ?? ''}</td>
            <td className="ln">{r.newLine ?? ''}</td>
            <td className="sign" aria-hidden="true">
              {SIGN[r.kind]}
            </td>
            <td className="text">{r.text}</td>
          </tr>
        ),
      )}
    </>
  );
}

function SplitRows({ rows }: { rows: DiffRow[] }) {
  const split = useMemo(() => toSplitRows(rows), [rows]);
  return (
    <>
      {split.map((r, i) =>
        r.full ? (
          <tr key={i} className={r.full.kind}>
            <td colSpan={4}>{r.full.text}</td>
          </tr>
        ) : (
          <tr key={i}>
            <td className={`ln ${r.left?.kind ?? 'empty'}`}>{r.left?.oldLine ?? ''}</td>
            <td className={`text ${r.left?.kind ?? 'empty'}`}>{r.left?.text ?? ''}</td>
            <td className={`ln ${r.right?.kind ?? 'empty'}`}>{r.right?.newLine ?? ''}</td>
            <td className={`text ${r.right?.kind ?? 'empty'}`}>{r.right?.text ?? ''}</td>
          </tr>
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
