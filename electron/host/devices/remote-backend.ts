import type {
  RemoteItem,
  RemoteMessageItem,
  RemoteSession,
  RemoteSessionState,
} from '../../../shared/device/remote-frames';
import {
  MAX_REMOTE_DETAIL_CHARS,
  MAX_REMOTE_SESSIONS,
  MAX_REMOTE_TEXT_CHARS,
} from '../../../shared/device/remote-frames';
import type { RemoteVia, SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import type { SessionSummary } from '../../../shared/protocol/session-summary';
import type { AgentDecisions } from '../agent/decisions';
import { findApproval } from '../agent/session-state';
import type { ElicitContent } from '../../../shared/mcp/elicitation-form';
import { DisposableObject } from '../lifecycle/disposable';
import { Emitter, type Event } from '../lifecycle/emitter';
import { HostError } from '../rpc/host-error';
import type { Session } from '../sessions/session';
import type { SessionManager } from '../sessions/session-manager';
import { approvalHash } from './approval-hash';

// What a phone with remote rights reaches, and nothing more: the sessions and their state, the
// items waiting on the user, a decision bound to its approval's hash, an answer, the newest part
// of a conversation, a short message. Built over the same owners the desktop's commands use
// (SessionManager, AgentDecisions, the send path), so a remote decision is a desktop decision
// with the phone's name on it. The protocol side (rights, limits, frames) is remote-desk.ts.

export type RemoteRefusalCode =
  | 'no_remote_rights'
  | 'not_found'
  | 'stale'
  | 'already_decided'
  | 'already_answered'
  | 'too_large'
  | 'invalid';

export class RemoteRefusal extends Error {
  override name = 'RemoteRefusal';
  constructor(
    readonly code: RemoteRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

export interface RemoteDecision {
  session_id: string;
  approval_id: string;
  hash: string;
  decision: 'allow' | 'deny';
  reason?: string;
  /** One of an external agent's options, by id. */
  option?: string;
}

export interface RemoteAnswer {
  session_id: string;
  question_id: string;
  answers: Array<{ selected: number[] } | { text: string }>;
  notes?: string;
}

export interface RemoteElicit {
  session_id: string;
  elicitation_id: string;
  action: 'accept' | 'decline' | 'cancel';
  content?: ElicitContent;
}

export interface RemoteConversation {
  state: RemoteSessionState;
  more: boolean;
  items: RemoteMessageItem[];
}

/**
 * Asked again right before a decision, answer or message is acted on (after the log was read):
 * a right taken away while the request was in flight holds, not only for the next frame.
 */
export type StillAllowed = () => boolean;

/** What the remote desk asks of the app. */
export interface RemoteBackend {
  sessions(): Promise<RemoteSession[]>;
  /** Waiting items, oldest first, with their full detail (the desk cuts what is too long). */
  pending(sessionId?: string): Promise<RemoteItem[]>;
  decide(d: RemoteDecision, via: RemoteVia, allowed?: StillAllowed): Promise<void>;
  answer(a: RemoteAnswer, via: RemoteVia, allowed?: StillAllowed): Promise<void>;
  elicit(e: RemoteElicit, via: RemoteVia, allowed?: StillAllowed): Promise<void>;
  read(sessionId: string, limit: number, beforeSeq?: number): Promise<RemoteConversation>;
  message(
    sessionId: string,
    text: string,
    via: RemoteVia,
    allowed?: StillAllowed,
  ): Promise<{ message_id: string }>;
  /** Something a remote view shows changed (a state, a waiting item, a message). */
  readonly onDidChange: Event<void>;
  /** A session may have started waiting on the user (its id). */
  readonly onDidStartWaiting: Event<string>;
}

export interface SessionsRemoteOptions {
  sessions: SessionManager;
  decisions: AgentDecisions;
  /** The desktop's own send path (sessions.send), so a remote message starts a run the same way. */
  send(sessionId: string, text: string, via: RemoteVia): Promise<{ message_id: string }>;
}

/** Events a remote view draws from: their arrival is a change worth a refetch. */
const VISIBLE = new Set<SessionEvent['type']>([
  'run_state',
  'approval_request',
  'approval_decision',
  'question',
  'question_answer',
  'question_expired',
  'question_superseded',
  'elicitation',
  'elicitation_answer',
  'user_message',
  'assistant_message',
  'session_renamed',
]);

export function remoteState(state: SessionSummary['run_state']): RemoteSessionState {
  switch (state) {
    case 'running':
      return 'running';
    case 'waiting':
      return 'waiting';
    case 'failed':
      return 'failed';
    case 'idle':
    case 'stopped':
      return 'done';
  }
}

export class SessionsRemoteBackend extends DisposableObject implements RemoteBackend {
  private readonly changed = this.register(new Emitter<void>());
  private readonly waiting = this.register(new Emitter<string>());
  readonly onDidChange = this.changed.event;
  readonly onDidStartWaiting = this.waiting.event;

  constructor(private readonly opts: SessionsRemoteOptions) {
    super();
    this.register(opts.sessions.onDidChange(() => this.changed.fire()));
    this.register(
      opts.sessions.onDidOpen((s) => {
        s.resources.add(
          s.onDidAppend((e) => {
            if (!VISIBLE.has(e.type)) return;
            this.changed.fire();
            if (
              e.type === 'approval_request' ||
              e.type === 'question' ||
              e.type === 'elicitation' ||
              (e.type === 'run_state' && e.state === 'waiting')
            )
              this.waiting.fire(s.id);
          }),
        );
      }),
    );
  }

  async sessions(): Promise<RemoteSession[]> {
    const list = (await this.opts.sessions.list()).slice(0, MAX_REMOTE_SESSIONS);
    return Promise.all(
      list.map(async (s) => ({
        session_id: s.id,
        title: s.title,
        project: s.project,
        state: remoteState(s.run_state),
        waiting: s.run_state === 'waiting' ? (await this.itemsOf(s.id)).length : 0,
        updated_at: s.updated_at,
      })),
    );
  }

  async pending(sessionId?: string): Promise<RemoteItem[]> {
    const ids = sessionId
      ? [(await this.session(sessionId)).id]
      : (await this.opts.sessions.list()).filter((s) => s.run_state === 'waiting').map((s) => s.id);
    const items = (await Promise.all(ids.map((id) => this.itemsOf(id)))).flat();
    return items.sort((a, b) => at(a) - at(b));
  }

  async decide(d: RemoteDecision, via: RemoteVia, allowed?: StillAllowed): Promise<void> {
    const session = await this.session(d.session_id);
    const events = session.events();
    const { request, decision } = findApproval(events, d.approval_id);
    if (!request)
      throw new RemoteRefusal('not_found', `no approval '${d.approval_id}' in this session`);
    if (decision)
      throw new RemoteRefusal(
        'already_decided',
        `approval '${d.approval_id}' was already decided (${decision.decision})`,
      );
    const item = approvalItem(session, request, events);
    if (item.hash !== d.hash)
      throw new RemoteRefusal(
        'stale',
        'the hash does not match this approval: refresh the waiting items and decide again',
      );
    if (d.decision === 'allow' && tooLarge(item))
      throw new RemoteRefusal(
        'too_large',
        'this approval is too large to show in full on the phone: allow it on the desktop',
      );
    checkAllowed(allowed);
    await this.mapped(() =>
      this.opts.decisions.decideApproval(
        d.session_id,
        d.approval_id,
        d.decision,
        d.reason,
        undefined,
        undefined,
        via,
        d.option,
      ),
    );
  }

  async answer(a: RemoteAnswer, via: RemoteVia, allowed?: StillAllowed): Promise<void> {
    await this.session(a.session_id);
    checkAllowed(allowed);
    await this.mapped(() =>
      this.opts.decisions.answerQuestion(
        a.session_id,
        a.question_id,
        { answers: a.answers, ...(a.notes !== undefined ? { notes: a.notes } : {}) },
        undefined,
        via,
      ),
    );
  }

  async elicit(e: RemoteElicit, via: RemoteVia, allowed?: StillAllowed): Promise<void> {
    await this.session(e.session_id);
    checkAllowed(allowed);
    await this.mapped(() =>
      this.opts.decisions.answerElicitation(
        e.session_id,
        e.elicitation_id,
        e.action === 'accept'
          ? { action: 'accept', ...(e.content ? { content: e.content } : {}) }
          : { action: e.action },
        via,
      ),
    );
  }

  async read(sessionId: string, limit: number, beforeSeq?: number): Promise<RemoteConversation> {
    const session = await this.session(sessionId);
    const events = session.events(0, beforeSeq);
    const items: RemoteMessageItem[] = [];
    let i = events.length - 1;
    for (; i >= 0 && items.length < limit; i--) {
      const item = messageItem(events[i]!);
      if (item) items.push(item);
    }
    let more = false;
    for (; i >= 0 && !more; i--) more = messageItem(events[i]!) !== undefined;
    return { state: remoteState(session.runState()), more, items: items.reverse() };
  }

  async message(
    sessionId: string,
    text: string,
    via: RemoteVia,
    allowed?: StillAllowed,
  ): Promise<{ message_id: string }> {
    await this.session(sessionId);
    if (text.trimStart().startsWith('/'))
      throw new RemoteRefusal('invalid', 'slash commands are sent from the desktop only');
    checkAllowed(allowed);
    return this.opts.send(sessionId, text, via);
  }

  private async session(id: string): Promise<Session> {
    try {
      return await this.opts.sessions.get(id);
    } catch {
      throw new RemoteRefusal('not_found', `no session '${id.slice(0, 128)}'`);
    }
  }

  /** The waiting items of one session (none unless it waits on the user now). */
  private async itemsOf(sessionId: string): Promise<RemoteItem[]> {
    const session = await this.session(sessionId);
    if (session.runState() !== 'waiting') return [];
    const view = await this.opts.decisions.pending(sessionId);
    const events = session.events();
    const closed = new Set(
      events
        .filter((e) => e.type === 'question_expired' || e.type === 'question_superseded')
        .map((e) => (e as { question_id: string }).question_id),
    );
    return [
      ...view.approvals.map((r) => approvalItem(session, r, events)),
      ...view.questions
        .filter((q) => !closed.has(q.question_id))
        .map((q): RemoteItem => ({
          kind: 'question',
          session_id: session.id,
          session_title: session.meta.title,
          question_id: q.question_id,
          questions: q.questions.map((x) => ({
            header: x.header,
            question: x.question,
            options: x.options.map((o) => ({ label: o.label, description: o.description })),
            multi_select: x.multi_select,
          })),
          notes_placeholder: q.notes_placeholder ?? null,
          asked_at: q.ts,
        })),
      ...view.elicitations.map((e): RemoteItem => ({
        kind: 'elicitation',
        session_id: session.id,
        session_title: session.meta.title,
        elicitation_id: e.elicitation_id,
        server: e.server,
        message: e.message,
        mode: e.mode,
        ...(e.form ? { form: e.form } : {}),
        ...(e.url ? { url: e.url } : {}),
        asked_at: e.ts,
      })),
    ];
  }

  /** The desktop's refusals, as the remote protocol names them. */
  private async mapped<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof HostError)) throw err;
      const code =
        err.code === 'not_found' ||
        err.code === 'already_decided' ||
        err.code === 'already_answered'
          ? err.code
          : err.code === 'invalid_answer' || err.code === 'bad_option'
            ? 'invalid'
            : undefined;
      if (code) throw new RemoteRefusal(code, err.message);
      throw err;
    }
  }
}

