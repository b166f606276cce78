import { afterEach, describe, expect, it, vi } from 'vitest';
import { toDisposable } from '../../../electron/host/lifecycle/disposable';
import { SessionManager } from '../../../electron/host/sessions/session-manager';
import { tempDir } from '../../helpers/temp';

// One owner per open session: nobody viewing it and nothing running lets its events go at once
// and closes it after a quiet period (short here, so the test does not wait a minute); it
// reopens on demand with its history intact.

let t: ReturnType<typeof tempDir>;
let m: SessionManager | undefined;
afterEach(async () => {
  await m?.dispose();
  m = undefined;
  t?.cleanup();
});

function manager(busy: (id: string) => boolean = () => false): SessionManager {
  t = tempDir();
  m = new SessionManager(t.dir, { quietMs: 200, busy });
  return m;
}

const tick = () => new Promise((r) => setImmediate(r));

describe('session lifetimes', () => {
  it('an unviewed idle session lets go of its events at once, closes after the quiet period, and reopens on demand', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'quiet' });
    const disposed = vi.fn();
    s.resources.add(toDisposable(disposed));
    await sm.rename(s.id, 'renamed');
    await tick();
    expect(s.holdsEvents).toBe(false);
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
    // Its owner disposed what the session held (agent state, leases, shells' managers).
    await vi.waitFor(() => expect(disposed).toHaveBeenCalledOnce());
    const again = await sm.get(s.id);
    expect(again).not.toBe(s);
    expect(again.events().map((e) => e.type)).toEqual(['session_created', 'session_renamed']);
    expect(again.summary().title).toBe('renamed');
  });

  it('a session on an external agent is listed with its agent after it closed, as while open', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'external', agent: 'claude-code' });
    expect((await sm.list())[0]).toMatchObject({ id: s.id, agent: 'claude-code' });
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
    expect((await sm.list())[0]).toMatchObject({ id: s.id, agent: 'claude-code' });
  });

  it('a session whose run failed is listed as failed after it closed, and as its live state once reopened', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'broken' });
    await s.append({ type: 'run_state', state: 'running' });
    await s.append({ type: 'run_state', state: 'failed' });
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
    // Closed for being quiet: the list reads its settled state from meta.json, unloaded.
    expect((await sm.list())[0]).toMatchObject({ id: s.id, run_state: 'failed' });
    expect(sm.isLoaded(s.id)).toBe(false);
    // Reopened and run again, it is what it now is; closed again, not failed any more.
    const again = await sm.get(s.id);
    await again.append({ type: 'run_state', state: 'running' });
    await again.append({ type: 'run_state', state: 'idle' });
    expect((await sm.list())[0]).toMatchObject({ id: s.id, run_state: 'idle' });
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
    expect((await sm.list())[0]).toMatchObject({ id: s.id, run_state: 'idle' });
  });

  it('a viewed session keeps its events and stays open; it lets go once the last viewer leaves', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'watched' });
    const a = await sm.watch(s.id, 0, () => {});
    const b = await sm.watch(s.id, 0, () => {});
    await sm.rename(s.id, 'still watched');
    await tick();
    await new Promise((r) => setTimeout(r, 400));
    expect(sm.isLoaded(s.id)).toBe(true);
    expect(s.holdsEvents).toBe(true);
    await a.dispose();
    await tick();
    expect(s.holdsEvents).toBe(true);
    await b.dispose();
    expect(s.holdsEvents).toBe(false);
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
  });

  it('a session that runs something stays open until the run ends', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'busy' });
    await s.append({ type: 'run_state', state: 'running' });
    await new Promise((r) => setTimeout(r, 400));
    expect(sm.isLoaded(s.id)).toBe(true);
    await s.append({ type: 'run_state', state: 'idle' });
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
  });

  it("a live shell (the host's busy check) keeps it open; settle after the shell ends closes it", async () => {
    let shellRunning = true;
    const sm = manager(() => shellRunning);
    const s = await sm.create({ title: 'shell' });
    await new Promise((r) => setTimeout(r, 400));
    expect(sm.isLoaded(s.id)).toBe(true);
    shellRunning = false;
    sm.settle(s.id);
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
  });

  it('a session loaded while it closes waits, so two logs never append to one file', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'race' });
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
    const [x, y] = await Promise.all([sm.get(s.id), sm.get(s.id)]);
    expect(x).toBe(y);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => x.append({ type: 'session_renamed', title: `t${i}` })),
    );
    await vi.waitFor(() => expect(sm.isLoaded(s.id)).toBe(false));
    const back = await sm.get(s.id);
    expect(back.events().map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i));
    expect(back.summary().notice).toBeUndefined();
  });

  it('a released session reads its events back from the log when asked', async () => {
    const sm = manager();
    const s = await sm.create({ title: 'reread' });
    await sm.rename(s.id, 'two');
    await tick();
    expect(s.holdsEvents).toBe(false);
    expect(s.events().map((e) => e.seq)).toEqual([0, 1]);
    expect(s.holdsEvents).toBe(true);
  });
});
