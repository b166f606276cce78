import { memo, useState } from 'react';
import type {
  AssistantItem,
  DeviceCallItem,
  DiagnosticsItem,
  ErrorItem,
  NoticeItem,
  ProjectSwitchItem,
  UserItem,
} from '../../state/timeline-items';
import { Markdown, StreamingMarkdown } from '../common/Markdown';
import { formatTime, pluralize } from '../../lib/format';
import { useUi } from '../../state/ui-store';
import { nextStep } from '../../lib/user-error';
import { MessageActions } from '../rewind/MessageActions';
import { PastedChips } from '../attachments/PastedText';

export const UserRow = memo(function UserRow({ item }: { item: UserItem }) {
  // The actions sit on the time's line under the bubble, shown on hover or focus: the line is
  // there either way, so pointing at a message never moves the conversation.
  return (
    <div className="msg-turn user" aria-label="You">
      <div className="msg user">
        <UserContent item={item} />
      </div>
      <div className="msg-foot">
        <MessageActions seq={item.seq} rewind text={item.text} sent={item} />
        <time className="msg-time">{formatTime(item.ts)}</time>
      </div>
    </div>
  );
});

function UserContent({ item }: { item: UserItem }) {
  return (
    <>
      {item.images?.length ? (
        <div className="msg-images">
          {item.images.map((img, i) => (
            <img
              key={i}
              src={`data:${img.media_type};base64,${img.data}`}
              alt={`Image ${i + 1} of ${item.images!.length} you sent`}
            />
          ))}
        </div>
      ) : null}
      {item.text && <div className="msg-text">{item.text}</div>}
      {item.pastes && <PastedChips label="Pasted text you sent" items={item.pastes} />}
      {item.mentions && <MentionedFiles files={item.mentions} />}
    </>
  );
}

/** What the `@` mentions attached: the agent read these files as they were when sent. */
function MentionedFiles({ files }: { files: NonNullable<UserItem['mentions']> }) {
  return (
    <ul className="msg-mentions" aria-label="Attached files">
      {files.map((f) => (
        <li key={f.path} title={f.note ?? 'Sent to the agent with the message'}>
          <span aria-hidden="true">📄</span> {f.path}
          {f.note && <span className="muted"> ({f.note})</span>}
        </li>
      ))}
    </ul>
  );
}

export const AssistantRow = memo(function AssistantRow({ item }: { item: AssistantItem }) {
  return (
    <AssistantText
      text={item.text}
      agentId={item.agentId}
      thinking={item.thinking}
      stopped={item.stopped}
      seq={item.seq}
    />
  );
});

export function AssistantText({
  text,
  agentId,
  thinking,
  streaming,
  stopped,
  seq,
}: {
  text: string;
  agentId: string;
  thinking?: string;
  streaming?: boolean;
  stopped?: boolean;
  /** The logged message's seq: it can be forked from (a streaming answer cannot yet). */
  seq?: number;
}) {
  const [showThinking, setShowThinking] = useState(false);
  return (
    <div
      className={`msg assistant ${streaming ? 'streaming' : ''}`}
      aria-label={agentId === 'root' ? 'Agent' : `Sub-agent ${agentId}`}
      aria-busy={streaming || undefined}
    >
      {agentId !== 'root' && <span className="chip">{agentId}</span>}
      {thinking && !streaming && (
        <button
          type="button"
          className="link-button small"
          aria-expanded={showThinking}
          onClick={() => setShowThinking(!showThinking)}
        >
          {showThinking ? 'Hide thinking' : 'Show thinking'}
        </button>
      )}
      {/* While it streams the thinking is shown as it comes; logged, it folds behind its button. */}
      {thinking && (streaming || showThinking) && (
        <div
          className="thinking"
          aria-label="Thinking"
          aria-live={streaming ? 'polite' : undefined}
        >
          {thinking}
        </div>
      )}
      {streaming ? <StreamingMarkdown text={text} /> : <Markdown text={text} />}
      {streaming && <span className="caret" aria-hidden="true" />}
      {stopped && (
        <p className="stopped-mark" role="note">
          Stopped by you: the answer ends here.
        </p>
      )}
      {seq !== undefined && agentId === 'root' && (
        <MessageActions seq={seq} rewind={false} text={text} />
      )}
    </div>
  );
}

