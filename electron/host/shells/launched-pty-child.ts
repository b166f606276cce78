import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ReadStream } from 'node:tty';
import { Emitter } from '../lifecycle/emitter';
import { DRAIN_QUIET_MS, PAUSED_EXIT_POLL_MS, PIPE_DRAIN_MS } from './constants';
import { isLiveProcess as alive } from '../system/proc-stat';
import { signalQuietly } from './process-tree';
import { exitFrom, signalGroupOf, type ChildExit, type ShellChild } from './shell-child';

// A shell on a pseudo-terminal the host opens itself (node-pty's openpty), with the launcher
// spawned by child_process. forkpty (node-pty's spawn) passes the child no descriptor but the
// terminal; this way the launcher also gets its rules on an inherited pipe (fd 3), never a path.
// The launcher makes the terminal its controlling one (--ctty), as forkpty would have.

interface NativePty {
  open(cols: number, rows: number): { master: number; slave: number; pty: string };
  resize(fd: number, cols: number, rows: number): void;
}

function nativePty(): NativePty {
  const url = (import.meta as { url?: string }).url;
  const load = url ? createRequire(url) : require;
  const utils = load('node-pty/lib/utils') as {
    loadNativeModule(name: string): { module: unknown };
  };
  return utils.loadNativeModule('pty').module as NativePty;
}

/** The launcher with no child left has finished the command and only keeps the terminal open. */
function childless(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() === '';
  } catch {
    return true;
  }
}

export interface LaunchedPtyOptions {
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Whether input may be written (false for a foreground run). */
  writable: boolean;
  /** Descriptors from 3 on: each buffer is written to a pipe the child reads, then closed. */
  fds: Buffer[];
}

export class LaunchedPtyChild implements ShellChild {
  readonly tty = true;
  readonly writable: boolean;
  private readonly child: ChildProcess;
  private readonly master: ReadStream;
  private readonly masterFd: number;
  private readonly native = nativePty();
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ChildExit>();
  private exited: ChildExit | null = null;
  private ended = false;
  private done = false;
  private paused = false;
  private drain: NodeJS.Timeout | null = null;
  /** The launcher was told the host is paused (SIGUSR1), and not yet that it drained (SIGUSR2). */
  private told = false;
  private quiet: NodeJS.Timeout | null = null;
  private exitPoll: NodeJS.Timeout | null = null;
  private received = 0;
  readonly onData = this.data.event;
  readonly onExit = this.exit.event;

  /** `args` must start the launcher with --ctty, so the terminal becomes the command's. */
  constructor(file: string, args: string[], opts: LaunchedPtyOptions) {
    this.writable = opts.writable;
    const { master, slave } = this.native.open(opts.cols, opts.rows);
    this.masterFd = master;
    try {
      this.child = spawn(file, args, {
        cwd: opts.cwd,
        env: opts.env,
        detached: true,
        stdio: [slave, slave, slave, ...opts.fds.map(() => 'pipe' as const)],
      });
    } catch (err) {
      closeSync(slave);
      closeSync(master);
      throw err;
    } finally {
      // Only the child may hold the terminal's other end: its last close is our end of output.
      try {
        closeSync(slave);
      } catch {
        // closed above on failure
      }
    }
    opts.fds.forEach((buf, i) => {
      const pipe = this.child.stdio[3 + i] as Writable;
      pipe.on('error', () => {}); // a launcher that died before reading reports through its exit
      pipe.end(buf);
    });
    this.master = new ReadStream(master);
    this.master.setEncoding('utf8');
    this.master.on('data', (d: string) => {
      this.received += d.length;
      if (this.told && !this.paused) this.armDrained();
      this.data.fire(d);
    });
    // Linux answers EIO on the master once every holder of the terminal has closed it, after
    // the output still buffered has been read: that is the end of output.
    this.master.on('error', () => this.endOutput());
    this.master.on('end', () => this.endOutput());
    this.master.on('close', () => this.endOutput());
    this.child.on('exit', (code, signal) => {
      this.exited = exitFrom(code, signal);
      // Flow control holds a live producer; once the tree is gone what it wrote is read to the
      // end whatever the reader's pace (the ring buffer bounds it), so the exit is reported.
      this.resume();
      this.armDrain();
      this.finish();
    });
    this.child.on('error', (err) => {
      this.data.fire(`mewbo: cannot start the shell: ${err.message}\r\n`);
      this.exited = exitFrom(127, null);
      this.endOutput();
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private endOutput(): void {
    if (this.ended) return;
    this.ended = true;
    this.finish();
  }

  /** A stray holder of the terminal (nothing the launcher left) must not hold the exit forever. */
  private armDrain(): void {
    if (this.drain || this.paused || this.ended) return;
    this.drain = setTimeout(() => this.endOutput(), PIPE_DRAIN_MS);
  }

  private finish(): void {
    if (this.done || !this.ended || !this.exited) return;
    this.done = true;
    if (this.drain) clearTimeout(this.drain);
    if (this.quiet) clearTimeout(this.quiet);
    if (this.exitPoll) clearInterval(this.exitPoll);
    this.master.destroy();
    this.exit.fire(this.exited);
    this.data.dispose();
    this.exit.dispose();
  }

  write(data: string): void {
    if (this.writable && !this.done && !this.ended) this.master.write(data);
  }

  /**
   * Stops reading. Output the kernel still holds when the terminal closes can be lost to a
   * reader that is behind, so the launcher is told (SIGUSR1) and keeps the terminal open after
   * the command ends until told the host drained (SIGUSR2); a poll resumes reading once the
   * launcher has no child left (the command is done) or is gone.
   */
  pause(): void {
    if (this.done || this.exited || this.paused) return;
    const pid = this.pid;
    this.paused = true;
    if (this.drain) clearTimeout(this.drain);
    this.drain = null;
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = null;
    this.master.pause();
    if (!this.told && pid > 0) {
      this.told = true;
      signalQuietly(pid, 'SIGUSR1');
    }
    this.exitPoll = setInterval(() => {
      if (!alive(pid) || childless(pid)) this.resume();
    }, PAUSED_EXIT_POLL_MS);
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.exitPoll) clearInterval(this.exitPoll);
    this.exitPoll = null;
    if (this.done) return;
    this.master.resume();
    if (this.exited) this.armDrain();
    this.armDrained();
  }

  /**
   * Tells the launcher the host drained once no output arrived for DRAIN_QUIET_MS, checked after
   * a poll phase (setImmediate), so output the kernel still holds is read first.
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
        signalQuietly(this.pid, 'SIGUSR2');
      });
    }, DRAIN_QUIET_MS);
  }

  resize(cols: number, rows: number): void {
    if (this.done) return;
    try {
      this.native.resize(this.masterFd, cols, rows);
    } catch {
      // the terminal is closing
    }
  }

  signalGroup(signal: NodeJS.Signals): void {
    if (!this.done && this.pid > 0) signalGroupOf(this.pid, signal);
  }
}
