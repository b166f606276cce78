import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Emitter } from '../lifecycle/emitter';
import type { Disposable } from '../lifecycle/disposable';
import { KILL_GRACE_MS, STDERR_TAIL_BYTES } from './constants';
import { signalProcessGroup } from '../system/process-group';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be spawned at all (ENOENT, EACCES). */
  spawnError?: string;
}

/**
 * One language-server child process. It runs in its own process group so that a kill reaches the
 * helpers it spawns (typescript-language-server forks tsserver), and keeps the tail of its stderr
 * to explain a failed start or a crash. Disposing kills the group: SIGTERM, then SIGKILL after a
 * grace period; the polite LSP shutdown is the client's job, before this.
 */
export class ServerProcess implements Disposable {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly onExitEmitter = new Emitter<ExitInfo>();
  readonly onExit = this.onExitEmitter.event;
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private stderrTail = '';

  constructor(argv: string[], cwd: string, env: NodeJS.ProcessEnv, stdinPrefix?: Buffer) {
    const [program, ...args] = argv;
    this.child = spawn(program!, args, { cwd, env, stdio: 'pipe', detached: true });
    if (stdinPrefix) this.child.stdin.write(stdinPrefix);
    this.exited = new Promise((resolve) => {
      const finish = (info: ExitInfo) => {
        if (this.exitInfo) return;
        this.exitInfo = info;
        // Helpers the leader spawned (tsserver) would outlive a crashed server: end the group.
        this.killGroup();
        this.onExitEmitter.fire(info);
        resolve(info);
      };
      this.child.once('exit', (code, signal) => finish({ code, signal }));
      this.child.once('error', (err) =>
        finish({ code: null, signal: null, spawnError: err.message }),
      );
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    });
    // A server that dies mid-write turns our next write into EPIPE; the exit handler reports it.
    this.child.stdin.on('error', () => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get stderr(): string {
    return this.stderrTail.trim();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined || this.exitInfo) return;
    // False when the group is already gone; the exit event is on its way.
    signalProcessGroup(pid, signal);
  }

  /** SIGKILL to whatever is left of the group once the leader is gone. */
  private killGroup(): void {
    const pid = this.child.pid;
    if (pid !== undefined) signalProcessGroup(pid, 'SIGKILL');
  }

  /** Waits up to `ms` for the process to exit on its own; true if it did. */
  async waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const result = await Promise.race([this.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  async dispose(): Promise<void> {
    if (!this.exitInfo) {
      this.signalGroup('SIGTERM');
      if (!(await this.waitForExit(KILL_GRACE_MS))) {
        this.signalGroup('SIGKILL');
        await this.exited;
      }
    }
    this.killGroup();
    this.onExitEmitter.dispose();
  }
}
