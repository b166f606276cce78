import { open, stat, type FileHandle } from 'node:fs/promises';
import { sessionEventBodySchema, type SessionEvent } from '../../../shared/protocol/events';
import {
  sessionSnapshotSchema,
  type SessionSnapshot,
} from '../../../shared/protocol/session-snapshot';
import { readJsonOr, writeJsonAtomic } from './atomic-json';
import { SNAPSHOT_TYPES, SnapshotBuilder } from './snapshot-builder';
import { damageNotice, type SeqGap, type UnreadableLine } from './log-recovery';

// The read side of a session's event log for clients that page through it: an index beside the
// log (`events.idx.json`) holds the byte offset of every INDEX_EVERY-th event and the session's
// snapshot as of the bytes it covers, so the newest window or an older page is one seek and one
// read of a few hundred lines, whatever the history. The log itself stays the only truth: the
// index names the bytes it covers (`size`), a log that grew past them is scanned from there on
// (parsing only the lines that change the snapshot), and an index that does not match its log
// (shorter log, different bytes at an offset) is dropped and rebuilt from the log.

export const INDEX_EVERY = 256;
const INDEX_VERSION = 1;
const CHUNK = 4 * 1024 * 1024;
/** How far a log may grow past its stored index before the index is written again. */
const SAVE_EVERY_EVENTS = INDEX_EVERY * 4;

interface IndexFile {
  v: number;
  every: number;
  /** Next seq: one past the last event covered. */
  count: number;
  /** Bytes covered: the end of the last complete line scanned. */
  size: number;
  /** offsets[i]: byte offset of the first line whose seq is >= i * every. */
  offsets: number[];
  snapshot: SessionSnapshot;
  /** Damage seen while scanning (as recovery reports it): unreadable lines, seq gaps. */
  lines: number;
  unreadable: { line: number; offset: number }[];
  gaps: SeqGap[];
}

export function indexFileFor(logFile: string): string {
  return logFile.replace(/\.jsonl$/, '') + '.idx.json';
}

