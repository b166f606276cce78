import type { FileHandle } from 'node:fs/promises';
import { LINE_INDEX_STRIDE, type LineIndex } from './line-index';

// Reads a window of lines from a file of any size with memory proportional to the window and time
// bounded per call. Forward: the file is streamed in chunks from the nearest index checkpoint,
// only the window's lines are kept (each cut at a byte cap) and the rest is only counted (for the
// total and the index). The tail of a file too big to count is found by reading backwards from the
// end in blocks, without counting the lines before it. No call scans more than SCAN_BUDGET_BYTES:
// a file larger than that (an endless log, an 8 TiB sparse file) gets its window and an unknown
// total, never a scan of the whole file.

/** Bytes one call scans at most, forward and backward together (about 60 ms of counting). */
export const SCAN_BUDGET_BYTES = 64 << 20;
/**
 * Milliseconds one call scans at most: many reads of huge files at once (20 of an 8 TiB sparse
 * log) share the disk and the thread, and each still answers in time with what it scanned.
 */
export const SCAN_DEADLINE_MS = 1000;
/** Bytes scanned before the deadline counts: a small file's answer never depends on the load. */
const DEADLINE_FREE_BYTES = 16 << 20;
/** Bytes of the first read of a scan: a window near a checkpoint needs little. */
const FIRST_CHUNK_BYTES = 64 << 10;
/** Reads double up to this size on a long scan (fewer syscalls); also the scan's buffer size. */
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
  /** Bytes scanned at most by this call (default SCAN_BUDGET_BYTES). */
  budgetBytes?: number;
  /** performance.now() after which the scan stops as if its budget were spent. */
  deadline?: number;
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
  /** Lines are numbered from the end: the file was too big to count the lines before them. */
  fromEnd: boolean;
  lines: WindowLine[];
  /** Lines in the file, or null when counting them would scan more than the budget. */
  totalLines: number | null;
  /** Lines follow the window (it stopped before the end of the file). */
  more: boolean;
  /**
   * The window's first line was not reached within the budget (forward: the line the scan got
   * to, from the start; from the end: lines found before the budget ran out).
   */
  reachedOnly?: number;
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
  /** Count on after the window up to the end of the file (when that fits the budget). */
  countToEof: boolean;
  size: number;
  /** Checkpoints are added to it as lines are passed (forward walks from line 0 numbering). */
  index?: LineIndex;
  deadline: number;
}

/** A read buffer that grows with the chunk size (a short read never touches 4 MiB). */
function grow(buf: Buffer, size: number): Buffer {
  return buf.length >= size ? buf : Buffer.allocUnsafe(size);
}

/**
 * Streams forward from a line start, collecting lines [start, end) and counting the rest, until
 * the window is complete (and, with `countToEof`, the end of the file is reached) or the budget
 * is spent.
 */
