import {
  CLEARED_SUMMARY,
  type SessionEvent,
  type SessionEventOf,
} from '../../../shared/protocol/events';
import type { SessionSnapshot } from '../../../shared/protocol/session-snapshot';
import type { PermissionModeWire } from '../../../shared/protocol/common';
import type {
  AnswerInfo,
  ElicitationItem,
  RunState,
  ShellInfo,
  TimelineItem,
  TodoItem,
} from './timeline-items';
import { UsageTotals } from './usage-totals';

/**
 * Tools whose own events draw them (the question card, the panel, the todo dock): their tool card
 * would repeat the same thing, so it shows only when the call failed.
 */
const DRAWN_BY_OWN_EVENT = new Set([
  'ask_user_question',
  'present_ui',
  'update_todos',
  'exit_plan_mode',
]);

/**
 * One session's projection, built incrementally: `apply` costs O(1) per event (index maps instead
 * of searches), so a 10,000-event session opens as fast as its events parse. Mutable on purpose:
 * its store (session-view-store.ts) publishes immutable parts of it after each change, instead
 * of copying the whole model per event.
 */
export class SessionModel {
  readonly items: TimelineItem[] = [];
  /** Events applied: the next expected seq. */
  length = 0;
  todos: TodoItem[] | null = null;
  readonly shells = new Map<string, ShellInfo>();
  runState: RunState = 'idle';
  mode: PermissionModeWire | null = null;
  project: string | null = null;
  root: string | null = null;
  title = '';
  /** Model usage: the context meter and the cost estimate. */
  readonly usage = new UsageTotals();
  /** This session's own model (`provider:name`); null or undefined: the app's default. */
  chosenModel: string | null = null;
  /** The `/` commands the session's external agent offers (its latest list). */
  agentCommands: SessionEventOf<'agent_commands'>['commands'] = [];
  /** The external agent's own modes and the one it is in; null: it offers none (yet). */
  agentModes: Pick<SessionEventOf<'agent_modes'>, 'current' | 'modes'> | null = null;
  /** The external agent's session settings (its model, its reasoning level...). */
  agentOptions: SessionEventOf<'agent_options'>['options'] = [];
  /** The external agent's context window use and cost, as it last reported them. */
  agentUsage: Pick<SessionEventOf<'agent_usage'>, 'used' | 'size' | 'cost'> | null = null;
  /** Item position by correlation key (call, question, approval, plan, panel id). */
  private readonly at = new Map<string, number>();
  /** Seq ranges [from, to) hidden by rewinds in force, by the rewind's seq. */
  private readonly rewinds = new Map<number, [number, number]>();
  /** Regenerated turns, by the seq their answers start at: how many versions, which one shows. */
  private readonly turns = new Map<number, { count: number; shown: number }>();
  /** The regenerated turn whose latest version the items arriving now belong to, if any. */
  private answering: number | null = null;

  /** `base`: the first seq this projection holds (a paged session starts at its window). */
  constructor(readonly base = 0) {
    this.length = base;
  }

  /**
   * The state the events before `base` left (the host's snapshot), applied before the events
   * from `base` on: questions still open whose card is older than the window are drawn first.
   */
  applySnapshot(s: SessionSnapshot): void {
    this.title = s.title;
    this.project = s.project;
    this.root = s.root;
    this.mode = s.mode;
    this.todos = s.todos;
    this.runState = s.run_state;
    this.shells.clear();
    for (const sh of s.shells) {
      this.shells.set(sh.shell_id, {
        shellId: sh.shell_id,
        command: sh.command,
        cwd: sh.cwd,
        state: sh.state,
        exitCode: sh.exit_code,
        signal: sh.signal,
        startedTs: sh.started_ts,
        endedTs: sh.ended_ts,
      });
    }
    // An external agent's modes, settings and usage, however long ago it last reported them.
    for (const e of s.agent_state) if (e.seq < this.base) this.applyAgentState(e);
    for (const q of s.open_questions) {
      if (q.seq >= this.base) continue;
      if (q.type === 'elicitation') {
        this.push(elicitationItem(q), `el:${q.elicitation_id}`);
        continue;
      }
      if (q.type !== 'question') continue;
      this.push(
        {
          key: `e${q.seq}`,
          seq: q.seq,
          ts: q.ts,
          kind: 'question',
          questionId: q.question_id,
          questions: q.questions,
          notesPlaceholder: q.notes_placeholder,
          timeoutSeconds: q.timeout_seconds,
          state: 'pending',
        },
        `q:${q.question_id}`,
      );
    }
  }

