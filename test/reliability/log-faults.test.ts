import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../electron/host/host';
import type { ClientContext } from '../../electron/host/rpc/router';
import type { CommandName, RequestOf, ResponseOf } from '../../shared/protocol/commands';
import { unreadableFileFor } from '../../electron/host/store/event-log';
import { tempDir } from '../helpers/temp';

// The faults a session log meets in use, each through the host's protocol as a client sees it:
// a disk that fills up (a real 256 KiB tmpfs when this runs as root, where mount works), a
// damaged line in the middle, a log that cannot be read at all, a folder put there by hand.

const CLIENT: ClientContext = { clientId: 'test', transport: 'local' };
let home: ReturnType<typeof tempDir>;
let host: Host | undefined;
let mounted: string | undefined;

afterEach(async () => {
  await host?.dispose();
  host = undefined;
  if (mounted) execFileSync('umount', [mounted]);
  mounted = undefined;
  home?.cleanup();
});

async function start(): Promise<Host> {
  host = await Host.create({
    env: { PATH: process.env.PATH, HOME: home.dir, MEWBO_HOME: home.dir },
  });
  return host;
}

async function call<K extends CommandName>(
  method: K,
  params: RequestOf<K>,
): Promise<{ ok: true; value: ResponseOf<K> } | { ok: false; code: string; message: string }> {
  const r = await host!.router.invoke(method, params, CLIENT);
  return r.ok ? { ok: true, value: r.value as ResponseOf<K> } : { ok: false, ...r.error };
}

async function must<K extends CommandName>(
  method: K,
  params: RequestOf<K>,
): Promise<ResponseOf<K>> {
  const r = await call(method, params);
  if (!r.ok) throw new Error(`${method}: ${r.code}: ${r.message}`);
  return r.value;
}

function tryMountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes until the file system refuses: what is left is less than a page. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096, 0x61);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const t = tempDir('mewbo-mount-probe-');
  try {
    const ok = tryMountTmpfs(join(t.dir, 'm'), '64k');
    if (ok) execFileSync('umount', [join(t.dir, 'm')]);
    return ok;
  } finally {
    t.cleanup();
  }
})();

describe('session logs under faults, through the protocol', () => {
  it.skipIf(!canMount)(
    'a full disk (real tmpfs) refuses the message with "disk full", keeps nothing of it, and the session continues once space is back',
    async () => {
      home = tempDir('mewbo-enospc-');
      const sessions = join(home.dir, 'sessions');
      expect(tryMountTmpfs(sessions, '256k')).toBe(true);
      mounted = sessions;
      await start();
      const { session } = await must('sessions.create', { title: 'fills the disk' });
      const log = join(sessions, session.id, 'events.jsonl');
      const filler = join(sessions, 'filler');
      fill(filler);
      const big = 'x'.repeat(60_000);
      const refusedSend = await call('sessions.send', { id: session.id, text: big });
      // Less than a page is left: a 60 kB message cannot fit.
      expect(refusedSend).toMatchObject({
        ok: false,
        code: 'disk_full',
        message: `disk full: the session could not be saved at ${log}`,
      });
      expect(readFileSync(log, 'utf8')).not.toContain(big);
      expect(readFileSync(log, 'utf8').endsWith('\n')).toBe(true);
      rmSync(filler);
      await must('sessions.send', { id: session.id, text: `after ${big}` });
      await must('sessions.rename', { id: session.id, title: 'after the disk had room' });
      await host!.dispose();
      host = undefined;
      await start();
      const opened = await must('sessions.open', { id: session.id });
      const texts = opened.events.flatMap((e) => (e.type === 'user_message' ? [e.text] : []));
      expect(texts).toEqual([`after ${big}`]);
      expect(opened.events.map((e) => e.seq)).toEqual(opened.events.map((_, i) => i));
      expect(opened.session.notice).toBeUndefined();
      expect(opened.session.title).toBe('after the disk had room');
    },
  );

  it('a damaged middle line: the session opens with "N events could not be read", the bytes are kept, and it can be deleted', async () => {
    home = tempDir('mewbo-corrupt-');
    await start();
    const { session } = await must('sessions.create', { title: 'damaged' });
    await must('sessions.rename', { id: session.id, title: 'second' });
    await must('sessions.rename', { id: session.id, title: 'third' });
    await host!.dispose();
    const log = join(home.dir, 'sessions', session.id, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[1] = lines[1]!.slice(0, 20) + '\u0000garbage';
    writeFileSync(log, lines.join('\n'));
    await start();
    const opened = await must('sessions.open', { id: session.id });
    expect(opened.events.map((e) => e.seq)).toEqual([0, 2]);
    expect(opened.session.notice).toMatch(/^1 event could not be read from .*events\.jsonl/);
    expect(readFileSync(unreadableFileFor(log), 'utf8')).toContain(
      Buffer.from(lines[1]!).toString('base64'),
    );
    await must('sessions.rename', { id: session.id, title: 'fourth' });
    await must('sessions.delete', { id: session.id });
    expect(existsSync(join(home.dir, 'sessions', session.id))).toBe(false);
  });

  it('a session whose log cannot be read at all can still be deleted', async () => {
    home = tempDir('mewbo-unreadable-');
    await start();
    const { session } = await must('sessions.create', { title: 'doomed' });
    await host!.dispose();
    const folder = join(home.dir, 'sessions', session.id);
    rmSync(join(folder, 'events.jsonl'));
    mkdirSync(join(folder, 'events.jsonl')); // EISDIR on every read
    await start();
    expect((await call('sessions.open', { id: session.id })).ok).toBe(false);
    await must('sessions.delete', { id: session.id });
    expect(existsSync(folder)).toBe(false);
    expect((await must('sessions.list', {})).sessions).toEqual([]);
  });

  it('a session folder put under sessions/ by hand is listed at start', async () => {
    home = tempDir('mewbo-adopt-');
    await start();
    const { session } = await must('sessions.create', { title: 'original' });
    await must('sessions.rename', { id: session.id, title: 'copied by hand' });
    await host!.dispose();
    const src = join(home.dir, 'sessions', session.id);
    const copy = join(home.dir, 'sessions', 'My backup');
    mkdirSync(copy);
    writeFileSync(join(copy, 'events.jsonl'), readFileSync(join(src, 'events.jsonl')));
    await start();
    const listed = (await must('sessions.list', {})).sessions;
    expect(listed).toHaveLength(2);
    const adopted = listed.find((s) => s.id !== session.id)!;
    expect(adopted.title).toBe('copied by hand');
    expect(readdirSync(join(home.dir, 'sessions')).sort()).toEqual([adopted.id, session.id].sort());
    const opened = await must('sessions.open', { id: adopted.id });
    expect(opened.events).toHaveLength(2);
  });
});
