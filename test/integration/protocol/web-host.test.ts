import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';
import type { SessionEvent } from '../../../shared/protocol/events';
import { RpcFailure } from '../../../renderer/src/transport/transport';

let home: ReturnType<typeof tempDir>;
let host: HostProcess;

beforeEach(async () => {
  home = tempDir();
  host = await startHost(home.dir);
});
afterEach(async () => {
  await host.stop();
  home.cleanup();
});

function collect(
  client: ReturnType<HostProcess['connect']>['client'],
  topic: `session:${string}`,
  cursor: number,
) {
  const seen: SessionEvent[] = [];
  const sub = client.subscribe(topic, cursor, (d) => {
    if (typeof (d as SessionEvent).seq === 'number') seen.push(d as SessionEvent);
  });
  return { seen, sub };
}

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('web host protocol', () => {
  it('creates, lists, renames and deletes sessions over WebSocket', async () => {
    const { client, close } = host.connect();
    const { session } = await client.invoke('sessions.create', { title: 'First' });
    expect(session.title).toBe('First');
    expect((await client.invoke('sessions.list', {})).sessions.map((s) => s.id)).toEqual([
      session.id,
    ]);
    const renamed = await client.invoke('sessions.rename', { id: session.id, title: 'Renamed' });
    expect(renamed.session.title).toBe('Renamed');
    await client.invoke('sessions.delete', { id: session.id });
    expect((await client.invoke('sessions.list', {})).sessions).toEqual([]);
    close();
  });

  it('rejects a request that fails validation with an error naming the field', async () => {
    const { client, close } = host.connect();
    const err = await client
      .invoke('sessions.rename', { id: 's_abcdefgh', title: '' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcFailure);
    expect((err as RpcFailure).error.code).toBe('invalid_params');
    expect((err as RpcFailure).error.issues?.[0]?.path).toBe('title');
    const unknown = await client
      .invoke('nope.nothing' as 'sessions.list', {})
      .catch((e: unknown) => e);
    expect((unknown as RpcFailure).error.code).toBe('unknown_method');
    close();
  });

  it('a second client sees the same live session events, and a late one replays from its cursor', async () => {
    const a = host.connect();
    const b = host.connect();
    const { session } = await a.client.invoke('sessions.create', {});
    const live = collect(b.client, `session:${session.id}`, 0);
    await a.client.invoke('sessions.send', { id: session.id, text: 'hello', capabilities: [] });
    await until(() => live.seen.some((e) => e.type === 'user_message'), 'live user_message');
    const late = collect(a.client, `session:${session.id}`, 1);
    await until(() => late.seen.length >= live.seen.length - 1, 'replay');
    expect(late.seen.map((e) => e.seq)).toEqual(live.seen.slice(1).map((e) => e.seq));
    expect(live.seen.map((e) => e.seq)).toEqual(live.seen.map((_, i) => i));
    a.close();
    b.close();
  });

  it('refuses a WebSocket without the login cookie, with a wrong one, or from a foreign origin', async () => {
    await expect(openSocket(host.wsUrl)).rejects.toThrow(/403/);
    const [name] = host.cookie.split('=');
    await expect(openSocket(host.wsUrl, undefined, `${name}=wrong`)).rejects.toThrow(/403/);
    await expect(openSocket(host.wsUrl, 'http://evil.example', host.cookie)).rejects.toThrow(/403/);
    const ok = await openSocket(host.wsUrl, undefined, host.cookie);
    ok.close();
  });

  it('lists every session after a restart with its full history', async () => {
    const { client, close } = host.connect();
    const { session } = await client.invoke('sessions.create', { title: 'Keep me' });
    await client.invoke('sessions.send', {
      id: session.id,
      text: 'remember this',
      capabilities: [],
    });
    close();
    await host.stop('SIGKILL');
    host = await (await import('../../helpers/host-process')).startHost(home.dir);
    const again = host.connect();
    const list = await again.client.invoke('sessions.list', {});
    expect(list.sessions.map((s) => s.title)).toEqual(['Keep me']);
    const opened = await again.client.invoke('sessions.open', { id: session.id });
    expect(opened.events.find((e) => e.type === 'user_message')).toMatchObject({
      text: 'remember this',
    });
    again.close();
  });
});

function openSocket(url: string, origin?: string, cookie?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      ...(origin ? { origin } : {}),
      headers: cookie ? { cookie } : {},
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
