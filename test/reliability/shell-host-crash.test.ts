import { afterEach, expect, test } from 'vitest';
import { mcpDriver, survivors, workspace, type Workspace } from '../integration/shells/harness';

// A host that dies without cleaning up (SIGKILL) must still leave no shell process behind: each
// shell's launcher notices (PR_SET_PDEATHSIG, the PTY hanging up, its parent changing) and kills
// its whole tree, jobs that left the process group or ignore SIGTERM included.

let ws: Workspace | undefined;
afterEach(() => {
  ws?.cleanup();
  ws = undefined;
});

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

test('SIGKILLing the host leaves no child of its shells alive', async () => {
  ws = workspace({ shells: { kill_grace_ms: 500 } });
  const host = await mcpDriver(ws);
  const tree = (n: number) =>
    `sleep 95${n}1 & setsid sleep 95${n}2 & (nohup sleep 95${n}3 >/dev/null 2>&1 &); (trap "" TERM HUP; exec sleep 95${n}4) & echo up; wait`;
  for (const [n, tty] of [
    [1, false],
    [2, true],
  ] as const) {
    const started = await host.call('aider_shell_tool', {
      command: tree(n),
      run_in_background: true,
      tty,
    });
    expect(started).toMatchObject({ kind: 'shell', status: 'running' });
    await host.call('shell_session_tool', {
      operation: 'read',
      shell_id: `shell_${n}`,
      wait_ms: 10_000,
      filter: 'up',
    });
  }
  const sleeps = () => survivors('^sleep 95[12][1-4]$');
  expect(await until(() => sleeps().split('\n').filter(Boolean).length === 8, 5000)).toBe(true);
  process.kill(host.pid, 'SIGKILL');
  await until(() => survivors('sleep 95[12][1-4]') === '', 15_000);
  expect(survivors('sleep 95[12][1-4]')).toBe('');
  await host.close().catch(() => {});
});
