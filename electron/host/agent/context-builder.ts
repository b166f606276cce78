import type { ImageWire, SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import { visibleEvents } from '../../../shared/protocol/rewinds';
import { errorPayload } from '../../../shared/tools/payload';
import type { ModelImage, ModelMessage, ModelToolCall, ReasoningBlocks } from '../models/types';
import { formatAnswerText } from './question-format';
import { renderToolResult, resultImages } from './render-result';
import { withMentionedFiles } from '../sessions/file-mentions';
import { withPastedTexts } from '../../../shared/attachments/pasted-text';
import { messageChars } from './token-estimate';
import { sniffImageBase64 } from '../../../shared/images/image-file';
import { imageRefs, type ImageRef } from './image-budget';

// The model's context, rebuilt from the session log for one agent: a restarted host continues a
// session from its log alone. A model turn starts at its `usage` event (appended first), gathers
// its text and tool calls, and its results follow it. User-side input that arrives while a turn's
// calls are outstanding is placed after their results, as both wire protocols require. The latest
// compaction of this agent replaces everything up to its `upto_seq` with its summary. A turn's
// reasoning blocks (thinking with signatures, encrypted reasoning items) travel with it verbatim;
// a paused turn (pause_turn) ends the context so the model continues it.

interface Turn {
  text: string;
  calls: ModelToolCall[];
  results: Map<string, Extract<ModelMessage, { role: 'tool' }>>;
  reasoning?: ReasoningBlocks;
  paused?: boolean;
}

/** A pasted image as the model is shown it, with its size read from its header (for the estimate). */
const toModelImages = (images: readonly ImageWire[] | undefined): ModelImage[] =>
  (images ?? []).map((i) => {
    const info = sniffImageBase64(i.data);
    return {
      mediaType: i.media_type,
      data: i.data,
      width: info?.width ?? null,
      height: info?.height ?? null,
    };
  });

export const INTERRUPTED_MESSAGE =
  'no result was recorded for this call: the run was interrupted before it finished';

export interface ContextOptions {
  /** A sub-agent's task: its first user message. */
  task?: string;
  /** Rendered results by event (events never change, and rendering a big result every step adds up). */
  rendered?: WeakMap<object, string>;
}

export function latestCompaction(
  events: readonly SessionEvent[],
  agentId: string,
): SessionEventOf<'compaction'> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'compaction' && e.agent_id === agentId) return e;
  }
  return undefined;
}

/** Where an agent's context starts in the visible log: after its latest compaction, if any. */
function contextStart(events: readonly SessionEvent[], agentId: string) {
  const compaction = latestCompaction(events, agentId);
  const after = compaction ? events.findIndex((e) => e.seq > compaction.upto_seq) : 0;
  return { compaction, start: after === -1 ? events.length : after };
}

/** Folds a whole log into one agent's context (what a full rebuild does). */
export function foldLog(
  log: readonly SessionEvent[],
  agentId: string,
  opts: ContextOptions = {},
): ContextFold {
  // A rewound conversation leaves its hidden turns (and any compaction among them) out.
  const events = visibleEvents(log);
  const { compaction, start } = contextStart(events, agentId);
  const fold = new ContextFold(agentId, opts, compaction);
  for (const e of events) fold.note(e);
  for (let i = start; i < events.length; i++) fold.apply(events[i]!);
  return fold;
}

export function buildContext(
  log: readonly SessionEvent[],
  agentId: string,
  opts: ContextOptions = {},
): ModelMessage[] {
  return foldLog(log, agentId, opts).messages();
}

/**
 * The context as a fold over the log: `apply` takes the events in order, `messages` reads the
 * context as of the last one (closing the open turn and the pending user input in a copy, so the
 * fold can go on). Closed messages never change, so an agent's context can follow a growing log
 * one event at a time (AgentContext) instead of being rebuilt each step.
 */
export class ContextFold {
  /** Closed messages: nothing later changes them. */
  private readonly closed: ModelMessage[] = [];
  /** Their size as the token estimate counts it. */
  private closedChars = 0;
  /** Their images, oldest first. */
  private readonly closedImages: ImageRef[] = [];
  private user: string[] = [];
  private images: ModelImage[] = [];
  private turn: Turn | null = null;
  private readonly isRoot: boolean;
  /** Lookups by id, over every visible event (noted before the fold reaches them). */
  private readonly questions = new Map<string, SessionEventOf<'question'>>();
  private readonly expanded = new Map<string, string>();
  /** The user messages folded, and late answers folded before their question was noted. */
  readonly foldedMessages = new Set<string>();
  readonly unmatchedAnswers = new Set<string>();

  constructor(
    private readonly agentId: string,
    private readonly opts: ContextOptions,
    /** This agent's latest compaction: the context starts with its summary. */
    readonly compaction?: SessionEventOf<'compaction'>,
  ) {
    this.isRoot = agentId === 'root';
    if (opts.task) this.user.push(opts.task);
    if (compaction)
      this.user.push(
        `[Earlier turns of this conversation were compacted. Summary:]\n${compaction.summary}`,
      );
  }

  /** Records what later events look up by id (a question, a command's expansion). */
  note(e: SessionEvent): void {
    if (e.type === 'question') this.questions.set(e.question_id, e);
    else if (e.type === 'command_expanded') this.expanded.set(e.message_id, e.text);
  }

