import { describe, expect, it } from 'vitest';
import {
  damageNotice,
  lostEventCount,
  parseLogLine,
  scanLog,
} from '../../../electron/host/store/log-recovery';

// Reading a log back after anything. Every rule here is what decides whether an event the user
// was told was saved comes back, and whether damage is told rather than hidden.

const msg = (seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    seq,
    ts: 1000 + seq,
    type: 'user_message',
    text: `t${seq}`,
    message_id: `m${seq}`,
    ...extra,
  });
const log = (...lines: string[]) => Buffer.from(lines.map((l) => l + '\n').join(''));

describe('scanning a log', () => {
  it('an empty log is whole and has nothing in it', () => {
    expect(scanLog(Buffer.alloc(0))).toEqual({
      events: [],
      goodSize: 0,
      torn: false,
      unreadable: [],
      gaps: [],
    });
  });

  it('whole lines are events; goodSize is every byte; nothing is torn', () => {
    const buf = log(msg(0), msg(1));
    const s = scanLog(buf);
    expect(s.events.map((e) => [e.seq, e.ts])).toEqual([
      [0, 1000],
      [1, 1001],
    ]);
    expect(s.goodSize).toBe(buf.length);
    expect(s.torn).toBe(false);
  });

  it('a last line without its newline is torn: not an event, and goodSize stops before it', () => {
    const whole = log(msg(0));
    const buf = Buffer.concat([whole, Buffer.from(msg(1))]);
    const s = scanLog(buf);
    expect(s.events.map((e) => e.seq)).toEqual([0]);
    expect(s.goodSize).toBe(whole.length);
    expect(s.torn).toBe(true);
    expect(s.unreadable).toEqual([]);
    // Even a complete JSON object is torn when its newline never made it.
    expect(scanLog(Buffer.from(msg(0))).torn).toBe(true);
  });

  it('an unreadable middle line is kept with its 1-based number, byte offset and exact bytes', () => {
    const first = msg(0);
    const bad = '{"seq":1,"ts":1,"type":"user_mes\u00ff';
    const buf = log(first, bad, msg(2));
    const s = scanLog(buf);
    expect(s.events.map((e) => e.seq)).toEqual([0, 2]);
    expect(s.unreadable).toEqual([
      { line: 2, offset: Buffer.byteLength(first) + 1, bytes: Buffer.from(bad) },
    ]);
    expect(s.gaps).toEqual([{ from: 1, to: 1 }]);
    // The bytes are a copy: the log's buffer can be reused.
    buf.fill(0);
    expect(s.unreadable[0]!.bytes).toEqual(Buffer.from(bad));
  });

  it('a repeated or going-back seq is unreadable, not a second event', () => {
    const s = scanLog(log(msg(0), msg(1), msg(1), msg(0), msg(2)));
    expect(s.events.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(s.unreadable.map((u) => u.line)).toEqual([3, 4]);
    expect(s.gaps).toEqual([]);
  });

  it('gaps are reported with their first and last missing seq, one per jump', () => {
    const s = scanLog(log(msg(2), msg(3), msg(7)));
    expect(s.gaps).toEqual([
      { from: 0, to: 1 },
      { from: 4, to: 6 },
    ]);
  });

  it('an empty line is unreadable', () => {
    const s = scanLog(log(msg(0), '', msg(1)));
    expect(s.events.map((e) => e.seq)).toEqual([0, 1]);
    expect(s.unreadable.map((u) => [u.line, u.bytes.length])).toEqual([[2, 0]]);
  });
});

describe('one line as an event', () => {
  it('takes a valid line, with its seq and ts', () => {
    expect(parseLogLine(msg(5))).toMatchObject({ seq: 5, ts: 1005, type: 'user_message' });
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['a number', '5'],
    ['a string', '"x"'],
    ['no seq', JSON.stringify({ ts: 1, type: 'user_message', text: 'a', message_id: 'm' })],
    ['a string seq', msg(0).replace('"seq":0', '"seq":"0"')],
    ['a fractional seq', msg(0).replace('"seq":0', '"seq":0.5')],
    ['a negative seq', msg(0).replace('"seq":0', '"seq":-1')],
    ['no ts', JSON.stringify({ seq: 0, type: 'user_message', text: 'a', message_id: 'm' })],
    ['a string ts', msg(0).replace('"ts":1000', '"ts":"1000"')],
    ['an unknown type', JSON.stringify({ seq: 0, ts: 1, type: 'nope' })],
    ['a body missing a field', JSON.stringify({ seq: 0, ts: 1, type: 'user_message' })],
  ])('refuses %s', (_what, line) => {
    expect(parseLogLine(line)).toBeNull();
  });

  it('seq 0 and ts 0 are valid', () => {
    expect(parseLogLine(msg(0).replace('"ts":1000', '"ts":0'))).toMatchObject({ seq: 0, ts: 0 });
  });
});

describe('what damage cost', () => {
  const u = (line: number) => ({ line, offset: 0, bytes: Buffer.alloc(0) });

  it('counts missing seqs and unreadable lines, the same loss never twice', () => {
    expect(lostEventCount({ unreadable: [], gaps: [] })).toBe(0);
    expect(lostEventCount({ unreadable: [], gaps: [{ from: 2, to: 4 }] })).toBe(3);
    expect(lostEventCount({ unreadable: [u(1), u(2)], gaps: [] })).toBe(2);
    // The unreadable line is the missing seq: one event lost.
    expect(lostEventCount({ unreadable: [u(2)], gaps: [{ from: 1, to: 1 }] })).toBe(1);
    expect(
      lostEventCount({
        unreadable: [u(2)],
        gaps: [
          { from: 1, to: 1 },
          { from: 5, to: 6 },
        ],
      }),
    ).toBe(3);
  });

  it('no loss, no notice', () => {
    expect(damageNotice({ unreadable: [], gaps: [] }, '/f', '/aside')).toBeNull();
  });

  it('one lost event, singular, with its line and where the bytes are', () => {
    expect(damageNotice({ unreadable: [u(3)], gaps: [] }, '/s/events.jsonl', '/s/x.jsonl')).toBe(
      '1 event could not be read from /s/events.jsonl; unreadable line 3 (the raw bytes are kept in /s/x.jsonl)',
    );
  });

  it('several, plural, every line and every gap listed, no aside named when there is none', () => {
    expect(
      damageNotice(
        {
          unreadable: [u(3), u(9)],
          gaps: [
            { from: 2, to: 2 },
            { from: 5, to: 7 },
          ],
        },
        '/f',
        null,
      ),
    ).toBe('4 events could not be read from /f; unreadable lines 3, 9; missing seq 2, 5-7');
  });

  it('gaps alone: no unreadable part', () => {
    expect(damageNotice({ unreadable: [], gaps: [{ from: 0, to: 1 }] }, '/f', '/a')).toBe(
      '2 events could not be read from /f; missing seq 0-1',
    );
  });
});
