import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_OUTPUT_MAX_BYTES } from '../../../electron/host/hooks/constants';
import { runHook, type RunHookInput } from '../../../electron/host/hooks/run-hook';
import { tempDir } from '../../helpers/temp';

// One hook process: `sh -c command` (or the launcher's argv) in its own process group, the event
// on stdin, output capped; at its timeout or when the run stops the whole group is killed, and a
// child it left holding its pipes does not keep it running.

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('mewbo-run-hook-');
});
afterEach(() => t.cleanup());

const hook = (command: string, o: Partial<RunHookInput> = {}) =>
  runHook({
    command,
    cwd: t.dir,
    input: { hook_event_name: 'Stop' },
    timeoutMs: 30_000,
    env: { PATH: process.env.PATH, MARK: 'm1' },
    ...o,
  });

/** Running or sleeping; a zombie or a missing process is dead. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('runHook', () => {
  it('runs the command with sh in its folder and environment, the input as one JSON line on stdin', async () => {
    const before = Date.now();
    const r = await hook('pwd; echo "$MARK"; cat; echo err >&2; exit 3');
    // How long it ran, not a timestamp.
    expect(r.durationMs).toBeLessThanOrEqual(Date.now() - before);
    expect(r).toEqual({
      exitCode: 3,
      signal: null,
      stdout: `${t.dir}\nm1\n{"hook_event_name":"Stop"}\n`,
      stderr: 'err\n',
      timedOut: false,
      durationMs: expect.any(Number),
    });
  });

  it('runs the argv it is given instead, with the prefix ahead of the input', async () => {
    const r = await hook('never run', {
      argv: ['/bin/sh', '-c', 'echo argv; cat'],
      stdinPrefix: Buffer.from('PREFIX\n'),
    });
    expect(r.stdout).toBe('argv\nPREFIX\n{"hook_event_name":"Stop"}\n');
    expect(r.exitCode).toBe(0);
  });

  it('keeps at most the cap of each stream', async () => {
    const n = HOOK_OUTPUT_MAX_BYTES;
    const r = await hook(
      `head -c ${n + 5000} /dev/zero | tr '\\0' a; head -c ${n} /dev/zero | tr '\\0' b >&2`,
    );
    expect(r.stdout).toBe('a'.repeat(n));
    expect(r.stderr).toBe('b'.repeat(n));
  });

  it('at its timeout the whole group is killed, children too, and the result says it timed out', async () => {
    const pidFile = join(t.dir, 'child');
    const r = await hook(`sleep 60 & echo $! > "${pidFile}"; wait`, { timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    const child = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(child)).toBe(false);
  });

  it('when the run stops the group is killed, and that is no timeout', async () => {
    const stop = new AbortController();
    const started = join(t.dir, 'started');
    const p = hook(`touch "${started}"; sleep 60`, { signal: stop.signal });
    await expect.poll(() => existsSync(started), { timeout: 10_000 }).toBe(true);
    stop.abort();
    expect(await p).toMatchObject({ timedOut: false, exitCode: null, signal: 'SIGKILL' });
  });

  it('a child left holding the pipes neither keeps the hook running nor outlives it', async () => {
    const pidFile = join(t.dir, 'child');
    const r = await hook(`sleep 60 & echo $! > "${pidFile}"; echo done`);
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'done\n' });
    const child = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(child)).toBe(false);
  });

  it('a hook that cannot start is a result with the reason in stderr', async () => {
    const r = await hook('true', { cwd: join(t.dir, 'missing') });
    expect(r.exitCode).toBeNull();
    expect(r.stderr).toMatch(/ENOENT/);
    expect(r.timedOut).toBe(false);
  });

  it('a hook that never reads its input is not an error', async () => {
    const r = await hook('exec 0<&-; echo ok', { input: { big: 'x'.repeat(1 << 20) } });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
  });
});
