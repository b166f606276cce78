import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import type { ShellInfo, ShellStatus } from '../../../shared/tools/shell-payload';
import {
  HOST_KILL_MARGIN_MS,
  MAX_REFUSALS_KEPT,
  MAX_URLS,
  PIPE_DRAIN_MS,
  REPLY_SETTLE_MS,
} from './constants';
import { HeadTailCollector, type Capped } from './output-cap';
import { OutputBatcher } from './output-batcher';
import { OutputStream, type ShellSink, type ShellSubscription } from './output-stream';
import { killByToken } from './process-tree';
import { RingBuffer } from './ring-buffer';
import type { ChildExit } from './shell-child';
import type { Spawned } from './shell-spawner';

// One shell command from spawn to exit: its output (ring buffer, live stream, and for a
// foreground run the head-and-tail result), its status from the process, and its end.

export type KillReason = NonNullable<ShellInfo['kill_reason']>;

export interface ShellSessionInit {
  id: string;
  command: string;
  cwd: string;
  background: boolean;
  spawned: Spawned;
  bufferChars: number;
  /** The foreground result cap; null for a background shell. */
  resultCap: number | null;
  token: string;
  now?: () => number;
}

// Stops at whitespace, quotes, brackets and ESC (a colour code right after the URL).
const URL_PATTERN = new RegExp(`https?://[^\\s"'<>\`\\\\${String.fromCharCode(27)})\\]]+`, 'g');

export class ShellSession implements Disposable {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly background: boolean;
  readonly token: string;
  readonly startedAt: number;
  readonly buffer: RingBuffer;
  readonly stream: OutputStream;
  private readonly spawned: Spawned;
  private readonly collector: HeadTailCollector | null;
  private readonly batcher = new OutputBatcher((text) => this.onData(text));
  private readonly now: () => number;
  private readonly appended = new Emitter<number>();
  private readonly exitedEmitter = new Emitter<ShellInfo>();
  private exit: ChildExit | null = null;
  private killReason: KillReason | null = null;
  private endedAt: number | null = null;
  private readonly urls: string[] = [];
  /** Connections of this shell the egress proxy refused, not yet told to the agent. */
  private refused: string[] = [];
  lastTouched: number;
  /**
   * How far the agent has read (the `cursor` of its last read, write or kill): a read without a
   * cursor learns from it what was evicted before it saw it (missed_characters).
   */
  agentReadTo = 0;
  readonly whenExited: Promise<ShellInfo>;
  readonly onDidAppend = this.appended.event;
  readonly onDidExit = this.exitedEmitter.event;

  constructor(init: ShellSessionInit) {
    this.id = init.id;
    this.command = init.command;
    this.cwd = init.cwd;
    this.background = init.background;
    this.token = init.token;
    this.spawned = init.spawned;
    this.now = init.now ?? Date.now;
    this.startedAt = this.lastTouched = this.now();
    this.buffer = new RingBuffer(init.bufferChars);
    this.collector = init.resultCap === null ? null : new HeadTailCollector(init.resultCap);
    const child = init.spawned.child;
    this.stream = new OutputStream(this.id, this.buffer, child, this.now);
    this.whenExited = new Promise((resolve) => this.exitedEmitter.event(resolve));
    child.onData((text) => this.batcher.push(text));
    child.onExit((exit) => this.onExit(exit));
  }

  /** The proxy refused a connection of this command: the agent reads why in its next result. */
  noteRefused(reason: string): void {
    if (!this.refused.includes(reason) && this.refused.length < MAX_REFUSALS_KEPT)
      this.refused.push(reason);
  }

  /** The refusals since the last call (each told once). */
  takeRefused(): string[] {
    const out = this.refused;
    this.refused = [];
    return out;
  }

  get status(): ShellStatus {
    if (!this.exit) return 'running';
    return this.killReason ? 'killed' : 'exited';
  }

  get writable(): boolean {
    return this.spawned.child.writable;
  }

  get tty(): boolean {
    return this.spawned.child.tty;
  }

  get pid(): number {
    return this.spawned.child.pid;
  }

  get reason(): KillReason | null {
    return this.killReason;
  }

  private onData(text: string): void {
    this.buffer.append(text);
    this.collector?.append(text);
    if (this.urls.length < MAX_URLS && text.includes('://')) {
      for (const match of text.matchAll(URL_PATTERN)) {
        const url = match[0].replace(/[.,;:]+$/, '');
        if (!this.urls.includes(url) && this.urls.length < MAX_URLS) this.urls.push(url);
      }
    }
    this.stream.notifyAppend(text.length);
    this.appended.fire(this.buffer.end);
  }

