import { afterEach, describe, expect, it } from 'vitest';
import { Harness } from '../agent/harness';
import { ReferenceClient } from '../../helpers/reference-remote-client';
import { waitingShellApproval } from '../../helpers/waiting-approval';

// #21 part 2: when a session starts waiting on the user and no desktop window has focus, a phone
// with remote rights is told (remote_notify, once per item); while a window has focus it is not;
// a phone without the right is never told. Views refresh on remote_changed.

let h: Harness | undefined;
const clients: ReferenceClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await h?.close();
  h = undefined;
});

async function pair(harness: Harness, remote: boolean, name: string) {
  const offer = await harness.invoke('devices.createOffer', { remote });
  const c = await ReferenceClient.connect(offer.url, offer.fingerprint);
  clients.push(c);
  expect((await c.pair(offer.code, name)).type).toBe('paired');
  return c;
}

describe('notifications to remote phones', () => {
  it('a remote phone is told when a session starts waiting while no desktop window has focus, not while one has; a phone without the right never', async () => {
    h = await Harness.start({
      wire: 'openai',
      config: { permission_mode: 'ask', devices: { host: '127.0.0.1' } },
    });
    const remote = await pair(h, true, 'Remote phone');
    const plain = await pair(h, false, 'Plain phone');

    // A desktop window has focus: the user sees it there.
    await h.invoke('devices.reportFocus', { focused: true });
    const seen = await waitingShellApproval(h, 'echo while-focused');
    // The window loses focus; the next session that waits is announced.
    await h.invoke('devices.reportFocus', { focused: false });
    const away = await waitingShellApproval(h, 'echo while-away');

    const notify = await remote.next((f) => f.type === 'remote_notify');
    expect(notify).toMatchObject({
      v: 1,
      session_id: away.id,
      kind: 'approval',
      item_id: away.request.approval_id,
      title: 'Mewbo needs your approval',
      body: 'Run: echo while-away',
    });
    // Items notify in the order they start waiting: nothing came for the one seen on the desktop.
    expect(remote.frames.filter((f) => f.type === 'remote_notify').map((f) => f.item_id)).toEqual([
      away.request.approval_id,
    ]);
    expect(seen.request.approval_id).not.toBe(away.request.approval_id);
    // remote_changed pushes told the view to refresh.
    await remote.next((f) => f.type === 'remote_changed');

    // The phone without remote rights: one round trip later (frames keep their order on a
    // socket), still no remote frame of any kind but the refusal.
    expect(await plain.request('remote_sessions')).toMatchObject({ code: 'no_remote_rights' });
    expect(
      plain.frames.filter((f) => f.type.startsWith('remote_') && f.type !== 'remote_error'),
    ).toEqual([]);

    // Once per item: the same session waiting again (a second reason) does not repeat it.
    await remote.request('remote_sessions');
    expect(remote.frames.filter((f) => f.type === 'remote_notify')).toHaveLength(1);
  });

  it('a focus report lapses: a window that closed while focused cannot silence the phone for good', async () => {
    const { DesktopFocus } = await import('../../../electron/host/devices/desktop-focus');
    let now = 1_000;
    const focus = new DesktopFocus({ now: () => now }, 60_000);
    expect(focus.focused).toBe(false);
    focus.report('window-a', true);
    expect(focus.focused).toBe(true);
    now += 60_001;
    expect(focus.focused).toBe(false);
    focus.report('window-a', true);
    focus.report('window-b', true);
    focus.report('window-a', false);
    expect(focus.focused).toBe(true);
    focus.report('window-b', false);
    expect(focus.focused).toBe(false);
  });
});
