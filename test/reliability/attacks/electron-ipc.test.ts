import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../../electron/host/host';
import { RpcConnection } from '../../../electron/host/rpc/connection';
import { trustedSender, type IpcSenderEvent } from '../../../electron/window/ipc-sender';
import { tempDir } from '../../helpers/temp';

// Route 12 of the trust boundary: a frame that is not the app's own main frame (an iframe a
// message embeds, a page the window was navigated to) sends a protocol frame over IPC to rename
// and delete the user's sessions. main.ts's one IPC listener is `if (trustedSender(e))
// connection.receive(frame)`: the same gate here, on a real host, first without the check.

let host: Host | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await host?.dispose();
  cleanup?.();
  host = undefined;
});

const appMain = { url: 'app://mewbo/index.html' };
const attackers: [string, IpcSenderEvent][] = [
  [
    'an iframe in the app window',
    { senderFrame: { url: 'https://evil.example/' }, sender: { mainFrame: appMain } },
  ],
  [
    'an app-origin iframe',
    { senderFrame: { url: 'app://mewbo/index.html' }, sender: { mainFrame: appMain } },
  ],
  [
    'a page the window navigated to',
    (() => {
      const f = { url: 'https://evil.example/' };
      return { senderFrame: f, sender: { mainFrame: f } };
    })(),
  ],
];

const LOCAL = { clientId: 'app', transport: 'local' } as const;

async function titles(h: Host): Promise<string[]> {
  const list = await h.router.invoke('sessions.list', {}, LOCAL);
  return list.ok
    ? (list.value as { sessions: { title: string }[] }).sessions.map((s) => s.title)
    : [];
}

async function attack(
  check: (e: IpcSenderEvent) => boolean,
  from: IpcSenderEvent,
): Promise<string[]> {
  const t = tempDir('mewbo-ipc-attack-');
  cleanup = t.cleanup;
  host = await Host.create({ env: { PATH: process.env.PATH, HOME: t.dir, MEWBO_HOME: t.dir } });
  const created = await host.router.invoke('sessions.create', { title: 'mine' }, LOCAL);
  if (!created.ok) throw new Error(created.error.message);
  const { session } = created.value as { session: { id: string } };
  let replied!: () => void;
  const reply = new Promise<void>((r) => (replied = r));
  const conn = new RpcConnection(host.router, { clientId: 'ipc-2', transport: 'ipc' }, () =>
    replied(),
  );
  // main.ts's listener, with the check under test.
  const listener = (e: IpcSenderEvent, frame: unknown): boolean => {
    if (!check(e)) return false;
    conn.receive(frame);
    return true;
  };
  const frame = { t: 'invoke', id: 1, method: 'sessions.delete', params: { id: session.id } };
  if (listener(from, frame)) await reply;
  conn.dispose();
  return titles(host);
}

describe('IPC from a frame that is not the app', () => {
  it.each(attackers)('without the sender check, %s deletes a session', async (_name, from) => {
    expect(await attack(() => true, from)).toEqual([]);
  });

  it.each(attackers)('with it, %s is refused and the session stays', async (_name, from) => {
    expect(await attack(trustedSender, from)).toEqual(['mine']);
  });

  it("the app's own main frame still works through the same gate", async () => {
    expect(
      await attack(trustedSender, { senderFrame: appMain, sender: { mainFrame: appMain } }),
    ).toEqual([]);
  });
});