export const ProjectSwitchRow = memo(function ProjectSwitchRow({
  item,
}: {
  item: ProjectSwitchItem;
}) {
  return (
    <article className="card project-switch" aria-label={`Switched project to ${item.to}`}>
      <header className="card-head static">
        <span className="card-title">Switched project</span>
        <span className="card-subject">
          {item.from ? `${item.from} → ` : ''}
          <strong>{item.to}</strong>
        </span>
        <span className="card-meta path">{item.root}</span>
      </header>
    </article>
  );
});

export const ErrorRow = memo(function ErrorRow({ item }: { item: ErrorItem }) {
  const openDialog = useUi((s) => s.openDialog);
  // The code is for the app; the person gets what to do about it (unless the message says so),
  // and where that is Settings (a key, a model, an address), the way there.
  const step = nextStep(item.code);
  const next = step && !/\bSettings\b/.test(item.message) ? step : null;
  const inSettings = !!step && /\bSettings\b/.test(step);
  return (
    <div className="msg error" role="alert">
      <strong>{item.code === 'no_model' ? 'No model' : 'Error'}</strong> {item.message}
      {(next || inSettings) && (
        <p className="next-step">
          {next}
          {inSettings && (
            <button type="button" className="small" onClick={() => openDialog('settings')}>
              Open Settings
            </button>
          )}
        </p>
      )}
    </div>
  );
});

export const NoticeRow = memo(function NoticeRow({ item }: { item: NoticeItem }) {
  return <div className={`notice ${item.tone}`}>{item.text}</div>;
});

export const DiagnosticsRow = memo(function DiagnosticsRow({ item }: { item: DiagnosticsItem }) {
  const [open, setOpen] = useState(false);
  const count = diagnosticsCount(item);
  return (
    <article className="card diagnostics" aria-label={`Diagnostics for ${item.file}`}>
      <header className="card-head">
        <button
          type="button"
          className="card-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <span className={`status-dot ${count.dot}`} aria-hidden="true" />
          <span className="card-title">Diagnostics</span>
          <span className="card-subject">{item.file}</span>
          {count.text && <span className={`card-meta ${count.tone}`}>{count.text}</span>}
        </button>
      </header>
      {open && (
        <div className="card-body">
          <pre className="code small">{item.text}</pre>
        </div>
      )}
    </article>
  );
});

export const DeviceCallRow = memo(function DeviceCallRow({ item }: { item: DeviceCallItem }) {
  const r = item.result;
  const status = !r ? 'running' : r.status === 'ok' ? 'done' : 'failed';
  return (
    <article className={`card tool ${status}`} aria-label={`Phone tool ${item.toolId}`}>
      <header className="card-head static">
        <span className={`status-dot ${status}`} aria-hidden="true" />
        <span className="card-title">Phone</span>
        <span className="card-subject">{item.toolId}</span>
        <span className="card-meta">
          {!r ? 'waiting for the phone…' : r.status === 'ok' ? 'ok' : r.error?.code}
        </span>
      </header>
      {r && (
        <div className="card-body">
          {r.status === 'error' ? (
            <p className="error-message">{r.error?.message}</p>
          ) : (
            <pre className="code small">{JSON.stringify(r.result, null, 2)}</pre>
          )}
        </div>
      )}
    </article>
  );
});

/** What the folded Diagnostics card says about what is inside: how many errors, how many warnings. */
function diagnosticsCount(item: DiagnosticsItem): {
  text: string | null;
  dot: 'failed' | 'waiting' | 'done';
  tone: 'bad' | 'warn' | '';
} {
  // A log written before the counts were recorded: the card cannot say, and does not guess.
  if (item.errors === undefined) return { text: null, dot: 'waiting', tone: '' };
  const warnings = item.warnings ?? 0;
  const parts = [
    item.errors ? pluralize(item.errors, 'error') : null,
    warnings ? pluralize(warnings, 'warning') : null,
  ].filter(Boolean);
  if (item.errors) return { text: parts.join(', '), dot: 'failed', tone: 'bad' };
  if (warnings) return { text: parts.join(', '), dot: 'waiting', tone: 'warn' };
  return { text: 'no errors now', dot: 'done', tone: '' };
}
