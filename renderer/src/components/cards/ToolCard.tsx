import { memo, type ReactNode } from 'react';
import type { ToolItem } from '../../state/timeline-items';
import { useUi } from '../../state/ui-store';
import { formatDuration, oneLine } from '../../lib/format';
import { describeTool } from './describe-tool';
import { useCardOpen, useSessionId } from '../timeline/session-context';
import { useSessionView } from '../../state/session-views-context';
import { DiffLayoutToggle, DiffView } from './DiffView';
import { ErrorBody } from './ErrorBody';
import { GenericBody } from './GenericBody';
import { ReadBody } from './ReadBody';
import { ShellBody } from './ShellBody';

/** The status dot as a screen reader says it. */
const STATUS_WORD = {
  running: 'running',
  waiting: 'waiting for your approval',
  failed: 'failed',
  done: 'done',
} as const;

/** One tool call and its result as a card: a one-line header, a body that opens and closes. */
export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const d = describeTool(item);
  const [stored, setOpen] = useCardOpen(item.key);
  const open = stored ?? d.openByDefault;
  const failed = item.result?.kind === 'error' || d.unsuccessful === true;
  const status = !item.result
    ? item.awaitingApproval
      ? 'waiting'
      : 'running'
    : failed
      ? 'failed'
      : 'done';
  const duration = d.noDuration
    ? undefined
    : (d.durationMs ?? (item.endedTs ? item.endedTs - item.ts : undefined));
  const bodyId = `${item.key}-body`;

  return (
    <article
      className={`card tool ${status}`}
      aria-label={`${d.title}${d.subject ? ` ${d.subject}` : ''}`}
    >
      <header className="card-head">
        <button
          type="button"
          className="card-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
        >
          <span className={`status-dot ${status}`} aria-label={STATUS_WORD[status]} role="img" />
          <span className="card-title">{d.title}</span>
          {d.subject && <span className="card-subject">{d.subject}</span>}
          {d.meta && (
            <span className={d.unsuccessful ? 'card-meta bad' : 'card-meta'}>{d.meta}</span>
          )}
          {duration !== undefined && item.result && (
            <span className="card-meta">{formatDuration(duration)}</span>
          )}
          {!item.result &&
            (item.awaitingApproval ? (
              <span className="card-meta">waiting for your approval</span>
            ) : (
              <RunningMeta callId={item.callId} />
            ))}
        </button>
        {d.kind === 'diff' && open && <DiffLayoutToggle />}
      </header>
      {open && (
        <div className="card-body" id={bodyId}>
          <ToolBody item={item} kind={d.kind} open={open} />
        </div>
      )}
    </article>
  );
});

/**
 * "running…", or the call's live progress when its tool reports some (an MCP server's
 * notifications/progress): the only part of the card a progress update re-renders.
 */
function RunningMeta({ callId }: { callId: string }) {
  const p = useSessionView(useSessionId(), (v) => v.progress[callId]);
  if (!p) return <span className="card-meta">running…</span>;
  const amount =
    p.total !== null && p.total > 0
      ? `${Math.round((Math.min(p.progress, p.total) / p.total) * 100)}%`
      : String(p.progress);
  return (
    <span className="card-meta" role="status" aria-label="progress">
      {p.message ? `${p.message} · ${amount}` : amount}
    </span>
  );
}

function ToolBody({
  item,
  kind,
  open,
}: {
  item: ToolItem;
  kind: string;
  open: boolean;
}): ReactNode {
  const layout = useUi((s) => s.diffLayout);
  const r = item.result;
  if (r?.kind === 'error') return <ErrorBody payload={r} />;
  switch (kind) {
    case 'read':
      return r ? <ReadBody payload={r} /> : null;
    case 'diff':
      return r && typeof r.text === 'string' ? (
        <DiffView text={r.text} layout={layout} />
      ) : (
        <PendingArgs args={item.args} />
      );
    case 'shell':
      return <ShellBody payload={r} expanded={open} />;
    default:
      return <GenericBody args={item.args} result={r} />;
  }
}

function PendingArgs({ args }: { args: unknown }) {
  return <p className="muted small">{oneLine(args, 400)}</p>;
}
