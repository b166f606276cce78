import {
  methods,
  type AgentContext,
  type TerminalOutputResponse,
  type WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import { Emitter } from '../../lifecycle/emitter';
import { exitFrom, type ChildExit, type ShellChild } from '../../shells/shell-child';
import { CLIENT_FS_TIMEOUT_MS, EDITOR_TERMINAL_POLL_MS, OVERLAP_PROBE_CHARS } from './constants';

// A background shell running in the editor's terminal (`mewbo acp`), as the shell manager drives
// a process: its output is what terminal/output returns, read every EDITOR_TERMINAL_POLL_MS and
// handed on as it grows (ACP has no output notification); its exit is terminal/wait_for_exit,
// after a last read; a kill is terminal/kill; the terminal is released once it exited (the
// editor keeps showing it). It takes no input: an ACP terminal has no stdin.

/** Said in the output where the editor dropped text before it was read. */
export const DROPPED_MARKER = "[the editor's terminal dropped output before it was read]\n";

/**
 * What `now` (the editor's output, `truncated` when it dropped its start) holds beyond `before`
 * (what was read last). Once the editor dropped the start to keep within its limit, `now` is an
 * end of `before` and then the new text: the longest end of `before` that `now` starts with is
 * taken as read (a line repeated exactly may be taken as read, never read twice); text dropped
 * before it was read is marked.
 */
export function newOutput(before: string, now: string, truncated: boolean): string {
  if (before ? now.startsWith(before) : !truncated) return now.slice(before.length);
  const probe = now.slice(0, OVERLAP_PROBE_CHARS);
  for (let at = before.indexOf(probe, 1); probe && at !== -1; at = before.indexOf(probe, at + 1)) {
    const kept = before.length - at;
    if (kept <= now.length && now.startsWith(before.slice(at))) return now.slice(kept);
  }
  return DROPPED_MARKER + now;
}

export class EditorTerminalChild implements ShellChild {
  /** The editor's process, not one of ours: it is reached through the editor only. */
  readonly pid = -1;
  readonly tty = false;
  readonly writable = false;
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ChildExit>();
  readonly onData = this.data.event;
  readonly onExit = this.exit.event;
  private seen = '';
  private paused = false;
  private done = false;
  private timer: NodeJS.Timeout | null = null;
  /** Reads run one at a time, so output is handed on in order. */
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: AgentContext,
    private readonly ids: { sessionId: string; terminalId: string },
  ) {
    this.schedule();
    void this.waitForExit();
  }

  private bounded() {
    return {
      cancellationSignal: AbortSignal.timeout(CLIENT_FS_TIMEOUT_MS),
      stopWaitingOnCancel: true,
    };
  }

  private schedule(): void {
    if (this.done || this.paused || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.read().then(() => this.schedule());
    }, EDITOR_TERMINAL_POLL_MS);
  }

  private read(): Promise<void> {
    this.reading = this.reading.then(async () => {
      const out = await this.client
        .request<TerminalOutputResponse>(methods.client.terminal.output, this.ids, this.bounded())
        .catch(() => null);
      if (!out) return;
      const fresh = newOutput(this.seen, out.output, out.truncated);
      this.seen = out.output;
      if (fresh) this.data.fire(fresh);
    });
    return this.reading;
  }

  /** Until the command exits (or the editor is gone: then it counts as killed, and is swept). */
  private async waitForExit(): Promise<void> {
    const status = await this.client
      .request<WaitForTerminalExitResponse>(methods.client.terminal.waitForExit, this.ids)
      .catch(() => null);
    await this.read();
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.exit.fire(
      status
        ? exitFrom(status.exitCode ?? null, (status.signal as NodeJS.Signals | null) ?? null)
        : exitFrom(null, 'SIGKILL'),
    );
    this.data.dispose();
    this.exit.dispose();
    void this.client
      .request(methods.client.terminal.release, this.ids, this.bounded())
      .catch(() => {});
  }

  write(): void {
    throw new Error("an editor's terminal takes no input");
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.schedule();
  }

  resize(): void {}

  /** Any signal is terminal/kill: the editor chooses how to end its process. */
  signalGroup(): void {
    if (this.done) return;
    void this.client
      .request(methods.client.terminal.kill, this.ids, this.bounded())
      .catch(() => {});
  }
}