export class EventLogIndex {
  private offsets: number[] = [];
  private count = 0;
  private lines = 0;
  private unreadable: { line: number; offset: number }[] = [];
  private gaps: SeqGap[] = [];
  private size = 0;
  private builder = new SnapshotBuilder();
  private savedCount = -1;
  private catching: Promise<void> | null = null;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly indexFile: string,
  ) {}

  /** Loads the stored index if it matches the log, else starts empty; then catches up (unless `scan` is false). */
  static async open(file: string, scan = true): Promise<EventLogIndex> {
    const idx = new EventLogIndex(file, indexFileFor(file));
    const stored = await readStoredIndex(idx.indexFile);
    if (stored && (await matchesLog(file, stored))) {
      idx.offsets = stored.offsets;
      idx.count = stored.count;
      idx.size = stored.size;
      idx.builder = SnapshotBuilder.from(stored.snapshot);
      idx.savedCount = stored.count;
      idx.lines = stored.lines;
      idx.unreadable = stored.unreadable;
      idx.gaps = stored.gaps;
    }
    if (scan) await idx.catchUp();
    return idx;
  }

  /** Bytes of the log the index has not scanned yet. */
  async unscannedBytes(): Promise<number> {
    const st = await stat(this.file).catch(() => null);
    return st ? Math.max(0, st.size - this.size) : 0;
  }

  /** Events in the log (one past the last seq). */
  get length(): number {
    return this.count;
  }

  snapshot(): SessionSnapshot {
    return this.builder.snapshot();
  }

  /** What could not be read, worded as recovery words it; null when nothing was lost. */
  notice(): string | null {
    return damageNotice(
      { unreadable: this.unreadable as UnreadableLine[], gaps: this.gaps },
      this.file,
      null,
    );
  }

  /** Scans whatever the log gained since the last look; one scan at a time. */
  catchUp(): Promise<void> {
    this.catching ??= this.scan().finally(() => (this.catching = null));
    return this.catching;
  }

  /** Events with seq in [from, to), in order: a seek to the nearest indexed offset, one read. */
  async read(from: number, to: number): Promise<SessionEvent[]> {
    from = Math.max(0, from);
    to = Math.min(to, this.count);
    if (from >= to) return [];
    const start = this.offsets[Math.floor(from / INDEX_EVERY)] ?? this.size;
    const endSlot = Math.ceil(to / INDEX_EVERY);
    const end = endSlot < this.offsets.length ? this.offsets[endSlot]! : this.size;
    const handle = await open(this.file, 'r');
    try {
      const buf = Buffer.allocUnsafe(end - start);
      const { bytesRead } = await handle.read(buf, 0, buf.length, start);
      const out: SessionEvent[] = [];
      forEachLine(buf.subarray(0, bytesRead), 0, (lineStart, lineEnd, b) => {
        const seq = lineSeq(b, lineStart, lineEnd);
        if (seq !== null && (seq < from || seq >= to)) return;
        const e = parseEventLine(b.toString('utf8', lineStart, lineEnd));
        if (e && e.seq >= from && e.seq < to) out.push(e);
      });
      return out;
    } finally {
      await handle.close();
    }
  }

  /** Writes the index beside the log if it moved on since the last write (best effort). */
  save(force = false): Promise<void> {
    if (!force && this.count - this.savedCount < SAVE_EVERY_EVENTS && this.savedCount >= 0)
      return this.saving;
    const value: IndexFile = {
      v: INDEX_VERSION,
      every: INDEX_EVERY,
      count: this.count,
      size: this.size,
      offsets: [...this.offsets],
      snapshot: this.builder.snapshot(),
      lines: this.lines,
      unreadable: this.unreadable,
      gaps: this.gaps,
    };
    this.savedCount = this.count;
    this.saving = this.saving
      .then(() => writeJsonAtomic(this.indexFile, value))
      .catch((err: unknown) => {
        this.savedCount = -1;
        console.error(`[store] could not write ${this.indexFile}`, err);
      });
    return this.saving;
  }

  private async scan(): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(this.file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      if (size < this.size) this.reset(); // the log was cut: what the index covered is gone
      let pos = this.size;
      let carry: Buffer | null = null;
      while (pos < size) {
        const want = Math.min(CHUNK, size - pos);
        // The unfinished line of the previous chunk goes first; the new bytes are read after it.
        const keep = carry?.length ?? 0;
        const buf = Buffer.allocUnsafe(keep + want);
        if (carry) carry.copy(buf, 0);
        const { bytesRead } = await handle.read(buf, keep, want, pos);
        if (bytesRead === 0) break;
        pos += bytesRead;
        const filled = buf.subarray(0, keep + bytesRead);
        const base = pos - filled.length;
        const consumed = forEachLine(filled, base, (lineStart, lineEnd, b, absStart) =>
          this.indexLine(b, lineStart, lineEnd, absStart),
        );
        // A line without its newline yet (being written, or torn) waits for the next scan.
        carry = consumed < filled.length ? Buffer.from(filled.subarray(consumed)) : null;
        this.size = base + consumed;
      }
    } finally {
      await handle.close();
    }
  }

  private indexLine(b: Buffer, start: number, end: number, absStart: number): void {
    this.lines++;
    // Most lines only move the index on: their seq and type are read from the bytes the log wrote
    // (`{"type":"…"` first, `"seq":N,"ts":T}` last), and only the few kinds that change the
    // snapshot are parsed. Anything unexpected is parsed in full.
    let seq = lineSeq(b, start, end);
    const type = seq === null ? null : snapshotTypeOf(b, start, end);
    if (type === NOT_SNAPSHOT) {
      if (seq! < this.count) return;
      this.slot(seq!, absStart);
      this.builder.advance(seq!);
      return;
    }
    if (type === 'run_state') {
      const state = runStateOf(b, start, end);
      if (state) {
        if (seq! < this.count) return;
        this.slot(seq!, absStart);
        this.builder.apply({ type: 'run_state', state, seq: seq!, ts: 0 });
        return;
      }
    }
    const event = parseEventLine(b.toString('utf8', start, end));
    if (!event) {
      // Not an event (a corrupt line): pages skip it, the session opens with a notice.
      this.unreadable.push({ line: this.lines, offset: absStart });
      return;
    }
    seq = event.seq;
    if (seq < this.count) return; // a duplicate or out-of-order line
    this.slot(seq, absStart);
    this.builder.apply(event);
  }

  private slot(seq: number, absStart: number): void {
    if (seq > this.count) this.gaps.push({ from: this.count, to: seq - 1 });
    while (this.offsets.length * INDEX_EVERY <= seq) this.offsets.push(absStart);
    this.count = seq + 1;
  }

  private reset(): void {
    this.offsets = [];
    this.count = 0;
    this.size = 0;
    this.builder = new SnapshotBuilder();
    this.savedCount = -1;
    this.lines = 0;
    this.unreadable = [];
    this.gaps = [];
  }
}

