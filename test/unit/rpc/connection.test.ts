import { describe, expect, it } from 'vitest';
import { RpcConnection } from '../../../electron/host/rpc/connection';
import { HostError } from '../../../electron/host/rpc/host-error';
import {
  Router,
  type ClientContext,
  type HandlerMap,
  type Subscription,
} from '../../../electron/host/rpc/router';
import type { HostFrame } from '../../../shared/protocol/wire';

// One client's conversation, whatever carries it (WebSocket, IPC): every reply goes to its own
// id or subscription, a closed client hears nothing more, and its subscriptions are all released,
// even the ones still being set up when it closed.

const client: ClientContext = { clientId: 'c1', transport: 'ipc' };

/** A router whose `sessions` topic is opened by hand, so the test decides when it resolves. */
function world() {
  const sent: HostFrame[] = [];
  const opened: {
    sink: (d: unknown) => void;
    resolve: (s: Subscription) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const router = new Router(
    {
      'sessions.list': async () => ({ sessions: [] }),
      'sessions.delete': async () => {
        throw new HostError('no_session', 'no session s_x');
      },
    } as unknown as HandlerMap,
    {
      sessions: (_rest, _cursor, sink) =>
        new Promise<Subscription>((resolve, reject) => opened.push({ sink, resolve, reject })),
    },
  );
  const topics: (string | undefined)[] = [];
  const conn = new RpcConnection(router, client, (f, topic) => {
    sent.push(f);
    topics.push(topic);
  });
  return { sent, opened, conn, topics };
}

function handle() {
  const h = { disposed: 0, acks: [] as number[] };
  const sub: Subscription = {
    dispose: () => {
      h.disposed++;
    },
    ack: (n) => h.acks.push(n),
  };
  return { h, sub };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('rpc connection', () => {
  it('a frame that does not parse gets an error frame naming the field', () => {
    const { sent, conn } = world();
    conn.receive({ t: 'invoke', id: 'one', method: 'sessions.list' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ t: 'error', error: { code: 'invalid_params' } });
    expect(JSON.stringify(sent[0])).toContain('id');
  });

  it('each call is answered under its own id, success and failure alike', async () => {
    const { sent, conn } = world();
    conn.receive({ t: 'invoke', id: 1, method: 'sessions.list', params: {} });
    conn.receive({ t: 'invoke', id: 2, method: 'sessions.delete', params: { id: 's_x' } });
    await settle();
    expect(sent).toEqual([
      { t: 'result', id: 1, ok: true, value: { sessions: [] } },
      {
        t: 'result',
        id: 2,
        ok: false,
        error: { code: 'no_session', message: 'no session s_x' },
      },
    ]);
  });

  it('a call answered after the client closed sends nothing', async () => {
    const { sent, conn } = world();
    conn.receive({ t: 'invoke', id: 1, method: 'sessions.list', params: {} });
    conn.dispose();
    await settle();
    expect(sent).toEqual([]);
  });

  it('events carry their subscription id; acks reach the subscription; unsubscribe releases it', async () => {
    const { sent, opened, conn, topics } = world();
    const { h, sub } = handle();
    conn.receive({ t: 'subscribe', sub: 4, topic: 'sessions' });
    opened[0]!.resolve(sub);
    opened[0]!.sink({ hello: 1 });
    expect(sent).toEqual([{ t: 'event', sub: 4, data: { hello: 1 } }]);
    // The transport learns which topic an event belongs to.
    expect(topics).toEqual(['sessions']);
    conn.receive({ t: 'ack', sub: 4, n: 12 });
    conn.receive({ t: 'ack', sub: 99, n: 1 }); // unknown: ignored
    await settle();
    expect(h.acks).toEqual([12]);
    conn.receive({ t: 'unsubscribe', sub: 4 });
    await settle();
    expect(h.disposed).toBe(1);
    // The id is free again.
    conn.receive({ t: 'subscribe', sub: 4, topic: 'sessions' });
    expect(opened).toHaveLength(2);
    expect(sent.filter((f) => f.t === 'sub_error')).toEqual([]);
  });

  it('a second subscription under a live id is refused and the first keeps running', async () => {
    const { sent, opened, conn } = world();
    conn.receive({ t: 'subscribe', sub: 1, topic: 'sessions' });
    conn.receive({ t: 'subscribe', sub: 1, topic: 'sessions' });
    expect(opened).toHaveLength(1);
    expect(sent).toEqual([
      {
        t: 'sub_error',
        sub: 1,
        error: { code: 'duplicate_sub', message: 'subscription 1 exists' },
      },
    ]);
    const { h, sub } = handle();
    opened[0]!.resolve(sub);
    await settle();
    expect(h.disposed).toBe(0);
  });

  it('a topic that cannot be opened is a sub_error, and its id can be used again', async () => {
    const { sent, opened, conn } = world();
    conn.receive({ t: 'subscribe', sub: 2, topic: 'nope' });
    await settle();
    expect(sent).toEqual([
      { t: 'sub_error', sub: 2, error: { code: 'unknown_topic', message: "unknown topic 'nope'" } },
    ]);
    conn.receive({ t: 'subscribe', sub: 2, topic: 'sessions' });
    expect(opened).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });

  it('a provider failing after the client closed sends nothing', async () => {
    const { sent, opened, conn } = world();
    conn.receive({ t: 'subscribe', sub: 2, topic: 'sessions' });
    conn.dispose();
    opened[0]!.reject(new HostError('gone', 'gone'));
    await settle();
    expect(sent).toEqual([]);
  });

  it('unsubscribing before the topic opened releases it as soon as it opens', async () => {
    const { opened, conn } = world();
    const { h, sub } = handle();
    conn.receive({ t: 'subscribe', sub: 3, topic: 'sessions' });
    conn.receive({ t: 'unsubscribe', sub: 3 });
    opened[0]!.resolve(sub);
    await settle();
    expect(h.disposed).toBe(1);
  });

  it('closing releases every subscription once, open or still opening, and silences their events', async () => {
    const { sent, opened, conn } = world();
    const a = handle();
    const b = handle();
    conn.receive({ t: 'subscribe', sub: 1, topic: 'sessions' });
    conn.receive({ t: 'subscribe', sub: 2, topic: 'sessions' });
    opened[0]!.resolve(a.sub);
    await settle();
    conn.dispose();
    opened[1]!.resolve(b.sub);
    await settle();
    expect([a.h.disposed, b.h.disposed]).toEqual([1, 1]);
    opened[0]!.sink('late');
    opened[1]!.sink('late');
    expect(sent).toEqual([]);
    // Frames after close open nothing new that would leak.
    conn.receive({ t: 'ack', sub: 1, n: 5 });
    await settle();
    expect(a.h.acks).toEqual([]);
  });

  it('a subscription asked for after the client closed is released when it opens', async () => {
    const { sent, opened, conn } = world();
    const { h, sub } = handle();
    conn.dispose();
    conn.receive({ t: 'subscribe', sub: 5, topic: 'sessions' });
    opened[0]!.resolve(sub);
    await settle();
    expect(h.disposed).toBe(1);
    opened[0]!.sink('late');
    conn.receive({ t: 'ack', sub: 5, n: 1 });
    await settle();
    expect(h.acks).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('unsubscribing an unknown id, or acking a stream without flow control, is harmless', async () => {
    const { sent, opened, conn } = world();
    expect(() => conn.receive({ t: 'unsubscribe', sub: 42 })).not.toThrow();
    let disposed = 0;
    conn.receive({ t: 'subscribe', sub: 1, topic: 'sessions' });
    opened[0]!.resolve({ dispose: () => void disposed++ });
    await settle();
    conn.receive({ t: 'ack', sub: 1, n: 3 });
    await settle();
    opened[0]!.sink('still here');
    expect(sent).toEqual([{ t: 'event', sub: 1, data: 'still here' }]);
    conn.dispose();
    await settle();
    expect(disposed).toBe(1);
  });
});
