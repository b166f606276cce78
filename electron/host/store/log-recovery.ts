import { sessionEventBodySchema, type SessionEvent } from '../../../shared/protocol/events';

// Reading a session's log back after anything: a kill mid-write, a full disk, a bad sector, a hand
// edit. The log is one JSON line per event, seq strictly increasing. What can be wrong, and what
// recovery does about it:
// - a torn last line (the final newline never made it): cut off, it was never acknowledged;
// - a line in the middle that is not an event (or repeats an earlier seq): skipped, its raw bytes
//   reported so they can be kept aside, and the session opens with a notice;
// - a seq that jumps (events lost in between): reported as a gap.
// Nothing here throws for damage: one bad line must not make a session impossible to open.

export interface UnreadableLine {
  /** 1-based line number in the log. */
  line: number;
  /** Byte offset of the line's start. */
  offset: number;
  bytes: Buffer;
}

export interface SeqGap {
  /** First missing seq. */
  from: number;
  /** Last missing seq (inclusive). */
  to: number;
}

export interface LogScan {
  events: SessionEvent[];
  /** Bytes of whole lines: where the next append goes (a torn tail is past it). */
  goodSize: number;
  /** True when bytes after goodSize are a torn last line to cut. */
  torn: boolean;
  unreadable: UnreadableLine[];
  gaps: SeqGap[];
}

/** Splits a log's bytes into events, damage and the size of its whole lines. */
export function scanLog(buf: Buffer): LogScan {
  const events: SessionEvent[] = [];
  const unreadable: UnreadableLine[] = [];
  const gaps: SeqGap[] = [];
  let start = 0;
  let line = 0;
  let lastSeq = -1;
  // Stryker disable next-line EqualityOperator: at start === length there is no newline left to find
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    if (nl === -1) break; // torn: the final newline never made it
    line++;
    const event = parseLogLine(buf.toString('utf8', start, nl));
    if (!event || event.seq <= lastSeq) {
      unreadable.push({ line, offset: start, bytes: Buffer.from(buf.subarray(start, nl)) });
    } else {
      if (event.seq > lastSeq + 1) gaps.push({ from: lastSeq + 1, to: event.seq - 1 });
      lastSeq = event.seq;
      events.push(event);
    }
    start = nl + 1;
  }
  return { events, goodSize: start, torn: start < buf.length, unreadable, gaps };
}

/** One line of the log as an event, or null when it is not one. */
export function parseLogLine(line: string): SessionEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
    // Stryker disable next-line BlockStatement: left undefined, the check below returns null too
  } catch {
    return null;
  }
  if (!raw) return null;
  // A number or a string has no seq, so it is refused here; Number.isInteger refuses non-numbers.
  const { seq, ts } = raw as { seq?: unknown; ts?: unknown };
  if (!Number.isInteger(seq) || (seq as number) < 0) return null;
  if (typeof ts !== 'number') return null;
  const body = sessionEventBodySchema.safeParse(raw);
  if (!body.success) return null;
  return { ...body.data, seq, ts } as SessionEvent;
}

/** How many events the damage cost: each unreadable line or missing seq is one, never counted twice. */
export function lostEventCount(scan: Pick<LogScan, 'unreadable' | 'gaps'>): number {
  const missing = scan.gaps.reduce((n, g) => n + g.to - g.from + 1, 0);
  return Math.max(missing, scan.unreadable.length);
}

/** The notice sent with a damaged session when it opens; null when nothing was lost. */
export function damageNotice(
  scan: Pick<LogScan, 'unreadable' | 'gaps'>,
  file: string,
  aside: string | null,
): string | null {
  const lost = lostEventCount(scan);
  if (!lost) return null;
  const parts = [`${lost} ${lost === 1 ? 'event' : 'events'} could not be read from ${file}`];
  if (scan.unreadable.length)
    parts.push(
      `unreadable ${scan.unreadable.length === 1 ? 'line' : 'lines'} ${scan.unreadable.map((u) => u.line).join(', ')}` +
        (aside ? ` (the raw bytes are kept in ${aside})` : ''),
    );
  if (scan.gaps.length)
    parts.push(
      `missing seq ${scan.gaps.map((g) => (g.from === g.to ? `${g.from}` : `${g.from}-${g.to}`)).join(', ')}`,
    );
  return parts.join('; ');
}
