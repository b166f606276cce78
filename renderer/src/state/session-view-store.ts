import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SessionEvent, TransientEvent } from '../../../shared/protocol/events';
import type { SessionSnapshot } from '../../../shared/protocol/session-snapshot';
import type { PermissionModeWire } from '../../../shared/protocol/common';
import { SessionModel } from './session-model';
import type { AnswerInfo, RunState, ShellInfo, TimelineItem, TodoItem } from './timeline-items';
import { UsageTotals } from './usage-totals';

/** Text of an answer streaming in, until its assistant_message lands. */
export interface StreamingText {
  text: string;
  agentId: string;
  /** The thinking streamed so far (an external agent's thought chunks). */
  thinking?: string;
}

/** A running tool call's latest progress (an MCP server's notifications/progress). */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

/**
 * What one session's views draw, immutable: every part keeps its identity until an event changes
 * it, so a view selecting a part re-renders only then (a streamed delta changes `streaming` and
 * nothing else; a tool result replaces one item and leaves the others as they were).
 */
export interface SessionViewState {
  /** The first page arrived: the timeline can draw and scroll to the end. */
  loaded: boolean;
  /** Items the timeline draws (rewound turns and self-drawn tools left out), oldest first. */
  items: TimelineItem[];
  /** What each turn's answer offers (Regenerate, versions), by the key of the item it follows. */
  answers: Record<string, AnswerInfo>;
  /** Any item at all, drawn or not (the first-run banner folds once the session has one). */
  hasItems: boolean;
  /** A question waits for its answer (a new message would supersede it). */
  pendingQuestion: boolean;
  /** The first seq held (a paged session starts at its window) and the next expected one. */
  base: number;
  length: number;
  title: string;
  project: string | null;
  root: string | null;
  mode: PermissionModeWire | null;
  runState: RunState;
  chosenModel: string | null;
  /** The `/` commands the session's external agent offers. */
  agentCommands: SessionModel['agentCommands'];
  agentModes: SessionModel['agentModes'];
  agentOptions: SessionModel['agentOptions'];
  agentUsage: SessionModel['agentUsage'];
  todos: TodoItem[] | null;
  shells: ShellInfo[];
  usage: UsageTotals;
  streaming: Record<string, StreamingText>;
  /** Progress of calls still running, by call id; gone when the result lands or the run ends. */
  progress: Record<string, ToolProgress>;
}

/** `next` when it differs from `prev` item by item, else `prev` (its identity is what views see). */
function same<T>(prev: T[], next: T[]): T[] {
  if (prev.length !== next.length) return next;
  for (let i = 0; i < next.length; i++) if (prev[i] !== next[i]) return next;
  return prev;
}

/** `next` when it says anything `prev` did not (a few entries: one per regenerated turn, + 1). */
function sameAnswers(
  prev: Record<string, AnswerInfo> | undefined,
  next: Record<string, AnswerInfo>,
): Record<string, AnswerInfo> {
  return prev && JSON.stringify(prev) === JSON.stringify(next) ? prev : next;
}

/**
 * One session's state for its views: a zustand store of immutable parts, fed by the session's
 * sync (events, pages, deltas). The projection underneath (SessionModel) is incremental and
 * private; every change is published as a new state whose unchanged parts are the old objects.
 */
export class SessionViewStore {
  readonly store: StoreApi<SessionViewState>;
  private model = new SessionModel();
  /** Paging: the events held (from `model.base` on) and the host's snapshot before them. */
  private events: SessionEvent[] = [];
  private snapshot: SessionSnapshot | null = null;
  /** A page of older events is on its way (scrolling asks again and again meanwhile). */
  loadingOlder = false;

  constructor() {
    this.store = createStore<SessionViewState>(() => this.project({} as SessionViewState));
  }

  get state(): SessionViewState {
    return this.store.getState();
  }

  /** Adds durable events in seq order; duplicates (a replay overlapping a page) are ignored. */
  addEvents(incoming: readonly SessionEvent[]): void {
    let changed = false;
    let streaming = this.state.streaming;
    let progress = this.state.progress;
    for (const e of incoming) {
      // A duplicate (replay overlapping live) is dropped; a gap is damage the host reported.
      if (!this.model.apply(e)) continue;
      changed = true;
      this.events.push(e);
      if (e.type === 'assistant_message' && streaming[e.message_id]) {
        streaming = { ...streaming };
        delete streaming[e.message_id];
      }
      // A finished run leaves no half-streamed text behind (a stop mid-message).
      if (e.type === 'run_state' && e.state !== 'running' && Object.keys(streaming).length)
        streaming = {};
      if (e.type === 'tool_result' && progress[e.call_id]) {
        progress = { ...progress };
        delete progress[e.call_id];
      }
      if (e.type === 'run_state' && e.state !== 'running' && Object.keys(progress).length)
        progress = {};
    }
    if (changed) this.publish({ streaming, progress });
  }