async function readStoredIndex(file: string): Promise<IndexFile | null> {
  let raw: unknown;
  try {
    raw = await readJsonOr(file, null);
  } catch {
    return null; // unreadable or not JSON: rebuilt from the log
  }
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Partial<IndexFile>;
  if (r.v !== INDEX_VERSION || r.every !== INDEX_EVERY) return null;
  if (!Number.isInteger(r.count) || !Number.isInteger(r.size) || !Array.isArray(r.offsets))
    return null;
  const snapshot = sessionSnapshotSchema.safeParse(r.snapshot);
  if (!snapshot.success) return null;
  if (r.offsets.length !== Math.ceil(r.count! / INDEX_EVERY)) return null;
  if (!Number.isInteger(r.lines) || !Array.isArray(r.unreadable) || !Array.isArray(r.gaps))
    return null;
  return { ...(r as IndexFile), snapshot: snapshot.data };
}

/** The stored index describes this log: its bytes are still there and the last slot is a line of the seq it names. */
async function matchesLog(file: string, idx: IndexFile): Promise<boolean> {
  const st = await stat(file).catch(() => null);
  if (!st || st.size < idx.size) return false;
  if (idx.count === 0) return idx.size === 0;
  const handle = await open(file, 'r');
  try {
    const lastSlot = idx.offsets.length - 1;
    const line = await readLineAt(handle, idx.offsets[lastSlot]!, idx.size);
    if (line === null) return false;
    const e = parseEventLine(line);
    if (!e || e.seq < lastSlot * INDEX_EVERY || e.seq >= idx.count) return false;
    const end = Buffer.alloc(1);
    await handle.read(end, 0, 1, idx.size - 1);
    return end[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

/** The line starting at `at` (without its newline), reading no further than `limit`. */
async function readLineAt(handle: FileHandle, at: number, limit: number): Promise<string | null> {
  const parts: Buffer[] = [];
  for (let pos = at; pos < limit;) {
    const buf = Buffer.allocUnsafe(Math.min(64 * 1024, limit - pos));
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) return null;
    const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
    if (nl >= 0) {
      parts.push(buf.subarray(0, nl));
      return Buffer.concat(parts).toString('utf8');
    }
    parts.push(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return null;
}

/** Calls `fn` for each complete line of `buf`; returns the bytes consumed (through the last newline). */
function forEachLine(
  buf: Buffer,
  base: number,
  fn: (start: number, end: number, buf: Buffer, absStart: number) => void,
): number {
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, start);
    if (nl < 0) return start;
    if (nl > start) fn(start, nl, buf, base + start);
    start = nl + 1;
  }
}

/** Whether `b` holds `bytes` at `at` (a loop: Buffer#compare costs more per call on short keys). */
function bytesAt(b: Buffer, at: number, bytes: Buffer, end: number): boolean {
  if (at < 0 || at + bytes.length > end) return false;
  for (let i = 0; i < bytes.length; i++) if (b[at + i] !== bytes[i]) return false;
  return true;
}

const TYPE_PREFIX = Buffer.from('{"type":"');
const NOT_SNAPSHOT = 0;
/** Snapshot types by first letter, as bytes followed by the closing quote. */
const SNAPSHOT_BY_FIRST = new Map<number, { name: string; bytes: Buffer }[]>();
for (const name of SNAPSHOT_TYPES) {
  const first = name.charCodeAt(0);
  const list = SNAPSHOT_BY_FIRST.get(first) ?? [];
  list.push({ name, bytes: Buffer.from(`${name}"`) });
  SNAPSHOT_BY_FIRST.set(first, list);
}

/**
 * The line's type if it is one that changes the snapshot, NOT_SNAPSHOT if it is another, or null
 * when the line does not start the way the log writes it (then it is parsed).
 */
function snapshotTypeOf(
  b: Buffer,
  start: number,
  end: number,
): string | typeof NOT_SNAPSHOT | null {
  const from = start + TYPE_PREFIX.length;
  if (end - from < 3) return null;
  if (!bytesAt(b, start, TYPE_PREFIX, end)) return null;
  const candidates = SNAPSHOT_BY_FIRST.get(b[from]!);
  if (!candidates) return NOT_SNAPSHOT;
  for (const c of candidates) {
    if (bytesAt(b, from, c.bytes, end)) return c.name;
  }
  return NOT_SNAPSHOT;
}

const RUN_STATES = ['running', 'waiting', 'idle', 'stopped', 'failed'] as const;
const RUN_STATE_PREFIX = Buffer.from('{"type":"run_state","state":"');
const RUN_STATE_BYTES = RUN_STATES.map((s) => Buffer.from(`${s}"`));

/** `{"type":"run_state","state":"X"…`: X without parsing the line (null: parse it). */
function runStateOf(b: Buffer, start: number, end: number): (typeof RUN_STATES)[number] | null {
  const from = start + RUN_STATE_PREFIX.length;
  if (from >= end) return null;
  if (!bytesAt(b, start, RUN_STATE_PREFIX, end)) return null;
  for (let i = 0; i < RUN_STATES.length; i++) {
    const w = RUN_STATE_BYTES[i]!;
    if (bytesAt(b, from, w, end)) return RUN_STATES[i]!;
  }
  return null;
}

const SEQ_KEY = Buffer.from(',"seq":');
const TS_KEY = Buffer.from(',"ts":');

/** The seq from a line written by the log (`…,"seq":N,"ts":T}` last), without parsing it. */
function lineSeq(b: Buffer, start: number, end: number): number | null {
  // Backwards over `}`, the ts number, `,"ts":`, the seq digits, `,"seq":`.
  let i = end - 1;
  if (b[i] !== 0x7d) return null;
  i--;
  const tsEnd = i;
  while (i > start && isNumberByte(b[i]!)) i--;
  if (i === tsEnd) return null;
  i -= TS_KEY.length - 1;
  if (i < start || !bytesAt(b, i, TS_KEY, end)) return null;
  let j = i - 1;
  let seq = 0;
  let mul = 1;
  const seqEnd = j;
  while (j > start && b[j]! >= 0x30 && b[j]! <= 0x39) {
    seq += (b[j]! - 0x30) * mul;
    mul *= 10;
    j--;
  }
  if (j === seqEnd || seqEnd - j > 15) return null;
  j -= SEQ_KEY.length - 1;
  if (j < start || !bytesAt(b, j, SEQ_KEY, end)) return null;
  return seq;
}

function isNumberByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x2b || c === 0x65 || c === 0x45
  );
}

