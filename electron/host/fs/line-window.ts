import type { FileHandle } from 'node:fs/promises';
import { LINE_INDEX_STRIDE, type LineIndex } from './line-index';

// Reads a window of lines from a file of any size with memory proportional to the window: the
// file is streamed in fixed chunks from the nearest index checkpoint, only the window's lines are
// kept (each cut at a byte cap), and the rest is only counted (for the total and the index).

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
}

export interface WindowLine {
  text: string;
  /** Bytes of the line not kept (0 when whole). */
  cutBytes: number;
}

export interface WindowResult {
  /** 0-based index of the first returned line. */
  start: number;
  lines: WindowLine[];
  totalLines: number;
}

const decoder = new TextDecoder('utf-8');

function finishLine(parts: Buffer[], keptBytes: number, totalBytes: number): WindowLine {
  let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, keptBytes);
  const cut = totalBytes - keptBytes;
  // CRLF files: the model sees the line without its \r (the edit tools put it back).
  if (cut === 0 && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d)
    bytes = bytes.subarray(0, -1);
  return { text: decoder.decode(bytes), cutBytes: cut };
}

/**
 * Scans from the checkpoint at or before `start`, collecting lines [start, start+limit), then
 * counts on to the end unless the index already knows the total. Extends `index` as it goes.
 */
async function scan(
  handle: FileHandle,
  index: LineIndex,
  start: number,
  req: Omit<WindowRequest, 'offset'>,
): Promise<WindowResult> {
  const { maxLineBytes, maxWindowBytes } = req;
  const checkpoint = Math.min(Math.floor(start / LINE_INDEX_STRIDE), index.offsets.length - 1);
  let line = checkpoint * LINE_INDEX_STRIDE;
  let pos = index.offsets[checkpoint]!;
  let end = start + req.limit;
  const lines: WindowLine[] = [];
  let collected = 0;
  const buf = Buffer.allocUnsafe(MAX_CHUNK_BYTES);
  let chunk = FIRST_CHUNK_BYTES;
  let parts: Buffer[] = [];
  let kept = 0;
  let lineBytes = 0;
  let lastByte = -1;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, chunk, pos);
      chunk = Math.min(chunk * 2, MAX_CHUNK_BYTES);
      if (bytesRead === 0) break;
      lastByte = buf[bytesRead - 1]!;
      let from = 0;
      while (from < bytesRead) {
        if (line < start || line >= end) {
          // Outside the window only newlines matter: a tight loop (this is most of a big file).
          const nl = buf.indexOf(NEWLINE, from);
          if (nl === -1 || nl >= bytesRead) break;
          line++;
          from = nl + 1;
          if (line % LINE_INDEX_STRIDE === 0 && line / LINE_INDEX_STRIDE === index.offsets.length)
            index.offsets.push(pos + from);
          if (line >= end && index.totalLines !== null)
            return { start, lines, totalLines: index.totalLines };
          continue;
        }
        const nl = buf.indexOf(NEWLINE, from);
        const stop = nl === -1 || nl >= bytesRead ? bytesRead : nl;
        if (line >= start && line < end) {
          const room = maxLineBytes - kept;
          if (room > 0 && stop > from) {
            const take = Math.min(room, stop - from);
            parts.push(Buffer.from(buf.subarray(from, from + take)));
            kept += take;
          }
          lineBytes += stop - from;
        }
        if (stop === bytesRead) break;
        if (line >= start && line < end) {
          lines.push(finishLine(parts, kept, lineBytes));
          collected += kept;
          if (collected >= maxWindowBytes) end = line + 1;
        }
        parts = [];
        kept = 0;
        lineBytes = 0;
        line++;
        from = nl + 1;
        if (line % LINE_INDEX_STRIDE === 0 && line / LINE_INDEX_STRIDE === index.offsets.length) {
          index.offsets.push(pos + from);
        }
        if (line >= end && index.totalLines !== null)
          return { start, lines, totalLines: index.totalLines };
      }
      pos += bytesRead;
    }
  } finally {
    // The caller owns the descriptor.
  }
  // A last line without a trailing newline still counts as a line.
  const total = lastByte !== -1 && lastByte !== NEWLINE ? line + 1 : line;
  if (line >= start && line < end && lastByte !== -1 && lastByte !== NEWLINE)
    lines.push(finishLine(parts, kept, lineBytes));
  index.totalLines = total;
  return { start, lines, totalLines: total };
}

/** Reads the requested window; `index` belongs to this exact version of the file. */
export async function readLineWindow(
  handle: FileHandle,
  req: WindowRequest,
  index: LineIndex,
): Promise<WindowResult> {
  let start = req.offset;
  if (start < 0) {
    if (index.totalLines === null) {
      await scan(handle, index, Number.MAX_SAFE_INTEGER, {
        limit: 0,
        maxLineBytes: 0,
        maxWindowBytes: 0,
      });
    }
    start = Math.max(0, index.totalLines! + start);
  }
  return scan(handle, index, start, req);
}
