import { readFileSync } from 'node:fs';
import type { IPty } from 'node-pty';
import { lazyRequire } from '../system/lazy-require';
import { Emitter } from '../lifecycle/emitter';
import { DRAIN_QUIET_MS, PAUSED_EXIT_POLL_MS } from './constants';
import { signalQuietly } from './process-tree';
import { isLiveProcess } from '../system/proc-stat';
import { exitFrom, signalGroupOf, type ChildExit, type ShellChild } from './shell-child';

export interface PtySpawnOptions {
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Whether input may be written (false for a foreground run). */
  writable: boolean;
  /** The process is the launcher, which keeps the terminal open while told the host is paused. */
  supervised: boolean;
}

/** Running, not a zombie: a zombie's terminal is already closed. */
/** The launcher with no child left has finished the command and only keeps the terminal open. */
export function childless(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() === '';
  } catch {
    return true;
  }
}

const alive = isLiveProcess;

/**
 * node-pty, loaded at the first PTY: a process that never opens one (`mewbo tool read_file`)
 * does not pay for the native addon (issue #18, start-up).
 */
const nodePty = lazyRequire<typeof import('node-pty')>('node-pty');
function spawnPty(...args: Parameters<typeof import('node-pty').spawn>): IPty {
  return nodePty().spawn(...args);
}

/** A shell on a pseudo-terminal: forkpty makes it a session leader with the PTY as its terminal. */
export class PtyChild implements ShellChild {
  readonly tty = true;
  readonly writable: boolean;
  private readonly pty: IPty;
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ChildExit>();
  private exitPoll: NodeJS.Timeout | null = null;
  private paused = false;
  /** The launcher was told the host is paused, and not yet that it has drained. */
  private told = false;
  private quiet: NodeJS.Timeout | null = null;
  private received = 0;
  private done = false;
  private readonly supervised: boolean;
  readonly onData = this.data.event;
  readonly onExit = this.exit.event;

  constructor(file: string, args: string[], opts: PtySpawnOptions) {
    this.writable = opts.writable;
    this.supervised = opts.supervised;
    this.pty = spawnPty(file, args, {
      name: opts.env.TERM ?? 'xterm-256color',
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      env: opts.env,
      encoding: 'utf8',
    });
    this.pty.onData((d) => {
      this.received += d.length;
      if (this.told && !this.paused) this.armDrained();
      this.data.fire(d);
    });
    this.pty.onExit(({ exitCode, signal }) => {
      this.done = true;
      if (this.exitPoll) clearInterval(this.exitPoll);
      if (this.quiet) clearTimeout(this.quiet);
      this.exit.fire(exitFrom(exitCode, signal));
      this.data.dispose();
      this.exit.dispose();
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  write(data: string): void {
    if (this.writable && !this.done) this.pty.write(data);
  }

  /**
   * Flow control pauses reading. A PTY that closes while its reader is behind loses what was
   * still in the kernel (and node-pty drops its socket 200 ms after exit), so the launcher is
   * told (SIGUSR1) and keeps the terminal open after the command ends until told the host has
   * drained (SIGUSR2). While paused, a poll resumes reading once the command is done (the
   * launcher has no child left) or the process is gone. Without the launcher only that poll
   * remains, which narrows the loss but cannot close it.
   */
  pause(): void {
    const pid = this.pty.pid;
    if (this.done || this.paused || !alive(pid)) return;
    this.paused = true;
    this.pty.pause();
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = null;
    if (this.supervised && !this.told) {
      this.told = true;
      signalQuietly(pid, 'SIGUSR1');
    }
    this.exitPoll = setInterval(() => {
      if (!alive(pid) || (this.supervised && childless(pid))) this.resume();
    }, PAUSED_EXIT_POLL_MS);
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.exitPoll) clearInterval(this.exitPoll);
    this.exitPoll = null;
    if (this.done) return;
    this.pty.resume();
    this.armDrained();
  }

  /**
   * Tells the launcher the host has drained once no output arrived for DRAIN_QUIET_MS, checked
   * after a poll phase (setImmediate), so output the kernel still holds is read first.
   */
  private armDrained(): void {
    if (!this.told || this.paused || this.done) return;
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => {
      const seen = this.received;
      setImmediate(() => {
        this.quiet = null;
        if (this.received !== seen) return this.armDrained();
        if (this.paused || this.done || !this.told) return;
        this.told = false;
        signalQuietly(this.pty.pid, 'SIGUSR2');
      });
    }, DRAIN_QUIET_MS);
  }

  resize(cols: number, rows: number): void {
    if (!this.done) this.pty.resize(cols, rows);
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (!this.done) signalGroupOf(this.pty.pid, signal);
  }
}