  /** What an external agent reported of its modes, settings or usage (the latest wins). */
  private applyAgentState(e: SessionEvent): void {
    if (e.type === 'agent_modes') this.agentModes = { current: e.current, modes: e.modes };
    else if (e.type === 'agent_options') this.agentOptions = e.options;
    else if (e.type === 'agent_usage')
      this.agentUsage = { used: e.used, size: e.size, cost: e.cost };
  }

  /**
   * Applies events in seq order; returns false for a duplicate (ignored). A seq past `length` is
   * a gap the host found in a damaged log (and reported with the session): the rest still shows.
   */
  apply(e: SessionEvent): boolean {
    if (e.seq < this.length) return false;
    this.length = e.seq + 1;
    this.project_(e);
    const base = { key: `e${e.seq}`, seq: e.seq, ts: e.ts };
    switch (e.type) {
      case 'session_created':
        this.title = e.title;
        break;
      case 'session_renamed':
        this.title = e.title;
        break;
      case 'user_message':
        this.answering = null;
        this.push({
          ...base,
          kind: 'user',
          messageId: e.message_id,
          text: e.text,
          images: e.images,
          ...(e.pastes?.length ? { pastes: e.pastes } : {}),
          ...(e.mentions?.length
            ? { mentions: e.mentions.map((m) => ({ path: m.path, note: m.note })) }
            : {}),
        });
        break;
      case 'assistant_message':
        if (e.text.trim() || e.thinking) {
          this.push({
            ...base,
            kind: 'assistant',
            text: e.text,
            agentId: e.agent_id,
            thinking: e.thinking,
            stopped: e.stopped,
          });
        }
        break;
      case 'tool_call':
        this.push(
          {
            ...base,
            kind: 'tool',
            callId: e.call_id,
            name: e.name,
            agentId: e.agent_id,
            args: e.args,
          },
          `call:${e.call_id}`,
        );
        break;
      case 'tool_result':
        this.update(`call:${e.call_id}`, (it) =>
          it.kind === 'tool'
            ? { ...it, result: e.payload, endedTs: e.ts, awaitingApproval: false }
            : it,
        );
        break;
      case 'question':
        this.push(
          {
            ...base,
            kind: 'question',
            questionId: e.question_id,
            questions: e.questions,
            notesPlaceholder: e.notes_placeholder,
            timeoutSeconds: e.timeout_seconds,
            state: 'pending',
          },
          `q:${e.question_id}`,
        );
        break;
      case 'question_answer':
        this.update(`q:${e.question_id}`, (it) =>
          it.kind === 'question'
            ? { ...it, state: 'answered', answer: e.answer, delivery: e.delivery }
            : it,
        );
        break;
      case 'elicitation':
        this.push(elicitationItem(e), `el:${e.elicitation_id}`);
        break;
      case 'elicitation_answer': {
        const answer = {
          action: e.action,
          ...(e.content ? { content: e.content } : {}),
          ...(e.reason ? { reason: e.reason } : {}),
          ...(e.via ? { via: e.via } : {}),
        };
        this.update(`el:${e.elicitation_id}`, (it) =>
          it.kind === 'elicitation' ? { ...it, answer } : it,
        );
        break;
      }
      case 'question_expired':
      case 'question_superseded': {
        const state = e.type === 'question_expired' ? 'expired' : 'superseded';
        this.update(`q:${e.question_id}`, (it) =>
          it.kind === 'question' && it.state !== 'answered' ? { ...it, state } : it,
        );
        break;
      }
      case 'panel':
        // A panel presented again with its ui_id replaces the earlier one where it sits.
        if (
          !this.update(`ui:${e.ui_id}`, (it) =>
            it.kind === 'panel'
              ? { ...it, spec: e.spec, summary: e.summary, text: e.text, ts: e.ts }
              : it,
          )
        ) {
          this.push(
            {
              ...base,
              kind: 'panel',
              uiId: e.ui_id,
              spec: e.spec,
              summary: e.summary,
              text: e.text,
            },
            `ui:${e.ui_id}`,
          );
        }
        break;
      case 'project_switch':
        this.push({ ...base, kind: 'project_switch', from: e.from, to: e.to, root: e.root });
        break;
      case 'approval_request':
        this.push(
          {
            ...base,
            kind: 'approval',
            approvalId: e.approval_id,
            callId: e.call_id,
            tool: e.tool,
            summary: e.summary,
            detail: e.detail,
            ...(e.suggested_rule ? { suggestedRule: e.suggested_rule } : {}),
            ...(e.options?.length ? { options: e.options } : {}),
          },
          `ap:${e.approval_id}`,
        );
        this.update(`call:${e.call_id}`, (it) =>
          it.kind === 'tool' && !it.result ? { ...it, awaitingApproval: true } : it,
        );
        break;
      case 'approval_decision': {
        let callId: string | undefined;
        this.update(`ap:${e.approval_id}`, (it) => {
          if (it.kind !== 'approval') return it;
          callId = it.callId;
          return {
            ...it,
            decision: {
              decision: e.decision,
              by: e.by,
              reason: e.reason,
              always: e.always,
              option: e.option,
              via: e.via?.device_name,
            },
          };
        });
        if (callId)
          this.update(`call:${callId}`, (it) =>
            it.kind === 'tool' && it.awaitingApproval ? { ...it, awaitingApproval: false } : it,
          );
        break;
      }
      case 'plan':
        this.push({ ...base, kind: 'plan', planId: e.plan_id, text: e.text }, `plan:${e.plan_id}`);
        break;
      case 'plan_decision':
        this.update(`plan:${e.plan_id}`, (it) =>
          it.kind === 'plan'
            ? { ...it, decision: { decision: e.decision, feedback: e.feedback } }
            : it,
        );
        break;
      case 'agent_commands':
        this.agentCommands = e.commands;
        break;
      case 'agent_modes':
      case 'agent_options':
      case 'agent_usage':
        this.applyAgentState(e);
        break;
      case 'todos':
        // One dock describes one run: the root agent's list (sub-agents report through results).
        if (e.agent_id === 'root') this.todos = e.items;
        break;
      case 'device_tool_call':
        this.push(
          {
            ...base,
            kind: 'device_call',
            callId: e.call_id,
            deviceId: e.device_id,
            toolId: e.tool_id,
            args: e.args,
          },
          `dev:${e.call_id}`,
        );
        break;
      case 'device_tool_result':
        this.update(`dev:${e.call_id}`, (it) =>
          it.kind === 'device_call' ? { ...it, result: e } : it,
        );
        break;
      case 'run_state':
        this.runState = e.state;
        // A failure right after its error event was said there, a stop right after the answer
        // it cut short says so on that answer: once is enough.
        if (e.state === 'failed' && this.items.at(-1)?.kind === 'error') break;
        if (e.state === 'stopped' && this.lastIsStoppedAnswer()) break;
        if (e.state === 'stopped' || e.state === 'failed') {
          const text =
            e.state === 'stopped'
              ? e.reason === 'stopped by the user' || !e.reason
                ? 'Stopped by you.'
                : `Stopped: ${e.reason}`
              : `Run failed${e.reason ? `: ${e.reason}` : ''}`;
          this.push({
            ...base,
            kind: 'notice',
            text,
            tone: e.state === 'failed' ? 'danger' : 'warning',
          });
        }
        break;
      case 'mode_change':
        this.mode = e.mode;
        break;
      case 'compaction':
        this.push({
          ...base,
          kind: 'notice',
          // /clear leaves a fixed summary: nothing was summarized, the context starts over.
          text:
            e.summary === CLEARED_SUMMARY
              ? 'Context cleared: the agent starts over from here (what is above stays on screen)'
              : 'Earlier conversation was summarized to save context',
          tone: 'neutral',
        });
        break;
      case 'subagent':
        this.push({
          ...base,
          kind: 'notice',
          text: `Sub-agent ${e.agent_id} ${e.state}: ${e.task}`,
          tone: e.state === 'failed' ? 'danger' : 'neutral',
        });
        break;
      case 'shell_started':
        this.shells.set(e.shell_id, {
          shellId: e.shell_id,
          command: e.command,
          cwd: e.cwd,
          state: 'running',
          exitCode: null,
          signal: null,
          startedTs: e.ts,
        });
        break;
      case 'shell_exited': {
        const s = this.shells.get(e.shell_id);
        if (s)
          this.shells.set(e.shell_id, {
            ...s,
            state: 'exited',
            exitCode: e.exit_code,
            signal: e.signal,
            endedTs: e.ts,
          });
        break;
      }
      case 'diagnostics':
        this.push({
          ...base,
          kind: 'diagnostics',
          file: e.file,
          text: e.text,
          ...(e.errors !== undefined ? { errors: e.errors, warnings: e.warnings ?? 0 } : {}),
        });
        break;
      case 'hook_run':
        this.push({
          ...base,
          kind: 'hook',
          event: e.hook_event,
          command: e.command,
          scope: e.scope,
          toolName: e.tool_name,
          outcome: e.outcome,
          exitCode: e.exit_code,
          durationMs: e.duration_ms,
          stdout: e.stdout,
          stderr: e.stderr,
        });
        break;
      case 'error':
        this.push({ ...base, kind: 'error', message: e.message, code: e.code });
        break;
      case 'notice':
        this.push({ ...base, kind: 'notice', text: e.message, tone: 'neutral' });
        break;
      case 'usage':
        this.usage.add(e);
        break;
      case 'model_change':
        this.chosenModel = e.model;
        break;
      case 'checkpoint':
        break;
      case 'rewind':
        this.rewind(e, base);
        break;
      case 'session_forked':
        this.push({ ...base, kind: 'fork', fromSession: e.from_session });
        break;
      case 'regenerate':
        this.regenerate(e);
        break;
    }
    return true;
  }

