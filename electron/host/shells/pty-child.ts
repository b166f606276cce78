import type { IPty } from 'node-pty';
import { lazyRequire } from '../system/lazy-require';
import { Emitter } from '../lifecycle/emitter';
import { PAUSED_EXIT_POLL_MS } from './constants';
import { isLiveProcess as alive } from '../system/proc-stat';
import { exitFrom, signalGroupOf, type ChildExit, type ShellChild } from './shell-child';

export interface PtySpawnOptions {
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Whether input may be written (false for a foreground run). */
  writable: boolean;
}

/**
 * node-pty, loaded at the first PTY: a process that never opens one (`mewbo tool read_file`)
 * does not pay for the native addon (issue #18, start-up).
 */
const nodePty = lazyRequire<typeof import('node-pty')>('node-pty');
function spawnPty(...args: Parameters<typeof import('node-pty').spawn>): IPty {
  return nodePty().spawn(...args);
}

/**
 * A shell on a pseudo-terminal with no launcher (no sandbox): forkpty makes it a session leader
 * with the PTY as its terminal. Behind the launcher a shell is a LaunchedPtyChild.
 */
export class PtyChild implements ShellChild {
  readonly tty = true;
  readonly writable: boolean;
  private readonly pty: IPty;
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ChildExit>();
  private exitPoll: NodeJS.Timeout | null = null;
  private paused = false;
  private done = false;
  readonly onData = this.data.event;
  readonly onExit = this.exit.event;

  constructor(file: string, args: string[], opts: PtySpawnOptions) {
    this.writable = opts.writable;
    this.pty = spawnPty(file, args, {
      name: opts.env.TERM ?? 'xterm-256color',
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      env: opts.env,
      encoding: 'utf8',
    });
    this.pty.onData((d) => this.data.fire(d));
    this.pty.onExit(({ exitCode, signal }) => {
      this.done = true;
      if (this.exitPoll) clearInterval(this.exitPoll);
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
   * still in the kernel (and node-pty drops its socket 200 ms after exit): while paused, a poll
   * resumes reading once the process is gone. With no launcher to keep the terminal open (see
   * LaunchedPtyChild) that narrows the loss but cannot close it.
   */
  pause(): void {
    const pid = this.pty.pid;
    if (this.done || this.paused || !alive(pid)) return;
    this.paused = true;
    this.pty.pause();
    this.exitPoll = setInterval(() => {
      if (!alive(pid)) this.resume();
    }, PAUSED_EXIT_POLL_MS);
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.exitPoll) clearInterval(this.exitPoll);
    this.exitPoll = null;
    if (this.done) return;
    this.pty.resume();
  }

  resize(cols: number, rows: number): void {
    if (!this.done) this.pty.resize(cols, rows);
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (!this.done) signalGroupOf(this.pty.pid, signal);
  }
}
