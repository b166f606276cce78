import type { FileHandle } from 'node:fs/promises';
import { LINE_INDEX_STRIDE, type LineIndex } from './line-index';
import { ScanBound } from './scan-bound';

// Reads a window of lines from a file of any size with memory proportional to the window and time
// bounded per call. Forward: the file is streamed in chunks from the nearest known line start (an
// index checkpoint, or the furthest line an earlier scan reached), only the window's lines are
// kept (each cut at a byte cap) and the rest is only counted (for the total and the index). A scan
// that a window needs goes on until it gets there or the call's time bound runs out: a 1 GiB file
// is counted in one call at the speed of a newline scan; only a bigger one (an endless log, an 8 TiB
// sparse file) stops, says where, and the next call goes on from there. A tail (negative offset)
// is counted too, so its lines carry their true numbers; when the count cannot finish in time, the
// tail is found by reading backwards from the end and numbered from the end instead.

/**
 * Bytes counted after a window only to learn the total line count: a read of the head of a huge
 * file does not pay a whole-file scan for a number the model did not ask for.
 */
export const COUNT_AFTER_WINDOW_BYTES = 64 << 20;
/**
 * Files up to this size are scanned whole whatever the time bound: a small file's answer never
 * depends on the load. A bigger one is held to the bound from its first byte (reading the holes
 * of a sparse file can be slow enough that 16 MiB alone would take the whole second).
 */
const DEADLINE_FREE_BYTES = 16 << 20;
/** Bytes of the first read of a scan: a window near a checkpoint needs little. */
const FIRST_CHUNK_BYTES = 64 << 10;
/**
 * Reads double up to this size on a long scan (fewer syscalls); also the scan's buffer size. From
 * this size on, the next chunk is read while this one is scanned.
 */
const MAX_CHUNK_BYTES = 4 << 20;
const NEWLINE = 0x0a;

export interface WindowRequest {
  /** 0-based first line; negative counts from the end (-100: the last 100 lines). */
  offset: number;
  limit: number;
  /** Bytes of one line kept; the rest is counted and reported as cut. */
  maxLineBytes: number;
  /** Bytes of the whole window kept: once reached, the window ends early (a huge limit stays bounded). */
  maxWindowBytes: number;
  /** Bytes scanned at most by this call besides the time bound (default: no byte bound). */
  budgetBytes?: number;
  /** When the scan stops as if its budget were spent (default: a ScanBound from now). */
  bound?: ScanBound;
}

export interface WindowLine {
  text: string;
  /** Bytes of the line not kept (0 when whole). */
  cutBytes: number;
  /** The line goes on past what this call scanned: it has at least `cutBytes` more. */
  cutUnscanned?: boolean;
}

export interface WindowResult {
  /**
   * Number of the first returned line: 0-based from the start, or, when `fromEnd`, negative from
   * the end (-1 is the last line).
   */
  start: number;
  /** Lines are numbered from the end: counting the lines before them did not finish in time. */
  fromEnd: boolean;
  lines: WindowLine[];
  /** Lines in the file, or null when they were not all counted. */
  totalLines: number | null;
  /** Lines follow the window (it stopped before the end of the file). */
  more: boolean;
  /**
   * The window's first line was not reached within the budget (forward: the line the scan got
   * to, from the start; from the end: lines found before the budget ran out).
   */
  reachedOnly?: number;
  /** How far counting from the start got (a line and the byte it starts at) when it stopped. */
  countedTo?: { line: number; pos: number };
}

const decoder = new TextDecoder('utf-8');

function finishLine(
  parts: Buffer[],
  keptBytes: number,
  totalBytes: number,
  unscanned = false,
): WindowLine {
  let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, keptBytes);
  const cut = totalBytes - keptBytes;
  // CRLF files: the model sees the line without its \r (the edit tools put it back).
  if (cut === 0 && !unscanned && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d)
    bytes = bytes.subarray(0, -1);
  const line: WindowLine = { text: decoder.decode(bytes), cutBytes: cut };
  if (unscanned) line.cutUnscanned = true;
  return line;
}

interface WalkResult {
  lines: WindowLine[];
  /** Line the walk stopped at (the first line not fully seen). */
  line: number;
  /** The walk saw the end of the file. */
  eof: boolean;
  /** Line count at the end of the file, when `eof`. */
  total: number | null;
  budgetHit: boolean;
}