/**
 * The newest `limit` events of a log, read backwards from its end in blocks: what a client sees
 * first of a log that has no index yet (it is indexed after the answer). An incomplete last line
 * (torn, or being written) is not an event yet.
 */
export async function readTail(file: string, limit: number): Promise<SessionEvent[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    let end = size;
    let pos = size;
    let block = 256 * 1024;
    let tail = Buffer.alloc(0);
    const out: SessionEvent[] = [];
    while (pos > 0 && out.length < limit) {
      const from = Math.max(0, pos - block);
      const buf = Buffer.allocUnsafe(pos - from);
      const { bytesRead } = await handle.read(buf, 0, buf.length, from);
      tail = Buffer.concat([buf.subarray(0, bytesRead), tail]);
      pos = from;
      block *= 2;
      // Lines that are complete: after the first newline (unless at the file start), up to `end`.
      const firstNl = pos === 0 ? -1 : tail.indexOf(0x0a);
      if (firstNl < 0 && pos > 0) continue;
      const lastNl = tail.lastIndexOf(0x0a, end - pos - 1);
      if (lastNl < 0) continue;
      const lines = tail.toString('utf8', firstNl + 1, lastNl).split('\n');
      const parsed: SessionEvent[] = [];
      for (const line of lines) {
        if (!line) continue;
        const e = parseEventLine(line);
        if (e) parsed.push(e);
      }
      out.unshift(...parsed);
      // Keep only the partial first line for the next block; what was parsed is done.
      end = pos + firstNl + 1;
      tail = tail.subarray(0, firstNl + 1);
    }
    return out.slice(Math.max(0, out.length - limit));
  } finally {
    await handle.close();
  }
}

/** One line as an event, or null when it is not a valid one. */
export function parseEventLine(line: string): SessionEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { seq, ts } = raw as { seq?: unknown; ts?: unknown };
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || typeof ts !== 'number')
    return null;
  const body = sessionEventBodySchema.safeParse(raw);
  if (!body.success) return null;
  return { ...body.data, seq, ts } as SessionEvent;
}
