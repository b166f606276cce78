import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { signalProcessGroup } from '../../../electron/host/system/process-group';
import { isLiveProcess } from '../../../electron/host/system/proc-stat';

/** `sh -c` leading its own group, with a grandchild `sleep` in the same group; returns both pids. */
async function shellWithGrandchild(): Promise<{
  leader: number;
  grandchild: number;
  done: Promise<void>;
}> {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & echo $!; wait'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  const grandchild = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
  return { leader: child.pid!, grandchild, done };
}

describe('killing a child and everything it started', () => {
  it('a signal to the pid alone leaves the grandchild running (what the group signal is for)', async () => {
    const { leader, grandchild, done } = await shellWithGrandchild();
    try {
      process.kill(leader, 'SIGKILL');
      await done;
      expect(isLiveProcess(grandchild)).toBe(true);
    } finally {
      signalProcessGroup(leader, 'SIGKILL');
    }
  });

  it('signalProcessGroup reaches the whole group: the grandchild dies too', async () => {
    const { leader, grandchild, done } = await shellWithGrandchild();
    expect(signalProcessGroup(leader, 'SIGKILL')).toBe(true);
    await done;
    await vi.waitFor(() => expect(isLiveProcess(grandchild)).toBe(false), { timeout: 5000 });
  });

  it("never signals group 0 or 1 (the caller's own group, or every process)", () => {
    const kill = vi.spyOn(process, 'kill');
    try {
      expect(signalProcessGroup(0, 'SIGTERM')).toBe(false);
      expect(signalProcessGroup(1, 'SIGTERM')).toBe(false);
      expect(signalProcessGroup(-5, 'SIGTERM')).toBe(false);
      expect(kill).not.toHaveBeenCalled();
    } finally {
      kill.mockRestore();
    }
  });
});