interface WalkOptions {
  /** Line number and byte offset of a line start to walk from. */
  line: number;
  pos: number;
  /** Window [start, end) in the same numbering as `line`. */
  start: number;
  end: number;
  maxLineBytes: number;
  maxWindowBytes: number;
  budget: number;
  /** Count on after the window up to the end of the file, when no more than this many bytes are left. */
  countAfter: number;
  size: number;
  /**
   * Checkpoints are added to it as lines are passed, and its `reached` moved on (forward walks
   * from line 0 numbering).
   */
  index?: LineIndex;
  bound: ScanBound;
  /** The part of the bound this walk may spend (a count leaves the rest to the tail). */
  share?: number;
}

/** A read buffer that grows with the chunk size (a short read never touches 4 MiB). */
function grow(buf: Buffer, size: number): Buffer {
  return buf.length >= size ? buf : Buffer.allocUnsafe(size);
}

interface Chunk {
  buf: Buffer;
  bytesRead: number;
}

interface Skipped {
  /** Newlines passed. */
  lines: number;
  /** Index just after the last one passed. */
  next: number;
}

/**
 * Passes up to `count` newlines of buf[from, to), saying how many and where it stopped in `out`.
 * The hot loop of a long scan, on plain locals: in walk() the counters are captured by closures,
 * and every newline cost a store to the closure's context (three times slower in all).
 */
function skipLines(buf: Buffer, from: number, to: number, count: number, out: Skipped): void {
  let i = from;
  let n = 0;
  while (n < count) {
    const nl = buf.indexOf(NEWLINE, i);
    if (nl === -1 || nl >= to) break;
    n++;
    i = nl + 1;
  }
  out.lines = n;
  out.next = i;
}

/**
 * Streams forward from a line start, collecting lines [start, end) and counting the rest, until
 * the window is complete (and, when the rest is at most `countAfter` bytes, the end of the file is
 * reached) or the budget or time is spent. On a long scan the next chunk is read while this one is
 * counted, so the copy from the page cache and the count overlap.
 */
async function walk(handle: FileHandle, o: WalkOptions): Promise<WalkResult> {
  const { index, maxLineBytes, maxWindowBytes } = o;
  let line = o.line;
  /** Byte where `line` starts. */
  let lineStart = o.pos;
  let pos = o.pos;
  let end = o.end;
  const lines: WindowLine[] = [];
  const bufs: Buffer[] = [Buffer.allocUnsafe(FIRST_CHUNK_BYTES), Buffer.allocUnsafe(0)];
  let which = 0;
  let ahead: Promise<Chunk> | null = null;
  let chunk = FIRST_CHUNK_BYTES;
  let parts: Buffer[] = [];
  let kept = 0;
  let lineBytes = 0;
  let collected = 0;
  let lastByte = -1;
  let scanned = 0;
  const skipped: Skipped = { lines: 0, next: 0 };
  const timed = o.size > DEADLINE_FREE_BYTES;
  const readInto = (i: number, len: number, at: number): Promise<Chunk> => {
    const buf = (bufs[i] = grow(bufs[i]!, len));
    return handle.read(buf, 0, len, at).then((r) => ({ buf, bytesRead: r.bytesRead }));
  };
  const checkpoint = (from: number): void => {
    if (
      index &&
      line % LINE_INDEX_STRIDE === 0 &&
      line / LINE_INDEX_STRIDE === index.offsets.length
    )
      index.offsets.push(from);
  };
  const stop = (eof: boolean, budgetHit: boolean): WalkResult => {
    if (index && line > index.reached.line) index.reached = { line, pos: lineStart };
    return { lines, line, eof, total: eof ? line : null, budgetHit };
  };
  // Past the window, go on only to count to the end, and only when the rest is small enough.
  const keepCounting = (at: number): boolean =>
    o.size - at <= Math.min(o.countAfter, o.budget - scanned);
  try {
    for (;;) {
      if (line >= end && !keepCounting(pos)) return stop(false, false);
      // Every walk reads its first chunk whatever the bound, so each call makes progress.
      if (scanned >= o.budget || (timed && scanned > 0 && o.bound.spent(o.share))) {
        if (line >= o.start && line < end && lineBytes > 0)
          lines.push(finishLine(parts, kept, lineBytes, true));
        return stop(false, true);
      }
      let got: Chunk;
      if (ahead) {
        got = await ahead;
        ahead = null;
      } else got = await readInto(which, Math.min(chunk, o.budget - scanned), pos);
      const { buf, bytesRead } = got;
      chunk = Math.min(chunk * 2, MAX_CHUNK_BYTES);
      if (bytesRead === 0) break;
      scanned += bytesRead;
      which = 1 - which;
      const next = pos + bytesRead;
      // A long scan that surely goes on: read the next chunk meanwhile, into the other buffer.
      if (
        chunk === MAX_CHUNK_BYTES &&
        next < o.size &&
        scanned < o.budget &&
        (line < o.start || keepCounting(next))
      )
        ahead = readInto(which, Math.min(chunk, o.budget - scanned), next);
      lastByte = buf[bytesRead - 1]!;
      let from = 0;
      while (from < bytesRead) {
        if (line < o.start || line >= end) {
          // Outside the window only newlines matter (this is most of a big file): skip to the
          // next line that matters, the window's first or the index's next checkpoint.
          const next = Math.min(
            line < o.start ? o.start : Infinity,
            index ? index.offsets.length * LINE_INDEX_STRIDE : Infinity,
          );
          skipLines(buf, from, bytesRead, next - line, skipped);
          if (skipped.lines === 0) break;
          line += skipped.lines;
          from = skipped.next;
          lineStart = pos + from;
          checkpoint(lineStart);
          continue;
        }
        const nl = buf.indexOf(NEWLINE, from);
        const stopAt = nl === -1 || nl >= bytesRead ? bytesRead : nl;
        const room = maxLineBytes - kept;
        if (room > 0 && stopAt > from) {
          const take = Math.min(room, stopAt - from);
          parts.push(Buffer.from(buf.subarray(from, from + take)));
          kept += take;
        }
        lineBytes += stopAt - from;
        if (stopAt === bytesRead) break;
        lines.push(finishLine(parts, kept, lineBytes));
        collected += kept;
        if (collected >= maxWindowBytes) end = line + 1;
        parts = [];
        kept = 0;
        lineBytes = 0;
        line++;
        from = nl + 1;
        lineStart = pos + from;
        checkpoint(lineStart);
      }
      pos = next;
    }
  } finally {
    // Never leave a read running on a handle the caller is about to close.
    if (ahead) await ahead.catch(() => undefined);
  }
  // A last line without a trailing newline still counts as a line.
  const open = lastByte !== -1 && lastByte !== NEWLINE;
  if (open && line >= o.start && line < end) lines.push(finishLine(parts, kept, lineBytes));
  const result = stop(true, false);
  if (open) result.total = line + 1;
  return result;
}