function checkAllowed(allowed: StillAllowed | undefined): void {
  if (allowed && !allowed())
    throw new RemoteRefusal(
      'no_remote_rights',
      'the remote right was taken away: nothing was done',
    );
}

function at(item: RemoteItem): number {
  return item.kind === 'approval' ? item.requested_at : item.asked_at;
}

function argsOf(events: readonly SessionEvent[], callId: string): unknown {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'tool_call' && e.call_id === callId) return e.args;
  }
  return undefined;
}

function approvalItem(
  session: Session,
  request: SessionEventOf<'approval_request'>,
  events: readonly SessionEvent[],
): Extract<RemoteItem, { kind: 'approval' }> {
  const args_json = JSON.stringify(argsOf(events, request.call_id) ?? {});
  const fields = {
    session_id: session.id,
    approval_id: request.approval_id,
    tool: request.tool,
    detail: request.detail,
    args_json,
  };
  return {
    kind: 'approval',
    ...fields,
    session_title: session.meta.title,
    summary: request.summary,
    hash: approvalHash(fields),
    truncated: false,
    requested_at: request.ts,
    ...(request.options?.length ? { options: request.options } : {}),
  };
}

export function tooLarge(item: { detail: string; args_json: string }): boolean {
  return (
    item.detail.length > MAX_REMOTE_DETAIL_CHARS || item.args_json.length > MAX_REMOTE_DETAIL_CHARS
  );
}

