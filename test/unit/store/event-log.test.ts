import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EventLog,
  LogWriteError,
  nodeLogIo,
  unreadableFileFor,
  type LogIo,
} from '../../../electron/host/store/event-log';
import { tempDir } from '../../helpers/temp';

let t: ReturnType<typeof tempDir>;
afterEach(() => t?.cleanup());

const msg = (text: string) => ({ type: 'user_message' as const, text, message_id: `m_${text}` });

describe('EventLog', () => {
  it('assigns consecutive seqs and keeps events across reopen', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const log = await EventLog.open(file);
    const events = await Promise.all(['a', 'b', 'c'].map((x) => log.append(msg(x))));
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2]);
    await log.close();
    const again = await EventLog.open(file);
    expect(again.all().map((e) => (e.type === 'user_message' ? e.text : ''))).toEqual([
      'a',
      'b',
      'c',
    ]);
    await again.close();
  });

  it('acknowledges an event only once it is on disk', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const log = await EventLog.open(file);
    const e = await log.append(msg('durable'));
    expect(readFileSync(file, 'utf8')).toContain(JSON.stringify(e));
    await log.close();
  });

  it('cuts a torn last line and keeps every earlier event', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const log = await EventLog.open(file);
    await log.append(msg('one'));
    await log.append(msg('two'));
    await log.close();
    appendFileSync(file, '{"seq":2,"ts":1,"type":"user_mess');
    const again = await EventLog.open(file);
    expect(again.length).toBe(2);
    const next = await again.append(msg('three'));
    expect(next.seq).toBe(2);
    await again.close();
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readFileSync(file, 'utf8')).not.toContain('user_mess"');
    const back = await EventLog.open(file);
    expect(back.all().map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(back.damage).toBeNull();
    await back.close();
  });

  it('skips a damaged middle line with a notice, keeps its raw bytes aside, and goes on after the last seq', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const good = (seq: number) => JSON.stringify({ seq, ts: 1, ...msg(String(seq)) });
    writeFileSync(file, `${good(0)}\n{"seq":1,"ts":1,"type":"user_mes\xff\n${good(2)}\n`);
    const before = readFileSync(file);
    const log = await EventLog.open(file);
    expect(log.all().map((e) => e.seq)).toEqual([0, 2]);
    expect(log.damage).toBe(
      `1 event could not be read from ${file}; unreadable line 2 (the raw bytes are kept in ${unreadableFileFor(file)}); missing seq 1`,
    );
    const aside = JSON.parse(readFileSync(unreadableFileFor(file), 'utf8')) as {
      line: number;
      base64: string;
    };
    expect(aside.line).toBe(2);
    expect(Buffer.from(aside.base64, 'base64')).toEqual(
      before.subarray(before.indexOf(0x0a) + 1, before.indexOf(0x0a, before.indexOf(0x0a) + 1)),
    );
    expect((await log.append(msg('next'))).seq).toBe(3);
    expect(log.slice(1, 3).map((e) => e.seq)).toEqual([2]);
    await log.close();
    // The log itself is never rewritten: the damaged bytes are still where they were.
    expect(readFileSync(file).subarray(0, before.length)).toEqual(before);
  });

  it('reports a seq gap and a repeated seq', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const good = (seq: number) => JSON.stringify({ seq, ts: 1, ...msg(String(seq)) });
    writeFileSync(file, [0, 1, 4, 4, 5].map((n) => good(n) + '\n').join(''));
    const log = await EventLog.open(file);
    expect(log.all().map((e) => e.seq)).toEqual([0, 1, 4, 5]);
    expect(log.length).toBe(6);
    expect(log.damage).toMatch(
      /^2 events could not be read .*unreadable line 4 .*missing seq 2-3$/,
    );
    await log.close();
  });

  it('an undamaged log has no notice and no aside file', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const log = await EventLog.open(file);
    await log.append(msg('a'));
    await log.close();
    const again = await EventLog.open(file);
    expect(again.damage).toBeNull();
    expect(existsSync(unreadableFileFor(file))).toBe(false);
    await again.close();
  });

  it('rejects an event that does not match the schema before writing anything', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const log = await EventLog.open(file);
    await expect(log.append({ type: 'user_message' } as never)).rejects.toThrow();
    expect(log.length).toBe(0);
    await log.close();
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});

/** The real file, with faults injected at the write or the sync; every call is counted. */
function faultyIo(plan: {
  /** Bytes each write accepts at most (a short write). */
  maxWrite?: number;
  /** errno thrown by write number N (0-based) onwards while `failing()` is true. */
  writeError?: string;
  syncError?: string;
  failing?: () => boolean;
  calls?: string[];
}): LogIo {
  return {
    openAppend: async (file) => {
      const h = await nodeLogIo.openAppend(file);
      const fail = (code: string) => Object.assign(new Error(code), { code });
      return {
        write: async (buf, off, len) => {
          plan.calls?.push('write');
          if (plan.writeError && (plan.failing?.() ?? true)) {
            // A full disk accepts a few bytes first, then refuses.
            await h.write(buf, off, Math.min(len, 7));
            throw fail(plan.writeError);
          }
          return h.write(buf, off, Math.min(len, plan.maxWrite ?? len));
        },
        datasync: async () => {
          plan.calls?.push('datasync');
          if (plan.syncError && (plan.failing?.() ?? true)) throw fail(plan.syncError);
          return h.datasync();
        },
        truncate: (n) => h.truncate(n),
        close: () => h.close(),
      };
    },
  };
}

describe('EventLog faults', () => {
  it('finishes a short write instead of leaving half a line', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const log = await EventLog.open(file, { io: faultyIo({ maxWrite: 5 }) });
    await Promise.all(['alpha', 'beta', 'gamma'].map((x) => log.append(msg(x))));
    await log.close();
    expect((await EventLog.recover(file)).map((e) => e.seq)).toEqual([0, 1, 2]);
  });

  it.each([
    ['ENOSPC', 'write', 'disk full'],
    ['EDQUOT', 'write', 'disk full'],
    ['EIO', 'sync', 'disk error (EIO)'],
  ])(
    '%s at %s: the event is refused with a clear message, not acknowledged, and the log goes on once it clears',
    async (code, at, words) => {
      t = tempDir();
      const file = join(t.dir, 'events.jsonl');
      let full = false;
      const calls: string[] = [];
      const heard: number[] = [];
      const log = await EventLog.open(file, {
        io: faultyIo({
          ...(at === 'write' ? { writeError: code } : { syncError: code }),
          failing: () => full,
          calls,
        }),
        onAppended: (e) => heard.push(e.seq),
      });
      await log.append(msg('before'));
      full = true;
      const refused = log.append(msg('lost'));
      await expect(refused).rejects.toBeInstanceOf(LogWriteError);
      await expect(refused).rejects.toThrow(`${words}: the session could not be saved at ${file}`);
      expect(heard).toEqual([0]);
      expect(log.length).toBe(1);
      // Nothing of the refused event is left in the file.
      expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);
      full = false;
      expect((await log.append(msg('after'))).seq).toBe(1);
      await log.close();
      const back = await EventLog.recover(file);
      expect(back.map((e) => (e.type === 'user_message' ? e.text : ''))).toEqual([
        'before',
        'after',
      ]);
      expect(calls).toContain('datasync');
    },
  );

  it('syncs every batch before acknowledging it', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const calls: string[] = [];
    const log = await EventLog.open(file, { io: faultyIo({ calls }) });
    await log.append(msg('a'));
    expect(calls.at(-1)).toBe('datasync');
    await log.close();
  });
});
