import { spawn } from 'node:child_process';
import { EXIT_DRAIN_MS, HOOK_OUTPUT_MAX_BYTES } from './constants';
import { signalProcessGroup } from '../system/process-group';

// Runs one hook command: `sh -c command` in its own process group, the event as JSON on stdin.
// The user's own hooks run with the user's rights and environment; a project's (trusted) hooks
// come here wrapped by the sandbox launcher (hook-sandbox.ts), its rules at the head of stdin.
// At its timeout, or when the run stops, the whole group is killed: a hook that forked a child
// which holds its pipes open must not outlive it.

export interface HookProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export interface RunHookInput {
  command: string;
  /** What to execute instead of `sh -c command` (the launcher's argv for a confined hook). */
  argv?: string[];
  /** Written to stdin before the event (the launcher's rules). */
  stdinPrefix?: Buffer;
  cwd: string;
  input: unknown;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

function capped() {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(b: Buffer) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: at the cap the slice below takes nothing; returning early only saves pushing empty chunks
      if (size >= HOOK_OUTPUT_MAX_BYTES) return;
      const take = b.subarray(0, HOOK_OUTPUT_MAX_BYTES - size);
      chunks.push(take);
      size += take.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

function killGroup(pid: number | undefined): void {
  // Stryker disable next-line ConditionalExpression: signalProcessGroup refuses a missing pid itself
  if (pid) signalProcessGroup(pid, 'SIGKILL');
}

export function runHook(i: RunHookInput): Promise<HookProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const [file, ...args] = i.argv ?? ['/bin/sh', '-c', i.command];
    const child = spawn(file!, args, {
      cwd: i.cwd,
      env: i.env,
      detached: true,
      // Stryker disable next-line ArrayDeclaration: pipes are spawn's default; written out because the code reads all three
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out = capped();
    const err = capped();
    let timedOut = false;
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null, spawnError?: string) => {
      // Stryker disable ConditionalExpression,BooleanLiteral,StringLiteral: a second finish (close after the drain timer) resolves nothing new, and a listener left on a signal of a finished hook kills a group that is gone; no test can see either
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      i.signal?.removeEventListener('abort', onAbort);
      // Stryker restore ConditionalExpression,BooleanLiteral,StringLiteral
      // Whatever the hook left running in its group goes with it.
      killGroup(child.pid);
      resolve({
        exitCode,
        signal,
        stdout: out.text(),
        stderr: spawnError ? `${err.text()}${spawnError}` : err.text(),
        timedOut,
        durationMs: Date.now() - started,
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, i.timeoutMs);
    const onAbort = () => killGroup(child.pid);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once
    i.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => finish(null, null, e.message));
    // Stryker disable next-line StringLiteral,ArrowFunction: without it the exit path below finishes the same, EXIT_DRAIN_MS later; only a race tells
    child.on('close', (code, sig) => finish(code, sig));
    // A child the hook left behind may hold its pipes open after it exited: drain briefly, then go.
    child.on('exit', (code, sig) => setTimeout(() => finish(code, sig), EXIT_DRAIN_MS).unref());
    child.stdin.on('error', () => {
      /* a hook that does not read its input closes the pipe early: not an error */
    });
    if (i.stdinPrefix) child.stdin.write(i.stdinPrefix);
    child.stdin.end(`${JSON.stringify(i.input)}\n`);
  });
}