  /** The `sessions.open` answer: the snapshot and the newest window, from seq `start`. */
  openWindow(snapshot: SessionSnapshot | null, events: readonly SessionEvent[], start: number) {
    this.snapshot = snapshot;
    this.events = events.filter((e) => e.seq >= start);
    this.rebuild(start);
  }

  /** The topic's snapshot (after its replay): the projection is rebuilt on it. */
  setSnapshot(snapshot: SessionSnapshot): void {
    this.snapshot = snapshot;
    this.rebuild(this.model.base);
  }

  /** An older page (seqs `start` .. base - 1): the projection is rebuilt around it. */
  prependEvents(older: readonly SessionEvent[], start: number): void {
    const base = this.model.base;
    if (start >= base) return;
    // Only the seqs this view lacks, in order (a damaged log may have gaps); a page that does not
    // fit (a duplicate request answered twice) changes nothing.
    const page = older.filter((e) => e.seq >= start && e.seq < base);
    if (page.some((e, i) => i > 0 && e.seq <= page[i - 1]!.seq)) return;
    this.events = [...page, ...this.events];
    this.rebuild(start);
  }

  /** Live deltas, a frame's worth in one update: one render of the streaming row, not one per token. */
  addTransients(events: readonly TransientEvent[]): void {
    const streaming = { ...this.state.streaming };
    let progress = this.state.progress;
    for (const e of events) {
      if (e.type === 'tool_progress') {
        progress = {
          ...progress,
          [e.call_id]: { progress: e.progress, total: e.total, message: e.message },
        };
        continue;
      }
      const prev = streaming[e.message_id];
      streaming[e.message_id] = e.thinking
        ? {
            ...prev,
            text: prev?.text ?? '',
            agentId: e.agent_id,
            thinking: (prev?.thinking ?? '') + e.text,
          }
        : { ...prev, text: (prev?.text ?? '') + e.text, agentId: e.agent_id };
    }
    this.store.setState({ streaming, progress });
  }

  /** Draws answer version `n` of a regenerated turn in place of the one shown. */
  showVersion(turn: number, n: number): void {
    if (this.model.showVersion(turn, n)) this.publish({});
  }

  markLoaded(): void {
    if (!this.state.loaded) this.store.setState({ loaded: true });
  }

  /** A projection from `base`: the snapshot's state first, then the held events in order. */
  private rebuild(base: number): void {
    const model = new SessionModel(base);
    if (this.snapshot) model.applySnapshot(this.snapshot);
    for (const e of this.events) model.apply(e);
    model.keepVersionsOf(this.model);
    this.model = model;
    this.publish({});
  }

  private publish(extra: Partial<SessionViewState>): void {
    this.store.setState(this.project({ ...this.state, ...extra }));
  }

  /** The model's state as immutable parts, reusing `prev`'s objects for what did not change. */
  private project(prev: SessionViewState): SessionViewState {
    const m = this.model;
    const usage =
      prev.usage && prev.usage.calls === m.usage.calls
        ? prev.usage
        : Object.assign(new UsageTotals(), m.usage);
    const items = same(prev.items ?? [], m.items.filter(SessionModel.visible));
    const answers =
      items === prev.items && prev.answers
        ? prev.answers
        : sameAnswers(prev.answers, m.answers(items));
    return {
      loaded: prev.loaded ?? false,
      items,
      answers,
      hasItems: m.items.length > 0,
      pendingQuestion: m.items.some((i) => i.kind === 'question' && i.state === 'pending'),
      base: m.base,
      length: m.length,
      title: m.title,
      project: m.project,
      root: m.root,
      mode: m.mode,
      runState: m.runState,
      chosenModel: m.chosenModel,
      agentCommands: m.agentCommands,
      agentModes: m.agentModes,
      agentOptions: m.agentOptions,
      agentUsage: m.agentUsage,
      todos: m.todos,
      shells: same(prev.shells ?? [], [...m.shells.values()]),
      usage,
      streaming: prev.streaming ?? {},
      progress: prev.progress ?? {},
    };
  }
}

/**
 * Every session's view store, by id, made on first use and dropped when the session is deleted or
 * forgotten. The renderer's composition root makes one and hands it down by context.
 */
export class SessionViews {
  private readonly byId = new Map<string, SessionViewStore>();
  /** What a view without a session reads (nothing open): never written to. */
  readonly none = new SessionViewStore();

  get(id: string): SessionViewStore {
    let view = this.byId.get(id);
    if (!view) {
      view = new SessionViewStore();
      this.byId.set(id, view);
    }
    return view;
  }

  peek(id: string): SessionViewStore | undefined {
    return this.byId.get(id);
  }

  forget(id: string): void {
    this.byId.delete(id);
  }
}