function clip(text: string): { text: string; truncated?: true } {
  return text.length > MAX_REMOTE_TEXT_CHARS
    ? { text: text.slice(0, MAX_REMOTE_TEXT_CHARS), truncated: true }
    : { text };
}

function messageItem(e: SessionEvent): RemoteMessageItem | undefined {
  switch (e.type) {
    case 'user_message':
      return {
        seq: e.seq,
        role: 'user',
        ts: e.ts,
        ...clip(e.text),
        ...(e.via ? { via: e.via.device_name } : {}),
      };
    case 'assistant_message':
      if (e.agent_id !== 'root' || !e.text.trim()) return undefined;
      return { seq: e.seq, role: 'assistant', ts: e.ts, ...clip(e.text) };
    case 'tool_call':
      if (e.agent_id !== 'root') return undefined;
      return { seq: e.seq, role: 'tool', ts: e.ts, text: `${e.name}${callHint(e.args)}` };
    default:
      return undefined;
  }
}

/** A short hint of what a call does (its command, path or pattern), one line. */
function callHint(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  for (const key of ['command', 'file_path', 'path', 'pattern', 'query', 'url']) {
    const v = a[key];
    if (typeof v === 'string' && v) return `: ${v.split('\n')[0]!.slice(0, 120)}`;
  }
  return '';
}