  /**
   * A regenerate makes the turn's answer so far its first version (or its latest one the one
   * before); what arrives next is the new version, shown. O(items), rare.
   */
  private regenerate(e: SessionEventOf<'regenerate'>): void {
    const turn = e.from_seq;
    let t = this.turns.get(turn);
    if (!t) {
      t = { count: 1, shown: 0 };
      this.turns.set(turn, t);
      this.items.forEach((it, i) => {
        if (it.seq >= turn && it.seq < e.seq && !it.version)
          this.items[i] = { ...it, version: { turn, n: 0 } };
      });
    }
    t.count++;
    this.answering = turn;
    this.showVersion(turn, t.count - 1);
  }

  /**
   * Shows again the versions `prev` showed, for each turn whose versions are the same ones: a
   * projection rebuilt (a snapshot after the replay, an older page) keeps what the user chose,
   * while a turn regenerated since shows its new answer.
   */
  keepVersionsOf(prev: SessionModel): void {
    for (const [turn, p] of prev.turns)
      if (this.turns.get(turn)?.count === p.count) this.showVersion(turn, p.shown);
  }

  /** Shows answer version `n` of the regenerated `turn` in place of the others. O(items), rare. */
  showVersion(turn: number, n: number): boolean {
    const t = this.turns.get(turn);
    if (!t || n < 0 || n >= t.count) return false;
    t.shown = n;
    this.items.forEach((it, i) => {
      if (it.version?.turn !== turn) return;
      const other = it.version.n !== n;
      if ((it.otherVersion ?? false) !== other) this.items[i] = { ...it, otherVersion: other };
    });
    return true;
  }

