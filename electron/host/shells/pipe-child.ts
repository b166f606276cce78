import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { Emitter } from '../lifecycle/emitter';
import { PIPE_DRAIN_MS } from './constants';
import { exitFrom, signalGroupOf, type ChildExit, type ShellChild } from './shell-child';

export interface PipeSpawnOptions {
  cwd: string;
  env: Record<string, string>;
  /** A writable stdin pipe (background), or /dev/null (foreground: no prompt can wait). */
  writable: boolean;
  /** Descriptors from 3 on: each buffer is written to a pipe the child reads, then closed. */
  fds?: Buffer[];
}

/**
 * A shell on pipes, stdout and stderr read as one stream. `detached` makes it a session leader
 * without a controlling terminal, so a program that opens /dev/tty for a password fails at once.
 */
export class PipeChild implements ShellChild {
  readonly tty = false;
  readonly writable: boolean;
  private readonly child: ChildProcess;
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ChildExit>();
  private done = false;
  readonly onData = this.data.event;
  readonly onExit = this.exit.event;

  constructor(file: string, args: string[], opts: PipeSpawnOptions) {
    this.writable = opts.writable;
    this.child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: [
        opts.writable ? 'pipe' : 'ignore',
        'pipe',
        'pipe',
        ...(opts.fds ?? []).map(() => 'pipe' as const),
      ],
    });
    (opts.fds ?? []).forEach((buf, i) => {
      const pipe = this.child.stdio[3 + i] as Writable;
      pipe.on('error', () => {}); // a launcher that died before reading reports through its exit
      pipe.end(buf);
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => this.data.fire(d));
    }
    // A stdin the process closed (or never read) must not crash the host on write.
    this.child.stdin?.on('error', () => {});
    let drain: NodeJS.Timeout | null = null;
    this.child.on('exit', () => {
      // 'close' waits for every holder of the pipes; a leftover without the launcher would hold
      // them open forever, so the pipes are cut off after a drain period.
      drain = setTimeout(() => {
        this.child.stdout?.destroy();
        this.child.stderr?.destroy();
      }, PIPE_DRAIN_MS);
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.done) return;
      this.done = true;
      if (drain) clearTimeout(drain);
      this.exit.fire(exitFrom(code, signal));
      this.data.dispose();
      this.exit.dispose();
    };
    this.child.on('close', finish);
    this.child.on('error', (err) => {
      this.data.fire(`mewbo: cannot start the shell: ${err.message}\n`);
      finish(127, null);
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  write(data: string): void {
    if (this.writable && !this.done) this.child.stdin?.write(data);
  }

  pause(): void {
    this.child.stdout?.pause();
    this.child.stderr?.pause();
  }

  resume(): void {
    this.child.stdout?.resume();
    this.child.stderr?.resume();
  }

  resize(): void {
    // no terminal, nothing to size
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (!this.done && this.pid > 0) signalGroupOf(this.pid, signal);
  }
}
