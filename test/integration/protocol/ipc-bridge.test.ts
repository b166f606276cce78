import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../../electron/host/host';
import { RpcConnection } from '../../../electron/host/rpc/connection';
import { IpcClient } from '../../../electron/window/ipc-client';
import type { ClientFrame, HostFrame } from '../../../shared/protocol/wire';
import type { SessionsChange } from '../../../shared/protocol/session-summary';
import { tempDir } from '../../helpers/temp';

// The desktop window's IPC, without Electron: the preload's IpcClient and main's RpcConnection on
// a real host, joined by one channel each way (what ipcRenderer.send / webContents.send carry).
// Calls and several subscriptions share it; one listener routes replies by id.

let host: Host | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await host?.dispose();
  cleanup?.();
  host = undefined;
});

async function until(pred: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('IPC bridge', () => {
  it('carries calls and several subscriptions over one channel, each reply to its own caller', async () => {
    const t = tempDir('mewbo-ipc-');
    cleanup = t.cleanup;
    host = await Host.create({ env: { PATH: process.env.PATH, HOME: t.dir, MEWBO_HOME: t.dir } });
    const toMain: ClientFrame[] = [];
    // The two ends, joined both ways (the host's frames reach the client through `ends`).
    const ends: { client?: IpcClient } = {};
    const conn = new RpcConnection(host.router, { clientId: 'ipc-1', transport: 'ipc' }, (f) =>
      // Structured clone, as IPC does: nothing is shared by reference.
      ends.client!.receive(structuredClone(f) as HostFrame),
    );
    const client = new IpcClient((f) => {
      toMain.push(f);
      conn.receive(structuredClone(f));
    });
    ends.client = client;

    const a: SessionsChange[] = [];
    const b: SessionsChange[] = [];
    const subA = client.subscribe(
      'sessions',
      undefined,
      (d) => a.push(d as SessionsChange),
      () => {},
    );
    client.subscribe(
      'sessions',
      undefined,
      (d) => b.push(d as SessionsChange),
      () => {},
    );
    const refused: string[] = [];
    client.subscribe(
      'nope',
      undefined,
      () => {},
      (e) => refused.push(e.code),
    );

    const created = await client.invoke('sessions.create', { title: 'over ipc' });
    expect(created).toMatchObject({ ok: true, value: { session: { title: 'over ipc' } } });
    const bad = await client.invoke('sessions.rename', { id: 's_abcdefgh', title: '' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    await until(
      () => a.some((c) => c.type === 'upsert') && b.some((c) => c.type === 'upsert'),
      'both subscriptions',
    );
    await until(() => refused.length === 1, 'the refusal');
    expect(refused).toEqual(['unknown_topic']);

    subA.unsubscribe();
    const seenA = a.length;
    await client.invoke('sessions.create', { title: 'second' });
    await until(() => b.filter((c) => c.type === 'upsert').length >= 2, 'the second upsert');
    expect(a.length).toBe(seenA);
    expect(new Set(toMain.map((f) => f.t))).toEqual(
      new Set(['subscribe', 'invoke', 'unsubscribe']),
    );
    conn.dispose();
  });
});
