import type { Client } from '../renderer/src/transport/transport';
import type { FakeAnthropic } from '../test/helpers/fake-anthropic';
import { isShellOutputBytes } from '../shared/protocol/shell-binary';
import type { ShellStreamFrame } from '../shared/protocol/shell-stream';

// A console read to the end as the UI's console reads it, for the console benchmarks: subscribed
// from the start, each output frame acked a turn after it arrived (as a console acks once xterm has
// taken it), binary or JSON frames alike. The shell waits for `go` on its input (`read go; ...`):
// the clock starts when the subscription is live and `go` is sent, and stops at its exit frame.

export async function drainConsole(
  client: Client,
  sessionId: string,
  shellId: string,
): Promise<{ ms: number; bytes: number; frames: number }> {
  let bytes = 0;
  let frames = 0;
  let t0 = 0;
  await new Promise<void>((resolve, reject) => {
    let started = false;
    const sub = client.subscribe(
      `shell:${sessionId}:${shellId}`,
      0,
      (raw) => {
        if (isShellOutputBytes(raw)) {
          bytes += raw.bytes.byteLength;
          frames++;
          const n = raw.characters;
          setImmediate(() => sub.ack(n));
          return;
        }
        const frame = raw as ShellStreamFrame;
        if (frame.type === 'shell_output') {
          bytes += Buffer.byteLength(frame.data);
          frames++;
          const n = frame.data.length;
          setImmediate(() => sub.ack(n));
        } else if (frame.shell.status === 'running') {
          if (started) return;
          started = true;
          t0 = performance.now();
          void client.invoke('shells.input', {
            session_id: sessionId,
            shell_id: shellId,
            data: 'go\n',
          });
        } else {
          sub.unsubscribe();
          resolve();
        }
      },
      (e) => reject(new Error(e.message)),
    );
  });
  return { ms: performance.now() - t0, bytes, frames };
}

/**
 * Has the scripted model start `read go; PRODUCE` as a background shell on a terminal in the
 * session, and returns the new shell's id once it runs (waiting for `go`).
 */
export async function startWaitingShell(
  client: Client,
  fake: FakeAnthropic,
  sessionId: string,
  produce: string,
): Promise<string> {
  fake.script.push(
    {
      toolCalls: [
        {
          name: 'aider_shell_tool',
          args: { command: `read go; ${produce}`, run_in_background: true, tty: true },
        },
      ],
    },
    { text: 'Started.' },
  );
  const before = new Set(
    (await client.invoke('shells.list', { session_id: sessionId })).shells.map((s) => s.shell_id),
  );
  await client.invoke('sessions.send', { id: sessionId, text: 'Produce', capabilities: [] });
  for (;;) {
    const { shells } = await client.invoke('shells.list', { session_id: sessionId });
    const fresh = shells.find((s) => s.status === 'running' && !before.has(s.shell_id));
    if (fresh) return fresh.shell_id;
    await new Promise((r) => setTimeout(r, 50));
  }
}
