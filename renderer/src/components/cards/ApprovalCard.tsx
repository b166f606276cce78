import { memo, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { ApprovalItem } from '../../state/timeline-items';
import { useClient } from '../../client-context';
import { useUi } from '../../state/ui-store';
import { decideApproval, errorText } from '../../state/agent-actions';
import { useCardOpen, useSessionId } from '../timeline/session-context';
import { APPROVE_KEYS, DENY_KEYS, approvalKey } from '../../lib/approval-keys';
import { focusComposer } from '../../lib/focus';
import { DiffLayoutToggle, DiffView } from './DiffView';
import { AlwaysAllow, SCOPE_LABEL, alwaysScopes, type AlwaysScope } from './AlwaysAllow';
import { useSessions } from '../../state/sessions-store';
import { ruleInWords } from '../../lib/rule-words';
import { AgentOptions, optionDecision, shortcutOption } from './AgentOptions';

const looksLikeDiff = (text: string) => /^(--- |@@ )/m.test(text) && /^@@ /m.test(text);

/**
 * A risky action waiting for the person: the whole command or the whole diff is on screen, never
 * a summary only, before Approve or Deny can be pressed (or Alt+A / Alt+D from anywhere). An
 * external agent's request offers the agent's own choices instead (allow once, always, reject...).
 */
export const ApprovalCard = memo(function ApprovalCard({ item }: { item: ApprovalItem }) {
  const client = useClient();
  const sessionId = useSessionId();
  const layout = useUi((s) => s.diffLayout);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const card = useRef<HTMLElement>(null);
  const pending = !item.decision;
  // Decided approvals fold to their header line; the detail stays one click away.
  const [stored, setOpen] = useCardOpen(item.key);
  const open = pending || (stored ?? false);
  const isDiff = looksLikeDiff(item.detail);

  const remote = useSessions((st) => !!st.sessions.find((x) => x.id === sessionId)?.remote);
  const [scope, setScope] = useState<AlwaysScope>('session');
  const decide = async (decision: 'allow' | 'deny', always?: AlwaysScope, option?: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await decideApproval(
        client,
        sessionId,
        item.approvalId,
        decision,
        decision === 'deny' && reason.trim() ? reason.trim() : undefined,
        always,
        option,
      );
      focusComposer();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const onShortcut = useEffectEvent((d: 'allow' | 'deny') => {
    if (!item.options) return void decide(d);
    const o = shortcutOption(item.options, d);
    if (o) void decide(d, undefined, o.id);
  });

  useEffect(() => {
    if (!pending) return;
    const onKey = (e: KeyboardEvent) => {
      const d = approvalKey(e);
      if (!d || e.defaultPrevented) return;
      // The oldest waiting approval answers; a later one waits its turn.
      if (document.querySelector('article.approval.pending') !== card.current) return;
      e.preventDefault();
      onShortcut(d);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pending]);

  return (
    <article
      ref={card}
      className={`card approval ${pending ? 'pending' : item.decision!.decision}`}
      aria-label={`Approval: ${item.tool}`}
    >
      <header className={`card-head ${pending ? 'static' : ''}`}>
        {pending ? (
          <ApprovalTitle item={item} />
        ) : (
          <button
            type="button"
            className="card-toggle"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            <ApprovalTitle item={item} />
          </button>
        )}
        {open && isDiff && <DiffLayoutToggle />}
      </header>
      {open && (
        <div className="card-body">
          {isDiff ? (
            <DiffView text={item.detail} layout={layout} names />
          ) : (
            <pre className="code small term" aria-label="Full command">
              {item.detail}
            </pre>
          )}
          {pending && (
            <div className="actions">
              <input
                type="text"
                className="reason"
                aria-label="Reason (optional)"
                placeholder="Reason, if you deny (optional)"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && reason.trim()) {
                    e.preventDefault();
                    void decide('deny');
                  }
                }}
              />
              {error && (
                <span className="error-text" role="alert">
                  {error}
                </span>
              )}
              {item.options ? (
                <AgentOptions
                  options={item.options}
                  busy={busy}
                  onPick={(o) => void decide(optionDecision(o), undefined, o.id)}
                />
              ) : (
                <>
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    aria-label="Deny"
                    aria-keyshortcuts={DENY_KEYS}
                    title={`Deny (${DENY_KEYS})`}
                    onClick={() => void decide('deny')}
                  >
                    Deny <kbd aria-hidden="true">{DENY_KEYS}</kbd>
                  </button>
                  <button
                    type="button"
                    className="primary"
                    disabled={busy}
                    aria-label="Approve"
                    aria-keyshortcuts={APPROVE_KEYS}
                    title={`Approve (${APPROVE_KEYS})`}
                    onClick={() => void decide('allow')}
                  >
                    Approve <kbd aria-hidden="true">{APPROVE_KEYS}</kbd>
                  </button>
                </>
              )}
            </div>
          )}
          {pending && item.suggestedRule && (
            <AlwaysAllow
              rule={item.suggestedRule}
              scopes={alwaysScopes(remote)}
              scope={scope}
              onScope={setScope}
              busy={busy}
              onAllow={() => void decide('allow', scope)}
            />
          )}
        </div>
      )}
    </article>
  );
});

function ApprovalTitle({ item }: { item: ApprovalItem }) {
  const d = item.decision;
  const picked = d?.option && item.options?.find((o) => o.id === d.option);
  return (
    <>
      <span
        className={`status-dot ${!d ? 'waiting' : d.decision === 'allow' ? 'done' : 'failed'}`}
        aria-hidden="true"
      />
      <span className="card-title">
        {!d ? 'Approve?' : d.decision === 'allow' ? 'Approved' : 'Denied'}
      </span>
      <span className="card-subject">{item.summary}</span>
      {d && (
        <span className="card-meta">
          {picked ? `${picked.name}, ` : ''}
          {d.by === 'policy' ? 'by policy' : d.via ? `from ${d.via}` : 'by you'}
          {d.reason ? `: ${d.reason}` : ''}
          {d.always
            ? `, always: ${ruleInWords(d.always.rule)} (${SCOPE_LABEL[d.always.scope]})`
            : ''}
        </span>
      )}
    </>
  );
}
