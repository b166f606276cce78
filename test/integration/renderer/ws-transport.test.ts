import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import type { SessionsChange } from '../../../shared/protocol/session-summary';

// The renderer's WebSocket transport against a real `mewbo serve`.

let host: HostProcess | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await host?.stop();
  cleanup?.();
  host = undefined;
});

async function until(pred: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WsTransport', () => {
  it('keeps a subscription made before the socket opened (it is sent once, not twice)', async () => {
    const t = tempDir('mewbo-ws-');
    cleanup = t.cleanup;
    host = await startHost(t.dir);
    const { client, close } = host.connect();
    try {
      const seen: SessionsChange[] = [];
      const errors: string[] = [];
      // Subscribed in the same turn the transport was made: the socket is still connecting.
      client.subscribe(
        'sessions',
        undefined,
        (d) => seen.push(d as SessionsChange),
        (e) => errors.push(e.code),
      );
      const { session } = await client.invoke('sessions.create', { title: 'first' });
      await client.invoke('sessions.rename', { id: session.id, title: 'renamed' });
      await until(
        () => seen.filter((c) => c.type === 'upsert' && c.session.id === session.id).length >= 2,
        'upserts on the sessions topic',
      );
      expect(errors).toEqual([]);
    } finally {
      close();
    }
  });
});