  /**
   * What each turn's answer offers, by the key of the item it follows: Regenerate on the latest
   * turn's, and the versions of a regenerated turn. `shown`: the items drawn, oldest first.
   */
  answers(shown: readonly TimelineItem[]): Record<string, AnswerInfo> {
    const out: Record<string, AnswerInfo> = {};
    let user: string | null = null;
    let answer: TimelineItem | null = null;
    const close = (latest: boolean) => {
      if (!answer) return;
      const turn = answer.version?.turn;
      const t = turn === undefined ? undefined : this.turns.get(turn);
      const versions = t && turn !== undefined ? { turn, shown: t.shown, count: t.count } : null;
      if ((latest && user) || versions)
        out[answer.key] = { regenerate: latest ? user : null, versions };
    };
    // The answer's anchor is its last root text, else its last item (a turn that only failed).
    let spoke = false;
    for (const it of shown) {
      if (it.kind === 'user') {
        close(false);
        user = it.messageId;
        answer = null;
        spoke = false;
      } else if (it.kind === 'assistant' && it.agentId === 'root') {
        answer = it;
        spoke = true;
      } else if (!spoke) answer = it;
    }
    close(true);
    return out;
  }

  /** A rewind folds the turns it took back; undoing it unfolds them (O(items), rare). */
  private rewind(e: SessionEventOf<'rewind'>, base: { key: string; seq: number; ts: number }) {
    if (e.undo_of !== undefined) {
      this.rewinds.delete(e.undo_of);
      this.update(`rewind:${e.undo_of}`, (it) => ({ ...it, undone: true }) as TimelineItem);
    } else {
      if (e.mode !== 'files') this.rewinds.set(e.seq, [e.to_seq, e.seq]);
      this.push(
        {
          ...base,
          kind: 'rewind',
          mode: e.mode,
          restored: e.restored.length,
          created: e.created.length,
          deleted: e.deleted.length,
          kept: e.kept,
          notStored: e.not_stored,
          undone: false,
        },
        `rewind:${e.seq}`,
      );
    }
    const ranges = [...this.rewinds.values()];
    this.items.forEach((it, i) => {
      const rewound = ranges.some(([from, to]) => it.seq >= from && it.seq < to);
      if ((it.rewound ?? false) !== rewound) this.items[i] = { ...it, rewound };
    });
  }