  private onExit(exit: ChildExit): void {
    // The last reads first: the exit follows every character of output.
    this.batcher.flush();
    this.exit = exit;
    this.endedAt = this.now();
    // Without the launcher, or when it was killed hard, strays may have left the tree.
    if (!this.spawned.supervised || exit.signal === 'SIGKILL') killByToken(this.token);
    const info = this.info();
    this.stream.notifyFinal({ type: 'shell_state', shell: info });
    this.exitedEmitter.fire(info);
    this.appended.fire(this.buffer.end);
  }

  info(): ShellInfo {
    const end = this.endedAt ?? this.now();
    return {
      shell_id: this.id,
      command: this.command,
      cwd: this.cwd,
      background: this.background,
      tty: this.tty,
      status: this.status,
      exit_code: this.exit?.exitCode ?? null,
      signal: this.exit?.signal ?? null,
      kill_reason: this.exit ? this.killReason : null,
      started_at: this.startedAt,
      ended_at: this.endedAt,
      duration_ms: Math.max(0, Math.round(end - this.startedAt)),
      cursor: this.buffer.end,
      urls: [...this.urls],
      sandbox: this.spawned.sandbox,
    };
  }

  get sandboxWarnings(): string[] {
    return this.spawned.warnings;
  }

  /** The foreground result: head and tail of everything written. */
  result(): Capped {
    return this.collector?.result() ?? { text: '', truncated: 0 };
  }

  touch(): void {
    this.lastTouched = this.now();
  }

  write(data: string): void {
    this.spawned.child.write(data);
  }

  resize(cols: number, rows: number): void {
    this.spawned.child.resize(cols, rows);
  }

  subscribe(fromCursor: number | undefined, sink: ShellSink): ShellSubscription {
    return this.stream.subscribe(fromCursor, sink, { type: 'shell_state', shell: this.info() });
  }

  /**
   * SIGTERM to the group (the launcher passes it to the whole tree and SIGKILLs what is left
   * after its grace period); if the process is still there after that, the host kills it.
   */
  async terminate(reason: KillReason, graceMs: number): Promise<void> {
    if (this.exit) return;
    this.killReason ??= reason;
    const child = this.spawned.child;
    child.signalGroup('SIGTERM');
    if (await this.exitedWithin(graceMs + HOST_KILL_MARGIN_MS)) return;
    child.signalGroup('SIGKILL');
    killByToken(this.token);
    await this.exitedWithin(PIPE_DRAIN_MS + HOST_KILL_MARGIN_MS);
  }

  private exitedWithin(ms: number): Promise<boolean> {
    if (this.exit) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.whenExited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Resolves once there is output past `after` (that `accept` takes, when given) followed by
   * REPLY_SETTLE_MS of quiet, or the process exited, or `waitMs` passed, or `signal` aborted.
   */
  waitForOutput(
    after: number,
    waitMs: number,
    opts: { signal?: AbortSignal; accept?: (from: number) => boolean } = {},
  ): Promise<void> {
    const deadline = this.now() + waitMs;
    const ready = () => this.buffer.end > after && (!opts.accept || opts.accept(after));
    // Output already there is returned at once; settling is for output that is still arriving.
    if (this.exit || waitMs <= 0 || opts.signal?.aborted || ready()) return Promise.resolve();
    return new Promise((resolve) => {
      let settle: NodeJS.Timeout | null = null;
      const finish = () => {
        clearTimeout(overall);
        if (settle) clearTimeout(settle);
        sub.dispose();
        opts.signal?.removeEventListener('abort', finish);
        resolve();
      };
      const check = () => {
        if (this.exit) return finish();
        if (!ready()) return;
        if (settle) clearTimeout(settle);
        settle = setTimeout(finish, Math.min(REPLY_SETTLE_MS, Math.max(0, deadline - this.now())));
      };
      const overall = setTimeout(finish, waitMs);
      const sub = this.appended.event(check);
      opts.signal?.addEventListener('abort', finish);
    });
  }

  async dispose(): Promise<void> {
    await this.terminate('shutdown', 0);
    this.batcher.dispose();
    this.stream.dispose();
    this.appended.dispose();
  }
}
