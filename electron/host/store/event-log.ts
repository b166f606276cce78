import { open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import {
  sessionEventBodySchema,
  type SessionEvent,
  type SessionEventBody,
} from '../../../shared/protocol/events';

// One session's append-only log: JSON lines, one event a line. An event is acknowledged only after
// its bytes are written and fdatasync'ed; appends that arrive while a flush is under way are written
// together in the next flush (group commit), so a burst costs one fsync per batch, not per event.
// Recovery: a torn last line (a kill mid-write) is cut off on open; earlier lines are never rewritten.

interface Pending {
  event: SessionEvent;
  line: string;
  resolve: (e: SessionEvent) => void;
  reject: (err: unknown) => void;
}

export class EventLogCorruptError extends Error {
  override name = 'EventLogCorruptError';
}

export class EventLog {
  private readonly pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;
  private handleClosed = false;
  private nextSeq: number;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly events: SessionEvent[],
    private readonly onAppended: (e: SessionEvent) => void,
  ) {
    this.nextSeq = events.length;
  }

  /** Opens (creating if needed) and recovers a log. `onAppended` fires once an event is durable. */
  static async open(
    file: string,
    onAppended: (e: SessionEvent) => void = () => {},
  ): Promise<EventLog> {
    const events = await EventLog.recover(file);
    const handle = await open(file, 'a');
    return new EventLog(file, handle, events, onAppended);
  }

  /** Parses a log, cutting a torn tail. A bad line that is not the last is real corruption. */
  static async recover(file: string): Promise<SessionEvent[]> {
    let buf: Buffer;
    try {
      buf = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const events: SessionEvent[] = [];
    let start = 0;
    let goodEnd = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(0x0a, start);
      if (nl === -1) break; // torn: the final newline never made it
      const line = buf.subarray(start, nl).toString('utf8');
      const event = parseLine(line, events.length);
      if (!event) {
        if (nl + 1 < buf.length) {
          throw new EventLogCorruptError(`${file}: line ${events.length + 1} is not a valid event`);
        }
        break;
      }
      events.push(event);
      start = nl + 1;
      goodEnd = start;
    }
    if (goodEnd < buf.length) await truncate(file, goodEnd);
    return events;
  }

  get length(): number {
    return this.events.length;
  }

  /** Durable events from `from` (a seq) on; the array is the log's own, do not mutate. */
  slice(from = 0, to?: number): readonly SessionEvent[] {
    return this.events.slice(from, to);
  }

  all(): readonly SessionEvent[] {
    return this.events;
  }

  append(body: SessionEventBody): Promise<SessionEvent> {
    if (this.closed) return Promise.reject(new Error(`${this.file}: log is closed`));
    const checked = sessionEventBodySchema.safeParse(body);
    if (!checked.success) return Promise.reject(checked.error);
    // Counted apart from events + pending: a batch being flushed is in neither.
    const seq = this.nextSeq++;
    const event = { ...checked.data, seq, ts: Date.now() } as SessionEvent;
    const line = JSON.stringify(event) + '\n';
    return new Promise<SessionEvent>((resolve, reject) => {
      this.pending.push({ event, line, resolve, reject });
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
    if (!batch.length) return;
    try {
      await this.handle.write(batch.map((p) => p.line).join(''));
      await this.handle.datasync();
    } catch (err) {
      // The batch is not acknowledged; later appends would leave a gap in seq, so close the log.
      this.closed = true;
      for (const p of [...batch, ...this.pending.splice(0)]) p.reject(err);
      return;
    }
    for (const p of batch) {
      this.events.push(p.event);
      this.onAppended(p.event);
      p.resolve(p.event);
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

function parseLine(line: string, expectedSeq: number): SessionEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { seq, ts } = raw as { seq?: unknown; ts?: unknown };
  if (seq !== expectedSeq || typeof ts !== 'number') return null;
  const body = sessionEventBodySchema.safeParse(raw);
  if (!body.success) return null;
  return { ...body.data, seq, ts } as SessionEvent;
}
