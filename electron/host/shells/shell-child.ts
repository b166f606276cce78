import { constants } from 'node:os';
import type { Event } from '../lifecycle/emitter';
import { signalProcessGroup } from '../system/process-group';

// One spawned shell process as the manager sees it, whatever carries its output: a PTY
// (node-pty) or pipes (child_process). Both put the process in its own session and process
// group, so `signalGroup` reaches the command and everything it started in that group.

export interface ChildExit {
  /** The exit code, or 128 + the signal number when a signal ended it (as shells report it). */
  exitCode: number;
  /** The signal's name when a signal ended it. */
  signal: NodeJS.Signals | null;
}

export interface ShellChild {
  readonly pid: number;
  readonly tty: boolean;
  /** Whether write() reaches the process's stdin (background shells only). */
  readonly writable: boolean;
  /** Output, decoded as UTF-8. */
  readonly onData: Event<string>;
  /** Fires once, after the last output was delivered. */
  readonly onExit: Event<ChildExit>;
  write(data: string): void;
  /** Stop reading output (the process blocks once the kernel buffer is full). */
  pause(): void;
  resume(): void;
  resize(cols: number, rows: number): void;
  /** Signals the process group (the launcher forwards to the rest of the tree). */
  signalGroup(signal: NodeJS.Signals): void;
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, num]) => [num, name as NodeJS.Signals]),
);

export function exitFrom(
  code: number | null,
  signal: NodeJS.Signals | number | null | undefined,
): ChildExit {
  if (typeof signal === 'number' && signal > 0) {
    return { exitCode: 128 + signal, signal: SIGNAL_NAMES.get(signal) ?? null };
  }
  if (typeof signal === 'string') {
    return { exitCode: 128 + (constants.signals[signal] ?? 0), signal };
  }
  return { exitCode: code ?? 1, signal: null };
}

export function signalGroupOf(pid: number, signal: NodeJS.Signals): void {
  signalProcessGroup(pid, signal);
}
