import { readFileSync } from 'node:fs';
import { open, readFile, truncate } from 'node:fs/promises';
import {
  sessionEventBodySchema,
  type SessionEvent,
  type SessionEventBody,
} from '../../../shared/protocol/events';
import { writeFileAtomic } from './atomic-json';
import { damageNotice, scanLog, type LogScan } from './log-recovery';

// One session's append-only log: JSON lines, one event a line, no header. An event is acknowledged
// only after its bytes are written in full and fdatasync'ed; appends that arrive while a flush is
// under way are written together in the next flush (group commit), so a burst costs one fsync per
// batch, not per event. A seq is given when its batch is written, so a batch that fails leaves no
// hole: the disk filling up rejects that batch (not acknowledged, nobody told of it), the partial
// bytes are cut off, and once there is space again the next append simply continues.
// Recovery on open (log-recovery.ts): a torn last line is cut, an unreadable middle line is
// skipped and its bytes kept aside, seq gaps are reported; earlier lines are never rewritten.

/** What the log needs of an open file; tests inject short writes and a full disk here. */
export interface LogHandle {
  write(buf: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  truncate(len: number): Promise<void>;
  close(): Promise<void>;
}

export interface LogIo {
  /** Opens the log for appending (O_APPEND: every write lands at the current end). */
  openAppend(file: string): Promise<LogHandle>;
}

export const nodeLogIo: LogIo = {
  openAppend: async (file) => {
    const handle = await open(file, 'a');
    return {
      write: (buf, offset, length) => handle.write(buf, offset, length),
      datasync: () => handle.datasync(),
      truncate: (len) => handle.truncate(len),
      close: () => handle.close(),
    };
  },
};

/** Errors of the storage itself: the batch fails, the log stays usable for when they clear. */
const STORAGE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EFBIG', 'EROFS']);

/** An append that did not reach the disk, with the sentence the user sees. */
export class LogWriteError extends Error {
  override name = 'LogWriteError';
  /** The RPC error code a client sees. */
  readonly code: 'disk_full' | 'disk_error';
  constructor(
    readonly file: string,
    /** The errno code (ENOSPC, EDQUOT, EIO, ...). */
    readonly errno: string,
    cause: unknown,
  ) {
    const full = errno === 'ENOSPC' || errno === 'EDQUOT';
    super(
      full
        ? `disk full: the session could not be saved at ${file}`
        : `disk error (${errno}): the session could not be saved at ${file}`,
      { cause },
    );
    this.code = full ? 'disk_full' : 'disk_error';
  }
}

interface Pending {
  body: SessionEventBody;
  resolve: (e: SessionEvent) => void;
  reject: (err: unknown) => void;
}

export interface EventLogOptions {
  onAppended?: (e: SessionEvent) => void;
  io?: LogIo;
}

export class EventLog {
  private readonly pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;
  private handleClosed = false;
  private nextSeq: number;
  /** Bytes of acknowledged lines: a failed write is cut back to here. */
  private size: number;
  /** A failed write may have left partial bytes past `size` that are not cut off yet. */
  private dirty = false;
  /**
   * The acknowledged events, or null once released (nobody views the session and it runs
   * nothing): they are read back from the log's acknowledged bytes when next asked for.
   */
  private cache: SessionEvent[] | null;
  private lastTsValue: number | null;

  private constructor(
    readonly file: string,
    private readonly handle: LogHandle,
    events: SessionEvent[],
    scan: LogScan,
    /** The notice for the user when recovery found damage, else null. */
    readonly damage: string | null,
    private readonly onAppended: (e: SessionEvent) => void,
  ) {
    this.nextSeq = (events.at(-1)?.seq ?? -1) + 1;
    this.size = scan.goodSize;
    this.cache = events;
    this.lastTsValue = events.at(-1)?.ts ?? null;
  }

  /** Opens (creating if needed) and recovers a log. `onAppended` fires once an event is durable. */
  static async open(
    file: string,
    onAppendedOrOpts: ((e: SessionEvent) => void) | EventLogOptions = {},
  ): Promise<EventLog> {
    const opts =
      typeof onAppendedOrOpts === 'function' ? { onAppended: onAppendedOrOpts } : onAppendedOrOpts;
    const scan = await EventLog.scan(file);
    const aside = scan.unreadable.length ? unreadableFileFor(file) : null;
    if (aside) {
      // The raw bytes of every unreadable line, so nothing is lost even if the log is edited later.
      const lines = scan.unreadable.map((u) =>
        JSON.stringify({ line: u.line, offset: u.offset, base64: u.bytes.toString('base64') }),
      );
      await writeFileAtomic(aside, `${lines.join('\n')}\n`);
    }
    const handle = await (opts.io ?? nodeLogIo).openAppend(file);
    return new EventLog(
      file,
      handle,
      scan.events,
      scan,
      damageNotice(scan, file, aside),
      opts.onAppended ?? (() => {}),
    );
  }

