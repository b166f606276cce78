import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EventLog,
  LogWriteError,
  nodeLogIo,
  unreadableFileFor,
  type LogHandle,
  type LogIo,
} from '../../../electron/host/store/event-log';
import { tempDir } from '../../helpers/temp';

// The event log's promises beyond the happy path: group commit (one fsync per batch, not per
// event), what is acknowledged and in which order, reading back after release, and what each kind
// of write failure leaves behind.

let t: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  t?.cleanup();
  t = undefined;
});

const msg = (text: string) => ({ type: 'user_message' as const, text, message_id: `m_${text}` });
const texts = (events: readonly { type: string }[]) =>
  events.map((e) => (e as { text?: string }).text);

function logFile(): string {
  t = tempDir('mewbo-log-');
  return join(realpathSync(t.dir), 'events.jsonl');
}

/** The real file, with every call recorded and faults scripted per call. */
function scriptedIo(script: {
  calls: string[];
  write?: (n: number) => string | undefined;
  truncate?: (n: number) => string | undefined;
}): LogIo {
  let writes = 0;
  let truncates = 0;
  const fail = (code: string) => Object.assign(new Error(`fake ${code}`), { code });
  return {
    openAppend: async (file) => {
      const h: LogHandle = await nodeLogIo.openAppend(file);
      return {
        write: async (buf, off, len) => {
          const code = script.write?.(writes++);
          script.calls.push(code ? `write!${code}` : 'write');
          if (code) {
            await h.write(buf, off, Math.min(len, 5)); // a few bytes land, then the failure
            throw fail(code);
          }
          return h.write(buf, off, len);
        },
        datasync: async () => {
          script.calls.push('datasync');
          return h.datasync();
        },
        truncate: async (n) => {
          const code = script.truncate?.(truncates++);
          script.calls.push(code ? `truncate!${code}` : `truncate ${n}`);
          if (code) throw fail(code);
          return h.truncate(n);
        },
        close: () => h.close(),
      };
    },
  };
}