  apply(e: SessionEvent): void {
    const { agentId, isRoot, opts } = this;
    switch (e.type) {
      case 'user_message':
        if (isRoot) {
          this.foldedMessages.add(e.message_id);
          this.userText(
            withPastedTexts(
              withMentionedFiles(this.expanded.get(e.message_id) ?? e.text, e.mentions),
              e.pastes,
            ),
            toModelImages(e.images),
          );
        }
        break;
      case 'usage':
        if (e.agent_id === agentId) this.startTurn('');
        break;
      case 'assistant_message': {
        if (e.agent_id !== agentId) break;
        const turn = this.turn;
        const t: Turn =
          turn && turn.text === '' && turn.calls.length === 0 ? turn : this.startTurn('');
        t.text = e.text;
        if (e.reasoning) t.reasoning = e.reasoning;
        t.paused = e.stop_reason === 'pause_turn';
        break;
      }
      case 'tool_call': {
        if (e.agent_id !== agentId) break;
        const turn = this.turn;
        const t: Turn = turn && turn.results.size === 0 ? turn : this.startTurn('');
        t.calls.push({ id: e.call_id, name: e.name, args: e.args });
        break;
      }
      case 'tool_result': {
        const t = this.turn;
        if (e.agent_id !== agentId || !t) break;
        if (!t.calls.some((c) => c.id === e.call_id)) break;
        let content = opts.rendered?.get(e);
        if (content === undefined) {
          content = renderToolResult(e.payload);
          opts.rendered?.set(e, content);
        }
        t.results.set(e.call_id, {
          role: 'tool',
          callId: e.call_id,
          name: e.name,
          content,
          isError: e.payload.kind === 'error',
          ...resultImages(e.payload),
        });
        break;
      }
      case 'instructions_loaded':
        if (e.agent_id === agentId)
          this.user.push(`[Instructions from ${e.file}, for work in its directory:]\n${e.text}`);
        break;
      case 'hook_run':
        // What the user's hook said to the model: its context, or why it blocked.
        if (e.to_model && e.agent_id === agentId)
          this.userText(`[${e.hook_event} hook (${e.command}):]\n${e.to_model}`);
        break;
      case 'diagnostics':
        if (e.agent_id === agentId)
          this.user.push(`[Diagnostics after your edit of ${e.file}:]\n${e.text}`);
        break;
      case 'question_answer': {
        if (!isRoot || e.delivery !== 'late') break;
        const q = this.questions.get(e.question_id);
        if (!q) this.unmatchedAnswers.add(e.question_id);
        this.userText(
          `[Late answer to your earlier question${q ? ` (${q.questions.map((x) => x.header).join(', ')})` : ''}:]\n${q ? formatAnswerText(q.questions, e.answer) : JSON.stringify(e.answer)}`,
        );
        break;
      }
      case 'mode_change':
        if (isRoot) this.userText(`[The permission mode is now "${e.mode}".]`);
        break;
      case 'project_switch':
        if (isRoot) this.userText(`[The session moved to project ${e.to} at ${e.root}.]`);
        break;
      default:
        break;
    }
  }

  /** The context as of the events applied so far. */
  messages(): ModelMessage[] {
    return [...this.closed, ...this.tail()];
  }

  /** Its size as the token estimate counts it (messageChars of every message). */
  chars(): number {
    return this.tail().reduce((n, m) => n + messageChars(m), this.closedChars);
  }

  /** The images of `messages()`, oldest first (each with its message's index there). */
  imageRefs(): ImageRef[] {
    const tail = imageRefs(this.tail(), this.closed.length);
    return tail.length ? [...this.closedImages, ...tail] : this.closedImages.slice();
  }

  /** What closing now would add: the open turn, the pending user input, a final nudge. */
  private tail(): ModelMessage[] {
    const out = this.turn ? turnMessages(this.turn) : [];
    const user = this.pendingUser();
    if (user) out.push(user);
    const last = out[out.length - 1] ?? this.closed[this.closed.length - 1];
    if (!last || (last.role === 'assistant' && !last.paused))
      out.push({ role: 'user', text: '(continue)' });
    return out;
  }

  private pendingUser(): ModelMessage | null {
    if (!this.user.length && !this.images.length) return null;
    return {
      role: 'user',
      text: this.user.join('\n\n'),
      ...(this.images.length ? { images: this.images.slice() } : {}),
    };
  }

  private push(m: ModelMessage): void {
    this.closed.push(m);
    this.closedChars += messageChars(m);
    if (m.role !== 'assistant' && m.images)
      this.closedImages.push(...imageRefs([m], this.closed.length - 1));
  }

  private closeTurn(): void {
    if (this.turn) for (const m of turnMessages(this.turn)) this.push(m);
    this.turn = null;
    const user = this.pendingUser();
    if (user) this.push(user);
    this.user = [];
    this.images = [];
  }

  private startTurn(text: string): Turn {
    this.closeTurn();
    return (this.turn = { text, calls: [], results: new Map() });
  }

  private userText(text: string, withImages: ModelImage[] = []): void {
    const t = this.turn;
    if (t && (t.calls.length === 0 || t.results.size === t.calls.length)) this.closeTurn();
    this.user.push(text);
    this.images.push(...withImages);
  }
}

/** A turn's assistant message, then a result for each call (an interrupted call gets one too). */
function turnMessages(turn: Turn): ModelMessage[] {
  const out: ModelMessage[] = [
    {
      role: 'assistant',
      text: turn.text,
      // A copy: the open turn may still gain calls after this is read.
      toolCalls: turn.calls.slice(),
      ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
      ...(turn.paused ? { paused: true } : {}),
    },
  ];
  for (const call of turn.calls)
    out.push(
      turn.results.get(call.id) ?? {
        role: 'tool',
        callId: call.id,
        name: call.name,
        content: renderToolResult(errorPayload('interrupted', INTERRUPTED_MESSAGE)),
        isError: true,
      },
    );
  return out;
}