interface TailStart {
  /** Byte offset where the window's first line starts. */
  pos: number;
  /** Lines from that position to the end (the window starts at line -found). */
  found: number;
  /** The scan reached byte 0: `found` is then the file's whole line count. */
  atStart: boolean;
  scanned: number;
}

/**
 * Reads backwards from the end in growing blocks until the start of the `want`th line from the
 * end is found, the file's start is reached, or the budget is spent (then the earliest line start
 * seen is returned).
 */
async function findTailStart(
  handle: FileHandle,
  size: number,
  want: number,
  budget: number,
  bound: ScanBound,
): Promise<TailStart> {
  if (size === 0) return { pos: 0, found: 0, atStart: true, scanned: 0 };
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  // A trailing newline ends the last line; it does not start another.
  let end = last[0] === NEWLINE ? size - 1 : size;
  let found = 1;
  let lineStart = end;
  let scanned = 1;
  let block = FIRST_CHUNK_BYTES;
  let buf: Buffer = Buffer.allocUnsafe(FIRST_CHUNK_BYTES);
  const timed = size > DEADLINE_FREE_BYTES;
  while (end > 0) {
    // The first block is read whatever the bound: a call starved by others still finds the last
    // lines (a bound spent before any read answered an empty tail numbered -0).
    if (scanned >= budget || (timed && scanned > 1 && bound.spent()))
      return { pos: lineStart, found: found - 1, atStart: false, scanned };
    const len = Math.min(block, end, budget - scanned);
    const from = end - len;
    buf = grow(buf, len);
    const { bytesRead } = await handle.read(buf, 0, len, from);
    if (bytesRead < len) break; // the file shrank under us: treat what we have as its start
    scanned += len;
    block = Math.min(block * 2, MAX_CHUNK_BYTES);
    for (let i = buf.lastIndexOf(NEWLINE, len - 1); i !== -1 && i < len;) {
      lineStart = from + i + 1;
      if (found === want) return { pos: lineStart, found, atStart: false, scanned };
      found++;
      i = i === 0 ? -1 : buf.lastIndexOf(NEWLINE, i - 1);
    }
    end = from;
  }
  return { pos: 0, found, atStart: true, scanned };
}

