import type { SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import type { PermissionMode } from '../config/schema';
import type { ModelMessage } from '../models/types';
import { fetchedBy } from '../tool-search/history';
import type { ImageLimits } from '../models/image-limits';
import { foldLog, type ContextFold, type ContextOptions } from './context-builder';
import { applyImagePlan, planImages, type ImageRequest } from './image-budget';

// What the loop decides each step by, kept up to date with the session log instead of recomputed
// from it: each agent's context (its messages, their size for the token estimate, the compaction
// it starts from) and the permission mode. Each reads the events appended since it last looked,
// so a step costs the same at event 100 and at event 100,000. A context is folded again from the
// whole log only when an event changes its past: a rewind (turns hidden or shown again), a
// compaction of this agent (a new starting point), a command expansion of a message already
// folded, or a question arriving after its late answer was folded. The log itself only grows (it is
// append-only: a rewind is an event too).

/** The part of a session the state reads: its events by seq, and one past the last seq. */
export interface LogSource {
  readonly length: number;
  events(from?: number): readonly SessionEvent[];
}

/** One agent's context, following the log. */
export class AgentContext {
  private fold!: ContextFold;
  /** The next seq to fold. */
  private next = 0;
  /** Full folds so far (the first one included). */
  rebuilds = 0;

  constructor(
    private readonly log: LogSource,
    readonly agentId: string,
    private readonly opts: ContextOptions = {},
  ) {
    this.rebuild();
  }

  /** The messages for the provider, as of the newest event. */
  messages(): ModelMessage[] {
    this.sync();
    return this.fold.messages();
  }

  /** Their size as the token estimate counts it. */
  chars(): number {
    this.sync();
    return this.fold.chars();
  }

  /**
   * The messages for a provider with these image limits: the oldest images left out, each for a
   * note, as far as the caps and `roomTokens` (what the budget leaves beside the text) need
   * (image-budget.ts). Equals `limitImages(messages(), ...)`, from the images already folded.
   */
  request(limits: ImageLimits, roomTokens: number): ImageRequest {
    this.sync();
    const refs = this.fold.imageRefs();
    return applyImagePlan(
      this.fold.messages(),
      refs,
      planImages(refs, limits, roomTokens),
      this.noted,
    );
  }
  /** Messages whose images are all left out, noted (closed messages never change). */
  private readonly noted = new WeakMap<ModelMessage, ModelMessage>();

  /** The compaction the context starts from (this agent's latest one not rewound). */
  compaction(): SessionEventOf<'compaction'> | undefined {
    this.sync();
    return this.fold.compaction;
  }

  private sync(): void {
    const length = this.log.length;
    if (length === this.next) return;
    const fresh = this.log.events(this.next);
    this.next = length;
    for (const e of fresh) {
      if (this.changesPast(e)) return this.rebuild();
      this.fold.note(e);
      this.fold.apply(e);
    }
  }

  private changesPast(e: SessionEvent): boolean {
    switch (e.type) {
      case 'rewind':
      case 'regenerate':
        return true;
      case 'compaction':
        return e.agent_id === this.agentId;
      case 'command_expanded':
        return this.fold.foldedMessages.has(e.message_id);
      case 'question':
        return this.fold.unmatchedAnswers.has(e.question_id);
      default:
        return false;
    }
  }

  private rebuild(): void {
    this.next = this.log.length;
    this.fold = foldLog(this.log.events(), this.agentId, this.opts);
    this.rebuilds++;
  }
}

/** Names per agent gathered from the log, following it (events only ever add to them). */
class NamesByAgent {
  private next = 0;
  private readonly byAgent = new Map<string, Set<string>>();

  constructor(
    private readonly log: LogSource,
    private readonly namesIn: (e: SessionEvent) => { agentId: string; names: string[] } | null,
  ) {}

  of(agentId: string): ReadonlySet<string> {
    const length = this.log.length;
    if (length !== this.next) {
      for (const e of this.log.events(this.next)) {
        const got = this.namesIn(e);
        if (!got) continue;
        let set = this.byAgent.get(got.agentId);
        if (!set) this.byAgent.set(got.agentId, (set = new Set()));
        for (const n of got.names) set.add(n);
      }
      this.next = length;
    }
    return this.byAgent.get(agentId) ?? NONE;
  }
}
const NONE: ReadonlySet<string> = new Set();

/**
 * One run's view of its session: the permission mode, each agent's context, the instruction files
 * each agent has in its context, and the deferred tool schemas each has fetched.
 */
export class LoopState {
  private readonly contexts = new Map<string, AgentContext>();
  private readonly instructions: NamesByAgent;
  private readonly fetched: NamesByAgent;
  private modeNext = 0;
  private mode: PermissionMode | undefined;

  constructor(
    private readonly log: LogSource,
    private readonly opts: Pick<ContextOptions, 'rendered'> = {},
  ) {
    this.instructions = new NamesByAgent(log, (e) =>
      e.type === 'instructions_loaded' ? { agentId: e.agent_id, names: [e.file] } : null,
    );
    this.fetched = new NamesByAgent(log, fetchedBy);
  }

  /** The session's permission mode: its latest mode_change, else the configured one. */
  permissionMode(fallback: PermissionMode): PermissionMode {
    const length = this.log.length;
    if (length !== this.modeNext) {
      for (const e of this.log.events(this.modeNext))
        if (e.type === 'mode_change') this.mode = e.mode;
      this.modeNext = length;
    }
    return this.mode ?? fallback;
  }

  /** An agent's context (created on first use, from the whole log). */
  context(agentId: string, task?: string): AgentContext {
    let c = this.contexts.get(agentId);
    if (!c) {
      c = new AgentContext(this.log, agentId, { ...this.opts, ...(task ? { task } : {}) });
      this.contexts.set(agentId, c);
    }
    return c;
  }

  /** The nested instruction files loaded into an agent's context (instructions_loaded). */
  instructionFiles(agentId: string): ReadonlySet<string> {
    return this.instructions.of(agentId);
  }

  /** The deferred tools an agent has fetched with tool_search (fetchedFromHistory). */
  fetchedTools(agentId: string): ReadonlySet<string> {
    return this.fetched.of(agentId);
  }

  /** Drops a finished sub-agent's context. */
  forget(agentId: string): void {
    this.contexts.delete(agentId);
  }
}