  /** The last item is an answer the user stopped (it says "Stopped by you" itself). */
  private lastIsStoppedAnswer(): boolean {
    const last = this.items.at(-1);
    return last?.kind === 'assistant' && last.stopped === true;
  }

  /** Whether a tool item is drawn (tools drawn by their own event show only when they failed). */
  static visible(item: TimelineItem): boolean {
    if (item.rewound || item.otherVersion) return false;
    if (item.kind !== 'tool' || !DRAWN_BY_OWN_EVENT.has(item.name)) return true;
    return item.result?.kind === 'error';
  }

  private project_(e: SessionEvent): void {
    if (e.type === 'session_created' || e.type === 'project_switch') {
      this.project = e.type === 'session_created' ? e.project : e.to;
      this.root = e.root;
    }
  }

  private push(item: TimelineItem, correlation?: string): void {
    if (correlation) this.at.set(correlation, this.items.length);
    const t = this.answering === null ? undefined : this.turns.get(this.answering);
    if (t && this.answering !== null)
      item = { ...item, version: { turn: this.answering, n: t.count - 1 } };
    this.items.push(item);
  }

  private update(correlation: string, fn: (it: TimelineItem) => TimelineItem): boolean {
    const i = this.at.get(correlation);
    if (i === undefined) return false;
    this.items[i] = fn(this.items[i]!);
    return true;
  }
}

function elicitationItem(e: SessionEventOf<'elicitation'>): ElicitationItem {
  return {
    key: `e${e.seq}`,
    seq: e.seq,
    ts: e.ts,
    kind: 'elicitation',
    elicitationId: e.elicitation_id,
    server: e.server,
    ...(e.asker ? { asker: e.asker } : {}),
    message: e.message,
    mode: e.mode,
    ...(e.form ? { form: e.form } : {}),
    ...(e.url ? { url: e.url } : {}),
  };
}
