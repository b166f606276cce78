import { randomBytes } from 'node:crypto';
import type { Disposable } from '../lifecycle/disposable';
import { Emitter } from '../lifecycle/emitter';
import type { AppConfig } from '../config/schema';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import type { ShellInfo, ShellSessionPayload } from '../../../shared/tools/shell-payload';
import { DEFAULT_WRITE_WAIT_MS, RESULT_CAP_CHARS } from './constants';
import type { Capped } from './output-cap';
import type { ShellSink, ShellSubscription } from './output-stream';
import { killByToken } from './process-tree';
import { beyondEcho, hasMatchAfter, readPayload } from './read-output';
import { ShellSession } from './shell-session';
import type { ShellSpawner, Spawned } from './shell-spawner';

// The one owner of a session's shells (VS Code's ptyHost idea): nothing else spawns a PTY. One
// store serves both shell tools: at most `maxSessions` shells, running foreground commands
// included; finished background shells are evicted oldest first to make room, and a store full
// of running shells refuses a new one naming the cap. Idle running shells are reaped.

export interface ShellLimits {
  maxSessions: number;
  bufferChars: number;
  idleTimeoutMs: number;
  killGraceMs: number;
}

export function limitsFrom(config: AppConfig): ShellLimits {
  return {
    maxSessions: config.shells.max_sessions,
    bufferChars: config.shells.buffer_chars,
    idleTimeoutMs: config.shells.idle_timeout_s * 1000,
    killGraceMs: config.shells.kill_grace_ms,
  };
}

export interface StartRequest {
  command: string;
  cwd: string;
  root: string;
  config: AppConfig;
  tty: boolean;
}

export interface RunRequest extends StartRequest {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RunResult {
  info: ShellInfo;
  result: Capped;
  timedOut: boolean;
  sandboxWarnings: string[];
  /** Connections the egress proxy refused while it ran, with why and how to allow them. */
  networkRefused: string[];
}

/**
 * Starts a background shell somewhere the manager does not spawn it (an editor's terminal,
 * `mewbo acp`), given the token suffix its processes must carry; the manager owns it from there.
 */
export type ExternalSpawn = (tokenSuffix: string) => Promise<Spawned | { refused: ErrorPayload }>;

export interface ManagerOptions {
  spawner: ShellSpawner;
  limits: ShellLimits;
  /** The first background shell number (after the shells a previous run recorded). */
  firstBackground?: number;
  now?: () => number;
}

/** The reaper looks this often relative to the idle timeout (bounded to 0.25 s .. 60 s). */
const REAP_CHECKS_PER_TIMEOUT = 4;

export class ShellManager implements Disposable {
  private readonly shells = new Map<string, ShellSession>();
  private reserved = 0;
  private nextBackground = 1;
  private nextForeground = 1;
  private disposed = false;
  private readonly token = randomBytes(6).toString('hex');
  private readonly reaper: NodeJS.Timeout;
  private readonly started = new Emitter<ShellInfo>();
  private readonly exited = new Emitter<ShellInfo>();
  private readonly now: () => number;
  readonly onDidStart = this.started.event;
  readonly onDidExit = this.exited.event;

  constructor(private readonly opts: ManagerOptions) {
    this.now = opts.now ?? Date.now;
    this.nextBackground = opts.firstBackground ?? 1;
    const every = Math.min(
      60_000,
      Math.max(250, opts.limits.idleTimeoutMs / REAP_CHECKS_PER_TIMEOUT),
    );
    this.reaper = setInterval(() => void this.reapIdle(), every);
    this.reaper.unref();
  }

  get limits(): ShellLimits {
    return this.opts.limits;
  }

  /** Prefix of MEWBO_SHELL_TOKEN in every process this manager started. */
  get tokenPrefix(): string {
    return `${this.token}.`;
  }

  private reserve(): ErrorPayload | null {
    if (this.disposed) return errorPayload('shutting_down', 'the shell manager is shutting down');
    const max = this.opts.limits.maxSessions;
    while (this.shells.size + this.reserved >= max) {
      const finished = [...this.shells.values()].find((s) => s.status !== 'running');
      if (!finished) {
        return errorPayload(
          'shell_cap',
          `all ${max} shell slots hold running commands (the cap, shells.max_sessions, is ${max}); kill one with shell_session_tool operation "kill" or wait for one to finish`,
          { cap: max, running: this.shells.size },
        );
      }
      this.shells.delete(finished.id);
      void finished.dispose();
    }
    this.reserved++;
    return null;
  }