async function walk(handle: FileHandle, o: WalkOptions): Promise<WalkResult> {
  const { index, maxLineBytes, maxWindowBytes } = o;
  let line = o.line;
  let pos = o.pos;
  let end = o.end;
  const lines: WindowLine[] = [];
  let buf: Buffer = Buffer.allocUnsafe(FIRST_CHUNK_BYTES);
  let chunk = FIRST_CHUNK_BYTES;
  let parts: Buffer[] = [];
  let kept = 0;
  let lineBytes = 0;
  let collected = 0;
  let lastByte = -1;
  let scanned = 0;
  const checkpoint = (from: number): void => {
    if (
      index &&
      line % LINE_INDEX_STRIDE === 0 &&
      line / LINE_INDEX_STRIDE === index.offsets.length
    )
      index.offsets.push(from);
  };
  // Past the window, go on only to count to the end, and only when the rest fits the budget.
  const keepCounting = (): boolean => o.countToEof && o.size - pos <= o.budget - scanned;
  for (;;) {
    if (line >= end && !keepCounting())
      return { lines, line, eof: false, total: null, budgetHit: false };
    if (scanned >= o.budget || (scanned >= DEADLINE_FREE_BYTES && performance.now() > o.deadline)) {
      if (line >= o.start && line < end && lineBytes > 0)
        lines.push(finishLine(parts, kept, lineBytes, true));
      return { lines, line, eof: false, total: null, budgetHit: true };
    }
    const want = Math.min(chunk, o.budget - scanned);
    buf = grow(buf, want);
    const { bytesRead } = await handle.read(buf, 0, want, pos);
    chunk = Math.min(chunk * 2, MAX_CHUNK_BYTES);
    if (bytesRead === 0) break;
    scanned += bytesRead;
    lastByte = buf[bytesRead - 1]!;
    let from = 0;
    while (from < bytesRead) {
      if (line < o.start || line >= end) {
        // Outside the window only newlines matter: a tight loop (this is most of a big file).
        const nl = buf.indexOf(NEWLINE, from);
        if (nl === -1 || nl >= bytesRead) break;
        line++;
        from = nl + 1;
        checkpoint(pos + from);
        continue;
      }
      const nl = buf.indexOf(NEWLINE, from);
      const stop = nl === -1 || nl >= bytesRead ? bytesRead : nl;
      const room = maxLineBytes - kept;
      if (room > 0 && stop > from) {
        const take = Math.min(room, stop - from);
        parts.push(Buffer.from(buf.subarray(from, from + take)));
        kept += take;
      }
      lineBytes += stop - from;
      if (stop === bytesRead) break;
      lines.push(finishLine(parts, kept, lineBytes));
      collected += kept;
      if (collected >= maxWindowBytes) end = line + 1;
      parts = [];
      kept = 0;
      lineBytes = 0;
      line++;
      from = nl + 1;
      checkpoint(pos + from);
    }
    pos += bytesRead;
  }
  // A last line without a trailing newline still counts as a line.
  const open = lastByte !== -1 && lastByte !== NEWLINE;
  if (open && line >= o.start && line < end) lines.push(finishLine(parts, kept, lineBytes));
  const total = open ? line + 1 : line;
  return { lines, line: total, eof: true, total, budgetHit: false };
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
  deadline: number,
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
  while (end > 0) {
    if (scanned >= budget || (scanned >= DEADLINE_FREE_BYTES && performance.now() > deadline))
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
  const budget = req.budgetBytes ?? SCAN_BUDGET_BYTES;
  const deadline = req.deadline ?? performance.now() + SCAN_DEADLINE_MS;
  const limits = {
    maxLineBytes: req.maxLineBytes,
    maxWindowBytes: req.maxWindowBytes,
    size,
    deadline,
  };
  let start = req.offset;
  if (start < 0) {
    const lastCheckpoint = index.offsets[index.offsets.length - 1]!;
    if (index.totalLines === null && size - lastCheckpoint <= budget) {
      // Small enough to count from the last checkpoint: the tail gets real line numbers.
      const k = index.offsets.length - 1;
      const counted = await walk(handle, {
        ...limits,
        line: k * LINE_INDEX_STRIDE,
        pos: lastCheckpoint,
        start: 0,
        end: 0,
        budget,
        countToEof: true,
        index,
      });
      if (counted.eof) index.totalLines = counted.total;
    }
    if (index.totalLines === null) {
      // A count cut short by the deadline still leaves the tail some time of its own.
      const tailDeadline = Math.max(deadline, performance.now() + SCAN_DEADLINE_MS / 4);
      return readTail(handle, size, req, budget, tailDeadline);
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
  limits: { maxLineBytes: number; maxWindowBytes: number; size: number; deadline: number },
): Promise<WindowResult> {
  const k = Math.min(Math.floor(start / LINE_INDEX_STRIDE), index.offsets.length - 1);
  const end = start + req.limit;
  if (index.totalLines !== null && start >= index.totalLines)
    return { start, fromEnd: false, lines: [], totalLines: index.totalLines, more: false };
  const r = await walk(handle, {
    ...limits,
    line: k * LINE_INDEX_STRIDE,
    pos: index.offsets[k]!,
    start,
    end,
    budget,
    countToEof: index.totalLines === null,
    index,
  });
  if (r.eof) index.totalLines = r.total;
  const totalLines = index.totalLines;
  const shownEnd = start + r.lines.length;
  const more = totalLines !== null ? shownEnd < totalLines : !r.eof;
  const result: WindowResult = { start, fromEnd: false, lines: r.lines, totalLines, more };
  if (r.budgetHit && r.line < start) result.reachedOnly = r.line;
  return result;
}

async function readTail(
  handle: FileHandle,
  size: number,
  req: WindowRequest,
  budget: number,
  deadline: number,
): Promise<WindowResult> {
  const want = -req.offset;
  const tail = await findTailStart(handle, size, want, budget, deadline);
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
    countToEof: false,
    // The window itself gets a little time of its own after a long search.
    deadline: Math.max(deadline, performance.now() + SCAN_DEADLINE_MS / 10),
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
