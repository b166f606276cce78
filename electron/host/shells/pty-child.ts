import { spawn as spawnPty, type IPty } from 'node-pty';
import { Emitter } from '../lifecycle/emitter';
import { PAUSED_EXIT_POLL_MS } from './constants';
import { exitFrom, signalGroupOf, type ChildExit, type ShellChild } from './shell-child';

export interface PtySpawnOptions {
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Whether input may be written (false for a foreground run). */
  writable: boolean;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A shell on a pseudo-terminal: forkpty makes it a session leader with the PTY as its terminal. */
export class PtyChild implements ShellChild {
  readonly tty = true;
  readonly writable: boolean;
  private readonly pty: IPty;
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ChildExit>();
  private exitPoll: NodeJS.Timeout | null = null;
  private done = false;
  readonly onData = this.data.event;
  readonly onExit = this.exit.event;

  constructor(
    file: string,
    args: string[],
    opts: PtySpawnOptions,
  ) {
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
      this.stopPoll();
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

  pause(): void {
    if (this.done) return;
    this.pty.pause();
    // node-pty destroys its socket 200 ms after the process exits, dropping what was not read;
    // a paused PTY whose process is gone is resumed so its last output reaches the buffer.
    this.exitPoll ??= setInterval(() => {
      if (!alive(this.pty.pid)) {
        this.stopPoll();
        this.pty.resume();
      }
    }, PAUSED_EXIT_POLL_MS);
  }

  resume(): void {
    this.stopPoll();
    if (!this.done) this.pty.resume();
  }

  private stopPoll(): void {
    if (this.exitPoll) clearInterval(this.exitPoll);
    this.exitPoll = null;
  }

  resize(cols: number, rows: number): void {
    if (!this.done) this.pty.resize(cols, rows);
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (!this.done) signalGroupOf(this.pty.pid, signal);
  }
}
