import { memo, useState } from 'react';
import type { HookItem } from '../../state/timeline-items';

// One run of a user's hook: a small card with the event, the command and how it ended; its output
// one click away. A blocked call or prompt says so in its own words (the hook's stderr).

const OUTCOME: Record<HookItem['outcome'], { label: string; dot: string }> = {
  ok: { label: 'ran', dot: 'done' },
  blocked: { label: 'blocked', dot: 'failed' },
  failed: { label: 'failed', dot: 'failed' },
  timeout: { label: 'timed out, killed', dot: 'failed' },
};

export const HookCard = memo(function HookCard({ item }: { item: HookItem }) {
  const [open, setOpen] = useState(item.outcome === 'blocked');
  const o = OUTCOME[item.outcome];
  const output = [item.stderr, item.stdout].filter((s) => s.trim()).join('\n');
  return (
    <article className={`card hook ${item.outcome}`} aria-label={`Hook: ${item.event}`}>
      <header className="card-head">
        <button
          type="button"
          className="card-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <span className={`status-dot ${o.dot}`} aria-hidden="true" />
          <span className="card-title">
            {item.event} hook {o.label}
          </span>
          <span className="card-subject">{item.command}</span>
          <span className="card-meta">
            {item.toolName ? `${item.toolName} · ` : ''}
            {item.scope === 'project' ? 'project' : 'yours'} · exit {item.exitCode ?? '-'} ·{' '}
            {item.durationMs} ms
          </span>
        </button>
      </header>
      {open && (
        <div className="card-body">
          <pre className="code small" aria-label="Hook output">
            {output || '(no output)'}
          </pre>
        </div>
      )}
    </article>
  );
});