type Limits = { maxLineBytes: number; maxWindowBytes: number; size: number; bound: ScanBound };

/**
 * Reads the requested window of the file open on `handle` (`size` bytes); `index` belongs to this
 * exact version of the file and is extended by forward scans.
 */
export async function readLineWindow(
  handle: FileHandle,
  size: number,
  req: WindowRequest,
  index: LineIndex,
): Promise<WindowResult> {
  const budget = req.budgetBytes ?? Infinity;
  const bound = req.bound ?? new ScanBound();
  const limits: Limits = {
    maxLineBytes: req.maxLineBytes,
    maxWindowBytes: req.maxWindowBytes,
    size,
    bound,
  };
  let start = req.offset;
  if (start < 0) {
    if (index.totalLines === null) {
      // The tail's true line numbers need every line before it counted: count on from the
      // furthest line known (the old end of a file that only grew), within the time bound.
      const counted = await walk(handle, {
        ...limits,
        // The rest of the time is the tail's, should the count not finish.
        share: 0.75,
        ...index.reached,
        // A window never reached: the walk only counts, to the end or until time runs out.
        start: Infinity,
        end: Infinity,
        budget,
        countAfter: 0,
        index,
      });
      if (counted.eof) index.totalLines = counted.total;
    }
    if (index.totalLines === null) {
      // A count that ran late still leaves the tail a little time of its own.
      const tail = await readTail(handle, size, req, budget, bound.orGrace());
      return { ...tail, countedTo: { ...index.reached } };
    }
    start = Math.max(0, index.totalLines + start);
  }
  return readForward(handle, start, req, index, budget, limits);
}

async function readForward(
  handle: FileHandle,
  start: number,
  req: WindowRequest,
  index: LineIndex,
  budget: number,
  limits: Limits,
): Promise<WindowResult> {
  const end = start + req.limit;
  if (index.totalLines !== null && start >= index.totalLines)
    return { start, fromEnd: false, lines: [], totalLines: index.totalLines, more: false };
  // The nearest known line start at or before the window: a checkpoint, or where a scan got to.
  const k = Math.min(Math.floor(start / LINE_INDEX_STRIDE), index.offsets.length - 1);
  const from =
    index.reached.line <= start && index.reached.line > k * LINE_INDEX_STRIDE
      ? index.reached
      : { line: k * LINE_INDEX_STRIDE, pos: index.offsets[k]! };
  const r = await walk(handle, {
    ...limits,
    ...from,
    start,
    end,
    budget,
    countAfter: index.totalLines === null ? COUNT_AFTER_WINDOW_BYTES : 0,
    index,
  });
  if (r.eof) index.totalLines = r.total;
  const totalLines = index.totalLines;
  const shownEnd = start + r.lines.length;
  const more = totalLines !== null ? shownEnd < totalLines : !r.eof;
  const result: WindowResult = { start, fromEnd: false, lines: r.lines, totalLines, more };
  if (r.budgetHit && r.line < start) {
    result.reachedOnly = r.line;
    result.countedTo = { ...index.reached };
  }
  return result;
}

async function readTail(
  handle: FileHandle,
  size: number,
  req: WindowRequest,
  budget: number,
  bound: ScanBound,
): Promise<WindowResult> {
  const want = -req.offset;
  const tail = await findTailStart(handle, size, want, budget, bound);
  const first = -tail.found;
  const start = Math.max(first, req.offset);
  const end = req.offset + req.limit;
  const result: WindowResult = {
    start,
    fromEnd: true,
    lines: [],
    totalLines: tail.atStart ? tail.found : null,
    more: end < 0,
  };
  if (tail.found < want && !tail.atStart) result.reachedOnly = tail.found;
  if (start >= end || tail.found === 0) return result;
  const r = await walk(handle, {
    maxLineBytes: req.maxLineBytes,
    maxWindowBytes: req.maxWindowBytes,
    size,
    line: first,
    pos: tail.pos,
    start,
    end: Math.min(end, 0),
    budget: Math.max(budget - tail.scanned, MAX_CHUNK_BYTES),
    countAfter: 0,
    // The window itself gets a little time of its own after a long search.
    bound: bound.orGrace(),
  });
  result.lines = r.lines;
  result.more = start + r.lines.length < 0;
  if (tail.atStart) {
    // The whole file was seen: number its lines from the start after all.
    result.fromEnd = false;
    result.start = tail.found + start;
  }
  return result;
}
