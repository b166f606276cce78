import { describe, expect, it } from 'vitest';
import type { RemoteHostFrame } from '../../../../shared/device/remote-frames';
import { RemoteClient, type RemoteSnapshot } from '../../../../renderer/phone/remote/remote-client';

// The page's remote client against a scripted desktop: what it sends, and what reaches the view.
// The invariant the page keeps on revocation: nothing it asked for before the right ended can
// put a remote item back on screen.

type Sent = { type: string; req_id: string; v: number };

function setup() {
  const sent: Sent[] = [];
  const snapshots: RemoteSnapshot[] = [];
  let open = true;
  const client = new RemoteClient(
    (frame) => {
      if (open) sent.push(frame as Sent);
      return open;
    },
    {
      onSnapshot: (s) => snapshots.push(s),
      onNotify: () => undefined,
      onChanged: () => undefined,
    },
  );
  /** The desktop answers every unanswered request with one waiting approval. */
  const answerAll = () => {
    for (const frame of sent.splice(0)) client.handle(replyTo(frame));
  };
  return { client, sent, snapshots, answerAll, close: () => (open = false) };
}

const item = {
  kind: 'approval' as const,
  session_id: 's_1',
  session_title: 'Deploy',
  approval_id: 'a_1',
  tool: 'aider_shell_tool',
  summary: 'Run: make deploy',
  detail: '$ make deploy',
  args_json: '{"command":"make deploy"}',
  hash: '0'.repeat(64),
  truncated: false,
  requested_at: 1,
};

function replyTo(frame: Sent): RemoteHostFrame {
  if (frame.type === 'remote_pending')
    return { type: 'remote_pending', v: 1, req_id: frame.req_id, total: 1, items: [item] };
  if (frame.type === 'remote_sessions')
    return {
      type: 'remote_sessions',
      v: 1,
      req_id: frame.req_id,
      sessions: [
        {
          session_id: 's_1',
          title: 'Deploy',
          project: 'api',
          state: 'waiting',
          waiting: 1,
          updated_at: 1,
        },
      ],
    };
  return { type: 'remote_done', v: 1, req_id: frame.req_id };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the phone page’s remote client', () => {
  it('fetches waiting items and sessions with version 1 and shows them', async () => {
    const t = setup();
    t.client.start();
    expect(t.sent.map((f) => [f.type, f.v])).toEqual([
      ['remote_pending', 1],
      ['remote_sessions', 1],
    ]);
    t.answerAll();
    await flush();
    expect(t.snapshots).toEqual([
      { items: [item], total: 1, sessions: [expect.objectContaining({ state: 'waiting' })] },
    ]);
  });

  it('drops replies to requests sent before the right ended: a revoked phone never shows them', async () => {
    const t = setup();
    t.client.start();
    const before = t.sent.splice(0);
    t.client.stop();
    for (const frame of before) t.client.handle(replyTo(frame));
    await flush();
    expect(t.snapshots).toEqual([]);
    // Even when the right comes back, the old replies belong to the old generation.
    t.client.start();
    for (const frame of before) t.client.handle(replyTo(frame));
    await flush();
    expect(t.snapshots).toEqual([]);
    t.answerAll();
    await flush();
    expect(t.snapshots).toHaveLength(1);
  });

  it('folds changes that arrive during a fetch into one more fetch', async () => {
    const t = setup();
    t.client.start();
    for (let i = 0; i < 5; i++) t.client.handle({ type: 'remote_changed', v: 1 });
    expect(t.sent).toHaveLength(2);
    t.answerAll();
    await flush();
    expect(t.sent.map((f) => f.type)).toEqual(['remote_pending', 'remote_sessions']);
    t.answerAll();
    await flush();
    expect(t.sent).toEqual([]);
    expect(t.snapshots).toHaveLength(2);
  });

  it('says why a request could not be sent instead of waiting for ever', async () => {
    const t = setup();
    t.client.start();
    t.close();
    expect(await t.client.request('remote_decide', { session_id: 's_1' })).toMatchObject({
      ok: false,
      code: 'offline',
    });
    t.client.stop();
    expect(await t.client.request('remote_sessions')).toMatchObject({ ok: false, code: 'ended' });
  });

  it('passes a remote error to the caller with its code', async () => {
    const t = setup();
    t.client.start();
    t.sent.splice(0);
    const pending = t.client.request('remote_decide', { session_id: 's_1' });
    const [frame] = t.sent.splice(0);
    t.client.handle({
      type: 'remote_error',
      v: 1,
      req_id: frame!.req_id,
      code: 'stale',
      message: 'the hash does not match',
    });
    expect(await pending).toEqual({ ok: false, code: 'stale', message: 'the hash does not match' });
  });
});