  private async spawn(
    req: StartRequest,
    background: boolean,
    elsewhere?: ExternalSpawn,
  ): Promise<ShellSession | ErrorPayload> {
    const refused = this.reserve();
    if (refused) return refused;
    const id = background ? `shell_${this.nextBackground++}` : `run_${this.nextForeground++}`;
    const token = `${this.tokenPrefix}${id}.`;
    let spawned;
    try {
      spawned = elsewhere
        ? await elsewhere(`${id}.`)
        : await this.opts.spawner.spawn({
            ...req,
            ...(this.consoleSize ? { size: this.consoleSize } : {}),
            background,
            token,
            graceMs: this.opts.limits.killGraceMs,
          });
    } finally {
      this.reserved--;
    }
    if ('refused' in spawned) return spawned.refused;
    const session = new ShellSession({
      id,
      command: req.command,
      cwd: req.cwd,
      background,
      spawned,
      bufferChars: this.opts.limits.bufferChars,
      resultCap: background ? null : RESULT_CAP_CHARS,
      token,
      now: this.now,
    });
    this.shells.set(id, session);
    session.onDidExit((info) => this.exited.fire(info));
    this.started.fire(session.info());
    if (this.disposed) void session.terminate('shutdown', 0);
    return session;
  }

  /**
   * The size the session's console last fitted to. A PTY started later is born at it, so a
   * program's first output is laid out for the pane it shows in (not 120x30 until a resize).
   */
  private consoleSize: { cols: number; rows: number } | null = null;

  /** A console fitted `shellId` (or, without one, measured the console pane): resize and remember. */
  fitted(cols: number, rows: number, shellId?: string): boolean {
    this.consoleSize = { cols, rows };
    if (shellId === undefined) return true;
    const shell = this.shells.get(shellId);
    if (!shell) return false;
    shell.resize(cols, rows);
    return true;
  }

  /** A background shell: returns once it is spawned (by `elsewhere` when given). */
  start(req: StartRequest, elsewhere?: ExternalSpawn): Promise<ShellSession | ErrorPayload> {
    return this.spawn(req, true, elsewhere);
  }

  /** A foreground command: resolves when it exited, or was killed at its timeout. */
  async run(req: RunRequest): Promise<RunResult | ErrorPayload> {
    const session = await this.spawn(req, false);
    if ('kind' in session) return session;
    let timedOut = false;
    const grace = this.opts.limits.killGraceMs;
    const timer = setTimeout(() => {
      timedOut = true;
      void session.terminate('timeout', grace);
    }, req.timeoutMs);
    const abort = () => void session.terminate('kill', grace);
    req.signal?.addEventListener('abort', abort);
    if (req.signal?.aborted) abort();
    const info = await session.whenExited;
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', abort);
    this.shells.delete(session.id);
    return {
      info,
      result: session.result(),
      timedOut,
      sandboxWarnings: session.sandboxWarnings,
      networkRefused: session.takeRefused(),
    };
  }

  /**
   * The egress proxy refused a connection of shell `shellId`; when it could not tell whose, every
   * running shell hears it (one too many told beats the one that made it not told).
   */
  noteRefused(shellId: string | null, reason: string): void {
    const shell = shellId === null ? undefined : this.shells.get(shellId);
    const told = shell ? [shell] : [...this.shells.values()].filter((s) => s.status === 'running');
    for (const s of told) s.noteRefused(reason);
  }

  get(id: string): ShellSession | undefined {
    return this.shells.get(id);
  }

  list(): ShellInfo[] {
    return [...this.shells.values()].map((s) => s.info());
  }

  /** Whether a command of this manager is still running (its launcher, so its tree, alive). */
  hasRunning(): boolean {
    for (const s of this.shells.values()) if (s.status === 'running') return true;
    return false;
  }

  /** The background shell `id`, checked against the caller's cursor; an error payload otherwise. */
  private lookup(id: string, cursor?: number): ShellSession | ErrorPayload {
    const session = this.shells.get(id);
    if (session?.background) return this.checkCursor(session, cursor) ?? session;
    const known = [...this.shells.values()].filter((s) => s.background).map((s) => s.id);
    return errorPayload(
      'not_found',
      `no background shell '${id}'${known.length ? `; known: ${known.join(', ')}` : '; none is running'}`,
      { shell_id: id },
    );
  }