  /** Reads a log, cutting a torn tail; damage is reported in the result, never thrown. */
  static async scan(file: string): Promise<LogScan> {
    let buf: Buffer;
    try {
      buf = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        return { events: [], goodSize: 0, torn: false, unreadable: [], gaps: [] };
      throw err;
    }
    const scan = scanLog(buf);
    // Stryker disable next-line ConditionalExpression: cutting a whole log at its own size changes nothing
    if (scan.torn) await truncate(file, scan.goodSize);
    return scan;
  }

  /** The readable events of a log (a torn tail cut first). */
  static async recover(file: string): Promise<SessionEvent[]> {
    return (await EventLog.scan(file)).events;
  }

  /** One past the last seq: the next event's seq, and the cursor a live subscriber starts at. */
  get length(): number {
    return this.nextSeq;
  }

  /** Durable events with seq in [from, to). */
  slice(from = 0, to?: number): readonly SessionEvent[] {
    const events = this.events();
    return events.slice(
      indexOfSeq(events, from),
      to === undefined ? undefined : indexOfSeq(events, to),
    );
  }

  /** Every durable event; the array is the log's own, do not mutate. */
  all(): readonly SessionEvent[] {
    return this.events();
  }

  /** When the newest event was written (null: the log is empty). */
  get lastTs(): number | null {
    return this.lastTsValue;
  }

  /** Whether the events are in memory now (false after release until next asked for). */
  get holdsEvents(): boolean {
    return this.cache !== null;
  }

  /** Drops the events from memory; the log stays open for appends. */
  release(): void {
    this.cache = null;
  }

  private events(): SessionEvent[] {
    // Only acknowledged bytes: a batch being written is past `size` until it is acknowledged.
    this.cache ??= scanLog(readFileSync(this.file).subarray(0, this.size)).events;
    return this.cache;
  }

  append(body: SessionEventBody): Promise<SessionEvent> {
    if (this.closed) return Promise.reject(new Error(`${this.file}: log is closed`));
    const checked = sessionEventBodySchema.safeParse(body);
    if (!checked.success) return Promise.reject(checked.error);
    return new Promise<SessionEvent>((resolve, reject) => {
      this.pending.push({ body: checked.data, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.flushing) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      if (this.pending.length) this.schedule();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0, this.pending.length);
    // Stryker disable next-line ConditionalExpression: schedule() only flushes a non-empty queue
    if (!batch.length) return;
    const ts = Date.now();
    const events = batch.map((p, i) => ({ ...p.body, seq: this.nextSeq + i, ts }) as SessionEvent);
    const bytes = Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''));
    try {
      // Partial bytes of a failed batch whose cut failed too: cut them before writing more.
      if (this.dirty) await this.handle.truncate(this.size);
      this.dirty = true;
      // write(2) may write less than asked (a signal, a nearly full disk): go on from there.
      for (let off = 0; off < bytes.length;) {
        const { bytesWritten } = await this.handle.write(bytes, off, bytes.length - off);
        off += bytesWritten;
      }
      await this.handle.datasync();
      this.dirty = false;
    } catch (err) {
      // Not acknowledged: no seq is used up, nobody is told of these events, and the partial
      // bytes are cut now (or before the next write) so the log stays whole lines.
      await this.handle.truncate(this.size).then(
        () => (this.dirty = false),
        () => {},
      );
      // Stryker disable next-line StringLiteral: an error without a code is no storage error either way
      const code = (err as NodeJS.ErrnoException).code ?? '';
      const error = STORAGE_ERRORS.has(code) ? new LogWriteError(this.file, code, err) : err;
      for (const p of batch) p.reject(error);
      return;
    }
    this.size += bytes.length;
    this.nextSeq += events.length;
    for (const [i, p] of batch.entries()) {
      const event = events[i]!;
      this.cache?.push(event);
      this.lastTsValue = event.ts;
      this.onAppended(event);
      p.resolve(event);
    }
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.closed = true;
    if (this.handleClosed) return;
    this.handleClosed = true;
    await this.handle.close();
  }
}

/** Where the raw bytes of unreadable lines are kept: beside the log. */
export function unreadableFileFor(logFile: string): string {
  return logFile.replace(/\.jsonl$/, '') + '.unreadable.jsonl';
}

/** Index of the first event with seq >= `seq` (events are in seq order). */
function indexOfSeq(events: readonly SessionEvent[], seq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
