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
import { formatTime } from '../../lib/format';
import { nextStep } from '../../lib/user-error';
import { MessageActions } from '../rewind/MessageActions';
import { PastedChips } from '../attachments/PastedText';

export const UserRow = memo(function UserRow({ item }: { item: UserItem }) {
  return (
    <div className="msg user" aria-label="You">
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
      <time className="msg-time">{formatTime(item.ts)}</time>
      <MessageActions seq={item.seq} rewind text={item.text} sent={item} />
    </div>
  );
});

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
      {thinking && (
        <button
          type="button"
          className="link-button small"
          aria-expanded={showThinking}
          onClick={() => setShowThinking(!showThinking)}
        >
          {showThinking ? 'Hide thinking' : 'Show thinking'}
        </button>
      )}
      {thinking && showThinking && <div className="thinking">{thinking}</div>}
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
  // The code is for the app; the person gets what to do about it (unless the message says so).
  const step = nextStep(item.code);
  const next = step && !/\bSettings\b/.test(item.message) ? step : null;
  return (
    <div className="msg error" role="alert">
      <strong>{item.code === 'no_model' ? 'No model' : 'Error'}</strong> {item.message}
      {next && <p className="next-step">{next}</p>}
    </div>
  );
});

export const NoticeRow = memo(function NoticeRow({ item }: { item: NoticeItem }) {
  return <div className={`notice ${item.tone}`}>{item.text}</div>;
});

export const DiagnosticsRow = memo(function DiagnosticsRow({ item }: { item: DiagnosticsItem }) {
  const [open, setOpen] = useState(false);
  return (
    <article className="card diagnostics" aria-label={`Diagnostics for ${item.file}`}>
      <header className="card-head">
        <button
          type="button"
          className="card-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <span className="status-dot waiting" aria-hidden="true" />
          <span className="card-title">Diagnostics</span>
          <span className="card-subject">{item.file}</span>
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
