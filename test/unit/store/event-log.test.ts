import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventLog, EventLogCorruptError } from '../../../electron/host/store/event-log';
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
  });

  it('refuses a log whose middle line is damaged instead of silently dropping history', async () => {
    t = tempDir();
    const file = join(t.dir, 'events.jsonl');
    const good = (seq: number) => JSON.stringify({ seq, ts: 1, ...msg(String(seq)) });
    writeFileSync(file, `${good(0)}\nnot json\n${good(2)}\n`);
    await expect(EventLog.recover(file)).rejects.toBeInstanceOf(EventLogCorruptError);
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
