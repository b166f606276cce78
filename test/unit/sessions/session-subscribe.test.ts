import { afterEach, describe, expect, it } from 'vitest';
import { SessionManager } from '../../../electron/host/sessions/session-manager';
import { tempDir } from '../../helpers/temp';
import type { SessionEvent } from '../../../shared/protocol/events';

let t: ReturnType<typeof tempDir>;
afterEach(() => t?.cleanup());

describe('session subscriptions', () => {
  it('replay then live arrives in order with no gap and no duplicate while appends race the subscribe', async () => {
    t = tempDir();
    const sessions = new SessionManager(t.dir);
    const session = await sessions.create({ title: 'race' });
    const appends: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++)
      appends.push(session.append({ type: 'user_message', text: `m${i}`, message_id: `m${i}` }));
    const seen: number[] = [];
    // Subscribe while half the burst is still being flushed.
    await appends[100];
    const sub = session.subscribe(5, (e) => seen.push((e as SessionEvent).seq));
    await Promise.all(appends);
    sub.dispose();
    expect(seen).toEqual(Array.from({ length: session.length - 5 }, (_, i) => i + 5));
    await sessions.dispose();
  });

  it('deleting a session disposes what was registered with it and removes it from the list', async () => {
    t = tempDir();
    const sessions = new SessionManager(t.dir);
    const session = await sessions.create();
    let disposed = false;
    session.resources.add({ dispose: () => void (disposed = true) });
    await sessions.delete(session.id);
    expect(disposed).toBe(true);
    expect(await sessions.list()).toEqual([]);
    await expect(sessions.get(session.id)).rejects.toThrow(/no session/);
    await sessions.dispose();
  });

  it('the sessions list announces a rename with the new title', async () => {
    t = tempDir();
    const sessions = new SessionManager(t.dir);
    const session = await sessions.create({ title: 'old' });
    const announced: string[] = [];
    sessions.onDidChange((c) => {
      if (c.type === 'upsert') announced.push(c.session.title);
    });
    await sessions.rename(session.id, 'new');
    expect(announced).toEqual(['new']);
    await sessions.dispose();
  });
});