  private checkCursor(session: ShellSession, cursor: number | undefined): ErrorPayload | null {
    if (cursor === undefined || cursor <= session.buffer.end) return null;
    return errorPayload(
      'invalid_args',
      `cursor ${cursor} is past the end of ${session.id}'s output (its cursor is ${session.buffer.end})`,
      { cursor },
    );
  }

  async read(
    id: string,
    opts: {
      cursor?: number;
      filter?: RegExp;
      filterSource?: string;
      waitMs?: number;
      signal?: AbortSignal;
    },
  ): Promise<ShellSessionPayload | ErrorPayload> {
    const session = this.lookup(id, opts.cursor);
    if ('kind' in session) return session;
    session.touch();
    const filter = opts.filter;
    if (opts.waitMs) {
      const from = opts.cursor ?? session.buffer.start;
      await session.waitForOutput(from, opts.waitMs, {
        signal: opts.signal,
        accept: filter ? (after) => hasMatchAfter(session, after, filter) : undefined,
      });
    }
    return readPayload(session, {
      operation: 'read',
      cursor: opts.cursor,
      filter,
      filterSource: opts.filterSource,
    });
  }

  async write(
    id: string,
    opts: {
      input: string;
      newline: boolean;
      cursor?: number;
      waitMs?: number;
      signal?: AbortSignal;
    },
  ): Promise<ShellSessionPayload | ErrorPayload> {
    const session = this.lookup(id, opts.cursor);
    if ('kind' in session) return session;
    if (session.status !== 'running') {
      const info = session.info();
      return errorPayload(
        'shell_exited',
        `${id} has ${info.status} (exit code ${info.exit_code}); writing to an exited session is refused`,
        { shell_id: id, status: info.status, exit_code: info.exit_code },
      );
    }
    if (!session.writable)
      return errorPayload(
        'not_writable',
        `${id} takes no input: it runs in the editor's terminal, which has no stdin; to drive a command interactively, start it with run_in_background and tty: true`,
        { shell_id: id },
      );
    session.touch();
    const before = session.buffer.end;
    // A terminal's Enter key is a carriage return; the line discipline turns it into a newline.
    session.write(opts.input + (opts.newline ? (session.tty ? '\r' : '\n') : ''));
    // On a terminal the echo of the input comes back first; wait for what the command printed.
    const tty = session.tty;
    await session.waitForOutput(before, opts.waitMs ?? DEFAULT_WRITE_WAIT_MS, {
      signal: opts.signal,
      accept: tty ? (after) => beyondEcho(session.buffer.read(after).text, opts.input) : undefined,
    });
    return readPayload(session, { operation: 'write', cursor: opts.cursor ?? before });
  }

  async kill(
    id: string,
    opts: { cursor?: number } = {},
  ): Promise<ShellSessionPayload | ErrorPayload> {
    const session = this.lookup(id, opts.cursor);
    if ('kind' in session) return session;
    session.touch();
    const from = opts.cursor ?? session.buffer.end;
    await session.terminate('kill', this.opts.limits.killGraceMs);
    return readPayload(session, { operation: 'kill', cursor: from });
  }

  /** Typing from a console; counts as a touch, like a tool's write. */
  input(id: string, data: string): boolean {
    const session = this.shells.get(id);
    if (!session || session.status !== 'running' || !session.writable) return false;
    session.touch();
    session.write(data);
    return true;
  }

  subscribe(id: string, fromCursor: number | undefined, sink: ShellSink): ShellSubscription | null {
    return this.shells.get(id)?.subscribe(fromCursor, sink) ?? null;
  }

  /** Kills background shells nobody touched for the idle timeout. */
  async reapIdle(): Promise<void> {
    const limit = this.opts.limits.idleTimeoutMs;
    const now = this.now();
    const idle = [...this.shells.values()].filter(
      (s) => s.background && s.status === 'running' && now - s.lastTouched >= limit,
    );
    await Promise.all(idle.map((s) => s.terminate('idle', this.opts.limits.killGraceMs)));
  }

  /** Kills every shell (quit, session deleted) and sweeps any stray that carries its token. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.reaper);
    const all = [...this.shells.values()];
    await Promise.all(all.map((s) => s.terminate('shutdown', this.opts.limits.killGraceMs)));
    killByToken(this.tokenPrefix);
    await Promise.all(all.map((s) => s.dispose()));
    this.shells.clear();
    this.started.dispose();
    this.exited.dispose();
  }
}
