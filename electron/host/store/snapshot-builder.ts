import type { SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import type { SessionSnapshot, SnapshotShell } from '../../../shared/protocol/session-snapshot';

/**
 * Folds a session's events, in seq order, into its current state (the `sessions.open` snapshot).
 * O(1) per event, so it can follow a live log and resume from a stored snapshot: the open path
 * never reads the history it summarises.
 */
export class SnapshotBuilder {
  private seq = 0;
  private title = '';
  private project: string | null = null;
  private root: string | null = null;
  private mode: SessionSnapshot['mode'] = null;
  private todos: SessionSnapshot['todos'] = null;
  private runState: SessionSnapshot['run_state'] = 'idle';
  /** Open ask_user questions and MCP elicitations, by id: their cards are drawn however old. */
  private readonly questions = new Map<
    string,
    SessionEventOf<'question'> | SessionEventOf<'elicitation'>
  >();
  private readonly shells = new Map<string, SnapshotShell>();
  /** An external agent's latest modes, settings and usage events, by type. */
  private readonly agentState = new Map<string, SessionEvent>();

  static from(snapshot: SessionSnapshot): SnapshotBuilder {
    const b = new SnapshotBuilder();
    b.seq = snapshot.seq;
    b.title = snapshot.title;
    b.project = snapshot.project;
    b.root = snapshot.root;
    b.mode = snapshot.mode;
    b.todos = snapshot.todos;
    b.runState = snapshot.run_state;
    for (const q of snapshot.open_questions)
      if (q.type === 'question') b.questions.set(q.question_id, q);
      else if (q.type === 'elicitation') b.questions.set(q.elicitation_id, q);
    for (const s of snapshot.shells) b.shells.set(s.shell_id, s);
    for (const e of snapshot.agent_state) b.agentState.set(e.type, e);
    return b;
  }

  get currentRunState(): SessionSnapshot['run_state'] {
    return this.runState;
  }

  /** Events folded in so far (the next seq expected). */
  get length(): number {
    return this.seq;
  }

  /** Moves past an event that does not change the snapshot (an indexing scan did not parse it). */
  advance(seq: number): void {
    this.seq = Math.max(this.seq, seq + 1);
  }

  apply(e: SessionEvent): void {
    // Seq gaps (a corrupt line skipped) still move the snapshot past the event.
    this.seq = Math.max(this.seq, e.seq + 1);
    switch (e.type) {
      case 'session_created':
        this.title = e.title;
        this.project = e.project;
        this.root = e.root;
        break;
      case 'session_renamed':
        this.title = e.title;
        break;
      case 'agent_modes':
      case 'agent_options':
      case 'agent_usage':
        this.agentState.set(e.type, e);
        break;
      case 'project_switch':
        this.project = e.to;
        this.root = e.root;
        break;
      case 'mode_change':
        this.mode = e.mode;
        break;
      case 'todos':
        if (e.agent_id === 'root') this.todos = e.items;
        break;
      case 'run_state':
        this.runState = e.state;
        break;
      case 'question':
        this.questions.set(e.question_id, e);
        break;
      case 'question_answer':
      case 'question_expired':
      case 'question_superseded':
        this.questions.delete(e.question_id);
        break;
      case 'elicitation':
        this.questions.set(e.elicitation_id, e);
        break;
      case 'elicitation_answer':
        this.questions.delete(e.elicitation_id);
        break;
      case 'shell_started':
        this.shells.set(e.shell_id, {
          shell_id: e.shell_id,
          command: e.command,
          cwd: e.cwd,
          state: 'running',
          exit_code: null,
          signal: null,
          started_ts: e.ts,
        });
        break;
      case 'shell_exited': {
        const s = this.shells.get(e.shell_id);
        if (s)
          this.shells.set(e.shell_id, {
            ...s,
            state: 'exited',
            exit_code: e.exit_code,
            signal: e.signal,
            ended_ts: e.ts,
          });
        break;
      }
      default:
        break;
    }
  }

  snapshot(): SessionSnapshot {
    return {
      seq: this.seq,
      title: this.title,
      project: this.project,
      root: this.root,
      mode: this.mode,
      todos: this.todos,
      run_state: this.runState,
      open_questions: [...this.questions.values()],
      shells: [...this.shells.values()],
      agent_state: [...this.agentState.values()],
    };
  }
}

/** Event types that change a snapshot: the only lines an indexing scan has to parse. */
export const SNAPSHOT_TYPES: ReadonlySet<string> = new Set([
  'session_created',
  'session_renamed',
  'project_switch',
  'mode_change',
  'todos',
  'run_state',
  'question',
  'question_answer',
  'question_expired',
  'question_superseded',
  'elicitation',
  'elicitation_answer',
  'shell_started',
  'shell_exited',
  'agent_modes',
  'agent_options',
  'agent_usage',
]);