describe('event log: group commit and acknowledgement', () => {
  it('appends made while a batch is being written go out together, with one fsync', async () => {
    const file = logFile();
    const calls: string[] = [];
    const log = await EventLog.open(file, { io: scriptedIo({ calls }) });
    const all = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((x) => log.append(msg(x))));
    expect(all.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    // The first flush starts with one event; the four that arrive meanwhile are the next batch.
    expect(calls).toEqual(['write', 'datasync', 'write', 'datasync']);
    // A batch shares its timestamp.
    expect(new Set(all.slice(1).map((e) => e.ts)).size).toBe(1);
    await log.close();
  });

  it('tells onAppended of every durable event in seq order, once, and keeps lastTs', async () => {
    const file = logFile();
    const heard: number[] = [];
    const log = await EventLog.open(file, (e) => heard.push(e.seq));
    expect(log.lastTs).toBeNull();
    const before = Date.now();
    const events = await Promise.all(['a', 'b', 'c'].map((x) => log.append(msg(x))));
    expect(heard).toEqual([0, 1, 2]);
    expect(log.lastTs).toBe(events[2]!.ts);
    expect(log.lastTs!).toBeGreaterThanOrEqual(before);
    await log.close();
    const again = await EventLog.open(file);
    expect(again.lastTs).toBe(events[2]!.ts);
    expect(again.length).toBe(3);
    await again.close();
  });

  it('the line on disk is exactly the acknowledged event', async () => {
    const file = logFile();
    const log = await EventLog.open(file);
    const e = await log.append(msg('x'));
    await log.close();
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(e)}\n`);
  });

  it('after release, events are read back from the disk, and appends go on', async () => {
    const file = logFile();
    const log = await EventLog.open(file);
    await log.append(msg('a'));
    await log.append(msg('b'));
    expect(log.holdsEvents).toBe(true);
    log.release();
    expect(log.holdsEvents).toBe(false);
    await log.append(msg('c'));
    expect(log.holdsEvents).toBe(false);
    expect(texts(log.all())).toEqual(['a', 'b', 'c']);
    expect(log.holdsEvents).toBe(true);
    await log.append(msg('d'));
    expect(texts(log.all())).toEqual(['a', 'b', 'c', 'd']);
    await log.close();
  });

  it('slices by seq, with gaps in the log', async () => {
    const file = logFile();
    const line = (seq: number) => JSON.stringify({ seq, ts: 1, ...msg(String(seq)) }) + '\n';
    writeFileSync(file, [0, 1, 4, 5, 9].map(line).join(''));
    const log = await EventLog.open(file);
    const seqs = (a?: number, b?: number) => log.slice(a, b).map((e) => e.seq);
    expect(seqs()).toEqual([0, 1, 4, 5, 9]);
    expect(seqs(2)).toEqual([4, 5, 9]);
    expect(seqs(1, 5)).toEqual([1, 4]);
    expect(seqs(4, 4)).toEqual([]);
    expect(seqs(0, 1)).toEqual([0]);
    expect(seqs(5, 100)).toEqual([5, 9]);
    expect(seqs(10)).toEqual([]);
    expect(log.length).toBe(10);
    await log.close();
  });

  it('after close, appends are refused and nothing is written; close twice is fine', async () => {
    const file = logFile();
    const log = await EventLog.open(file);
    const pending = log.append(msg('last'));
    await log.close();
    await expect(pending).resolves.toMatchObject({ seq: 0 });
    await expect(log.append(msg('late'))).rejects.toThrow(`${file}: log is closed`);
    await log.close();
    expect(texts(await EventLog.recover(file))).toEqual(['last']);
  });
});

describe('event log: write failures', () => {
  it('a storage error cuts the partial bytes at once and the next batch writes without a second cut', async () => {
    const file = logFile();
    const calls: string[] = [];
    const log = await EventLog.open(file, {
      io: scriptedIo({ calls, write: (n) => (n === 1 ? 'ENOSPC' : undefined) }),
    });
    const first = await log.append(msg('a'));
    const size = readFileSync(file).length;
    const err = await log.append(msg('b')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogWriteError);
    expect(err).toMatchObject({
      name: 'LogWriteError',
      code: 'disk_full',
      errno: 'ENOSPC',
      file,
      cause: expect.objectContaining({ code: 'ENOSPC' }),
    });
    expect(readFileSync(file).length).toBe(size);
    expect((await log.append(msg('c'))).seq).toBe(first.seq + 1);
    expect(calls).toEqual([
      'write',
      'datasync',
      'write!ENOSPC',
      `truncate ${size}`,
      'write',
      'datasync',
    ]);
    await log.close();
  });

  it('when the cut itself fails, the next batch cuts first, so the log stays whole lines', async () => {
    const file = logFile();
    const calls: string[] = [];
    const log = await EventLog.open(file, {
      io: scriptedIo({
        calls,
        write: (n) => (n === 1 ? 'EIO' : undefined),
        truncate: (n) => (n === 0 ? 'EIO' : undefined),
      }),
    });
    await log.append(msg('a'));
    const size = readFileSync(file).length;
    await expect(log.append(msg('b'))).rejects.toMatchObject({ code: 'disk_error' });
    expect(readFileSync(file).length).toBe(size + 5); // the partial bytes are still there
    await log.append(msg('c'));
    expect(calls.slice(2)).toEqual([
      'write!EIO',
      'truncate!EIO',
      `truncate ${size}`,
      'write',
      'datasync',
    ]);
    await log.close();
    expect(texts(await EventLog.recover(file))).toEqual(['a', 'c']);
    expect((await EventLog.scan(file)).unreadable).toEqual([]);
  });

  it.each([
    ['EDQUOT', 'disk_full', 'disk full: the session could not be saved at'],
    ['EIO', 'disk_error', 'disk error (EIO): the session could not be saved at'],
    ['EFBIG', 'disk_error', 'disk error (EFBIG): the session could not be saved at'],
    ['EROFS', 'disk_error', 'disk error (EROFS): the session could not be saved at'],
  ])('%s is a storage error (%s) with the sentence the user sees', async (code, kind, words) => {
    const file = logFile();
    const log = await EventLog.open(file, {
      io: scriptedIo({ calls: [], write: (n) => (n === 0 ? code : undefined) }),
    });
    await expect(log.append(msg('x'))).rejects.toMatchObject({
      code: kind,
      message: `${words} ${file}`,
    });
    await log.close();
  });

  it('any other error reaches the caller as it is, and the log goes on', async () => {
    const file = logFile();
    const log = await EventLog.open(file, {
      io: scriptedIo({ calls: [], write: (n) => (n === 0 ? 'EBADF' : undefined) }),
    });
    const err = await log.append(msg('x')).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(LogWriteError);
    expect(err).toMatchObject({ code: 'EBADF', message: 'fake EBADF' });
    expect((await log.append(msg('y'))).seq).toBe(0);
    await log.close();
  });

  it('every event of a failed batch is refused, none acknowledged', async () => {
    const file = logFile();
    let fail = false;
    const heard: number[] = [];
    const log = await EventLog.open(file, {
      onAppended: (e) => heard.push(e.seq),
      io: scriptedIo({ calls: [], write: () => (fail ? 'ENOSPC' : undefined) }),
    });
    await log.append(msg('a'));
    fail = true;
    const gate = log.append(msg('b')); // first batch of the failing disk
    const batch = ['c', 'd'].map((x) => log.append(msg(x)));
    const results = await Promise.allSettled([gate, ...batch]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(heard).toEqual([0]);
    expect(log.length).toBe(1);
    expect(texts(log.all())).toEqual(['a']);
    await log.close();
  });
});

describe('event log: opening', () => {
  it('a log that cannot be read (not ENOENT) is an error, not an empty session', async () => {
    const file = logFile();
    mkdirSync(file);
    await expect(EventLog.scan(file)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('a missing log scans as empty and whole', async () => {
    const file = logFile();
    expect(await EventLog.scan(file)).toEqual({
      events: [],
      goodSize: 0,
      torn: false,
      unreadable: [],
      gaps: [],
    });
  });

  it('the aside file holds each unreadable line with its line number, offset and bytes', async () => {
    const file = logFile();
    const good = (seq: number) => JSON.stringify({ seq, ts: 1, ...msg(String(seq)) });
    writeFileSync(file, `${good(0)}\nbad one\n${good(1)}\nbad two\n`);
    const log = await EventLog.open(file);
    await log.close();
    const aside = readFileSync(unreadableFileFor(file), 'utf8');
    expect(aside.endsWith('\n')).toBe(true);
    expect(
      aside
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { line: 2, offset: good(0).length + 1, base64: Buffer.from('bad one').toString('base64') },
      {
        line: 4,
        offset: 2 * good(0).length + 2 + 'bad one'.length + 1,
        base64: Buffer.from('bad two').toString('base64'),
      },
    ]);
    expect(log.damage).toMatch(/^2 events could not be read/);
  });

  it('the aside file sits beside the log', () => {
    expect(unreadableFileFor('/s/x/events.jsonl')).toBe('/s/x/events.unreadable.jsonl');
    expect(unreadableFileFor('/s/x/log')).toBe('/s/x/log.unreadable.jsonl');
    expect(unreadableFileFor('/s/a.jsonl.d/events.jsonl')).toBe(
      '/s/a.jsonl.d/events.unreadable.jsonl',
    );
  });

  it("lastTs after reopening is the newest event's", async () => {
    const file = logFile();
    const line = (seq: number, ts: number) =>
      JSON.stringify({ seq, ts, ...msg(String(seq)) }) + '\n';
    writeFileSync(file, line(0, 100) + line(1, 200) + line(2, 300));
    const log = await EventLog.open(file);
    expect(log.lastTs).toBe(300);
    await log.close();
  });
});

describe('event log: the real file', () => {
  it('fdatasyncs the batch on the real descriptor before acknowledging it', async () => {
    const file = logFile();
    const log = await EventLog.open(file);
    const probe = await open(file, 'r');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const seen: string[] = [];
    const real = proto.datasync;
    const spy = vi.spyOn(proto, 'datasync').mockImplementation(async function (this: FileHandle) {
      seen.push(readFileSync(file, 'utf8'));
      return real.call(this);
    });
    try {
      const e = await log.append(msg('synced'));
      // At the fdatasync the line was written whole; the ack came after it.
      expect(seen).toEqual([`${JSON.stringify(e)}\n`]);
    } finally {
      spy.mockRestore();
      await log.close();
    }
  });

  it('closing releases the descriptor, once however often it is called', async () => {
    const file = logFile();
    const fdsOnFile = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false;
        }
      }).length;
    const log = await EventLog.open(file);
    await log.append(msg('a'));
    expect(fdsOnFile()).toBe(1);
    await log.close();
    expect(fdsOnFile()).toBe(0);
    let closes = 0;
    const counted = await EventLog.open(file, {
      io: {
        openAppend: async (f) => {
          const h = await nodeLogIo.openAppend(f);
          return { ...h, close: () => (closes++, h.close()) };
        },
      },
    });
    await counted.close();
    await counted.close();
    expect(closes).toBe(1);
  });
});
