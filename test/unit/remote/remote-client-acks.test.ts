import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { RemoteClient, type RemoteChannel } from '../../../electron/host/remote/remote-client';
import { REMOTE_ACK_HOLD_MS } from '../../../electron/host/remote/constants';

// A remote console's acks cross ssh, sshd, the relay and the remote part (#29): the app holds
// them until they add up to a batch, or briefly, and sends them as one. Whatever the batch, every
// acked character reaches the remote part, and nothing held is sent after the link ends.

/** A channel whose stdin is read back as the frames the app wrote. */
function channel() {
  const ch = Object.assign(new EventEmitter(), {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
  }) as RemoteChannel & { stdin: PassThrough };
  const acks: number[] = [];
  let text = '';
  ch.stdin.setEncoding('utf8');
  ch.stdin.on('data', (d: string) => {
    text += d;
    const lines = text.split('\n');
    text = lines.pop()!;
    for (const line of lines) {
      const f = JSON.parse(line) as { t: string; n?: number };
      if (f.t === 'ack') acks.push(f.n!);
    }
  });
  return { ch, acks };
}

/** Until the stream's written bytes were read (a PassThrough hands them over a tick later). */
const settle = () => new Promise((r) => setImmediate(r));

/** A client on a fresh channel and one subscription of it, acks batched by `batch` (0: none). */
function subscribed(topic: string, batch: number) {
  const { ch, acks } = channel();
  const client = new RemoteClient(ch, 'host');
  const sub = client.subscribe(
    topic,
    0,
    () => {},
    () => {},
    batch,
  );
  return { client, sub, acks };
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
}

describe('RemoteClient acks', () => {
  it('passes a batched subscription’s acks on once they add up to the batch, the rest after a short hold', async () => {
    const { client, sub, acks } = subscribed('shell:s:1', 1000);
    for (let i = 0; i < 25; i++) sub.ack(100);
    await settle();
    expect(acks).toEqual([1000, 1000]);
    await until(() => acks.length === 3);
    expect(acks).toEqual([1000, 1000, 500]);
    client.dispose();
  });

  it('passes an unbatched subscription’s acks on one by one (late events are acked each)', async () => {
    const { client, sub, acks } = subscribed('session:s', 0);
    sub.ack(1);
    sub.ack(1);
    await settle();
    expect(acks).toEqual([1, 1]);
    client.dispose();
  });

  it('sends nothing held once the subscription is gone', async () => {
    const { client, sub, acks } = subscribed('shell:s:1', 1000);
    sub.ack(400);
    sub.dispose();
    sub.ack(900);
    await new Promise((r) => setTimeout(r, REMOTE_ACK_HOLD_MS * 3));
    expect(acks).toEqual([]);
    client.dispose();
  });

  it('hands on every acked character, in batches no smaller than the batch but the last', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 60 }),
        async (batch, ns) => {
          const { client, sub, acks } = subscribed('shell:s:1', batch);
          for (const n of ns) sub.ack(n);
          const total = ns.reduce((a, b) => a + b, 0);
          await until(() => acks.reduce((a, b) => a + b, 0) === total);
          expect(acks.slice(0, -1).every((n) => n >= batch)).toBe(true);
          client.dispose();
        },
      ),
      { numRuns: 30 },
    );
  });
});
