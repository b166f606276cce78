import type { BigIntStats } from 'node:fs';
import { lstat, type FileHandle } from 'node:fs/promises';
import * as z from 'zod/mini';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { fileVersionKey } from '../fs/line-index';
import {
  COUNT_AFTER_WINDOW_BYTES,
  readLineWindow,
  type WindowLine,
  type WindowResult,
} from '../fs/line-window';
import { SCAN_CPU_MS } from '../fs/scan-bound';
import { openForRead } from '../fs/safe-open';
import { relativeToRoot, safeResolve } from '../fs/safe-path';
import { looksBinary } from '../fs/text-sniff';
import {
  BINARY_SNIFF_BYTES,
  READ_FILE_DEFAULT_LIMIT,
  READ_FILE_MAX_CHARS,
  READ_FILE_MAX_LINE_CHARS,
  TRUNCATION_MARKER,
} from './constants';
import { fsErrorPayload } from './file-errors';
import { ReadState } from './read-state';
import { readImage } from './read-image';
import { defineTool, type ToolContext } from './tool';

/** Bytes of a line kept while scanning: enough for READ_FILE_MAX_LINE_CHARS of any UTF-8. */
const MAX_LINE_BYTES = READ_FILE_MAX_LINE_CHARS * 4;
/** Bytes of a window kept while scanning: enough for READ_FILE_MAX_CHARS of any UTF-8. */
const MAX_WINDOW_BYTES = READ_FILE_MAX_CHARS * 4;
/** Width of the line-number column, as `cat -n` prints it. */
const LINE_NUMBER_WIDTH = 6;

// zod/mini: `mewbo tool read_file` checks these without loading classic zod (cli/zod-jitless.ts).
const parameters = z.strictObject({
  path: z
    .string()
    .check(z.minLength(1), z.describe('File to read, relative to root (or absolute inside it)')),
  root: z
    .optional(z.string())
    .check(z.describe('Project root for path resolution; may only narrow the session root')),
  offset: z
    ._default(z.int(), 0)
    .check(
      z.describe(
        '0-based first line of the window; negative counts from the end (-100: the last 100 lines)',
      ),
    ),
  limit: z
    ._default(z.int().check(z.minimum(1)), READ_FILE_DEFAULT_LIMIT)
    .check(z.describe('Lines in the window (default 2000)')),
});

function renderLine(number: number, line: WindowLine): string {
  let text = line.text;
  let cutBytes = line.cutBytes;
  if (text.length > READ_FILE_MAX_LINE_CHARS) {
    cutBytes += Buffer.byteLength(text.slice(READ_FILE_MAX_LINE_CHARS));
    text = text.slice(0, READ_FILE_MAX_LINE_CHARS);
  }
  const cut = line.cutUnscanned
    ? ` ... [line cut: ${cutBytes} more bytes and more not scanned]`
    : cutBytes > 0
      ? ` ... [line cut: ${cutBytes} more bytes]`
      : '';
  return `${String(number).padStart(LINE_NUMBER_WIDTH)}\t${text}${cut}`;
}

async function sniff(handle: FileHandle): Promise<Buffer> {
  const buf = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buf, 0, BINARY_SNIFF_BYTES, 0);
  return buf.subarray(0, bytesRead);
}

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a line-windowed slice of a text file, numbered from 1 like `cat -n`. Use offset (0-based ' +
    'first line, negative from the end) and limit to page through large files. Re-reading an ' +
    'unchanged slice returns a short note instead of the content you already have. Any line is ' +
    'reached in one call unless the file is too large to scan in the time a read may take (then ' +
    'the answer says where it stopped and reading again goes on); a tail that could not be counted ' +
    'is numbered from the end (-1 is the last line). Only regular files are read. An image file (PNG, ' +
    'JPEG, GIF, WebP; at most 5 MB and 8000 px a side) is shown to you as the image itself.',
  parameters,
  flags: { readOnly: true, approval: 'none' },
  async run(ctx, args): Promise<ToolPayload> {
    const resolved = safeResolve(ctx.root, args.root, args.path, { label: 'path' });
    if (!resolved.ok) return resolved.error;
    const { root, path } = resolved;
    const shown = relativeToRoot(root, path);
    let opened;
    try {
      // Refused before any open where possible: opening a device can have effects of its own.
      const pre = await lstat(path);
      if (!pre.isFile() && !pre.isDirectory() && !pre.isSymbolicLink()) return notRegular(shown);
    } catch (err) {
      return fsErrorPayload(err, root, path, shown);
    }
    try {
      // No race between the check above and this open: the descriptor is verified to be `path`,
      // and it opens non-blocking so a FIFO or device is refused below, never waited on.
      opened = await openForRead(root, path);
    } catch (err) {
      // A socket (swapped in after the check above) cannot be opened at all.
      if ((err as NodeJS.ErrnoException).code === 'ENXIO') return notRegular(shown);
      return fsErrorPayload(err, root, path, shown);
    }
    const { handle, stat: st } = opened;
    try {
      return await readOpened(ctx, args, handle, st, path, shown);
    } catch (err) {
      return fsErrorPayload(err, root, path, shown);
    } finally {
      await handle.close();
    }
  },
});

function notRegular(shown: string): ToolPayload {
  return errorPayload(
    'not_regular_file',
    `${shown} is not a regular file (a device, FIFO or socket); read_file only reads regular files`,
    { path: shown },
  );
}

function unchanged(shown: string, args: z.infer<typeof parameters>): ToolPayload {
  return {
    kind: 'file_unchanged',
    path: shown,
    offset: args.offset,
    limit: args.limit,
    message: `You already read this slice of ${shown} in this session and the file has not changed since; use that earlier result.`,
  };
}

async function readOpened(
  ctx: ToolContext,
  args: z.infer<typeof parameters>,
  handle: FileHandle,
  st: BigIntStats,
  path: string,
  shown: string,
): Promise<ToolPayload> {
  if (st.isDirectory()) {
    const message = `${shown} is a directory; list it with aider_list_dir_tool`;
    return errorPayload('is_directory', message, { path: shown });
  }
  if (!st.isFile()) return notRegular(shown);
  const head = await sniff(handle);
  const readState = ctx.services.readState ?? new ReadState({ dedup: false });
  const version = fileVersionKey(st);
  const image = await readImage(handle, Number(st.size), head, shown);
  if (image) {
    if (image.kind !== 'image') return image;
    if (readState.alreadyRead(path, args.offset, args.limit, version))
      return unchanged(shown, args);
    readState.markRead(path, args.offset, args.limit, version, ctx.callId);
    return image;
  }
  if (looksBinary(head)) {
    return {
      kind: 'binary',
      path: shown,
      size_bytes: Number(st.size),
      message: `${shown} is a binary file (${st.size} bytes); its content is not shown as text`,
    };
  }
  // An editor driving the session may hold unsaved changes: the file, checked above as it is on
  // disk (inside the root, regular, text), is read as the editor has it. Not remembered as read:
  // the disk's version says nothing of the buffer's.
  if (args.offset >= 0) {
    const buffered = await ctx.services.editorFiles?.readText?.(path);
    if (typeof buffered === 'string') return bufferWindow(buffered, args, shown);
  }
  if (readState.alreadyRead(path, args.offset, args.limit, version)) return unchanged(shown, args);
  const window = await readLineWindow(
    handle,
    Number(st.size),
    {
      offset: args.offset,
      limit: args.limit,
      maxLineBytes: MAX_LINE_BYTES,
      maxWindowBytes: MAX_WINDOW_BYTES,
    },
    await readState.lineIndexes.get(path, handle, st),
  );
  const budget = READ_FILE_MAX_CHARS - TRUNCATION_MARKER.length - 1;
  const out: string[] = [];
  let size = 0;
  // Numbered from 1, or from the end (-1: the last line) when the lines before were not counted.
  const first = window.fromEnd ? window.start : window.start + 1;
  for (const [i, line] of window.lines.entries()) {
    const rendered = renderLine(first + i, line);
    if (size + rendered.length + 1 > budget) break;
    out.push(rendered);
    size += rendered.length + 1;
  }
  // A window not reached has nothing to continue from: the note says to read it again.
  const notReached = window.reachedOnly !== undefined && !window.fromEnd;
  const truncated = !notReached && (window.more || out.length < window.lines.length);
  let content = out.join('\n');
  if (truncated) content += `${content ? '\n' : ''}${TRUNCATION_MARKER}`;
  const next = window.start + out.length;
  const payload: ToolPayload = {
    kind: 'file',
    path: shown,
    content,
    start_line: out.length ? first : window.start,
    end_line: window.fromEnd ? next - 1 : next,
    total_lines: window.totalLines,
    truncated,
  };
  if (window.fromEnd) payload.lines_from_end = true;
  if (truncated) payload.next_offset = next;
  const notes = windowNotes(window, args.offset, shown, st.size);
  if (notes) payload.note = notes;
  // A window not reached, or numbered from the end, is not remembered as read: reading it again
  // goes on scanning (and may then give the lines their true numbers).
  if (!notReached && !window.fromEnd)
    readState.markRead(path, args.offset, args.limit, version, ctx.callId);
  return payload;
}

/** A window of text the editor gave (read_file's window, numbered the same, within its budget). */
function bufferWindow(text: string, args: z.infer<typeof parameters>, shown: string): ToolPayload {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const budget = READ_FILE_MAX_CHARS - TRUNCATION_MARKER.length - 1;
  const out: string[] = [];
  let size = 0;
  for (const [i, line] of lines.slice(args.offset, args.offset + args.limit).entries()) {
    const rendered = renderLine(args.offset + i + 1, {
      text: line.endsWith('\r') ? line.slice(0, -1) : line,
      cutBytes: 0,
    });
    if (size + rendered.length + 1 > budget) break;
    out.push(rendered);
    size += rendered.length + 1;
  }
  const next = args.offset + out.length;
  const truncated = next < lines.length;
  const payload: ToolPayload = {
    kind: 'file',
    path: shown,
    content: truncated
      ? `${out.join('\n')}${out.length ? '\n' : ''}${TRUNCATION_MARKER}`
      : out.join('\n'),
    start_line: out.length ? args.offset + 1 : args.offset,
    end_line: next,
    total_lines: lines.length,
    truncated,
    note: `Read from the editor, with any changes not yet saved to disk.${args.offset > lines.length ? ` offset ${args.offset} is past the end of the file (${lines.length} lines)` : ''}`,
  };
  if (truncated) payload.next_offset = next;
  return payload;
}

const bound = `${SCAN_CPU_MS / 1000} s of work`;

/** Where a scan stopped, in words: "line 693,461 (byte 67,108,864 of 8,796,093,022,208)". */
function stoppedAt(window: WindowResult, size: bigint): string {
  const at = window.countedTo ?? { line: window.reachedOnly ?? 0, pos: 0 };
  return `line ${(at.line + 1).toLocaleString('en-US')} (byte ${at.pos.toLocaleString('en-US')} of ${size.toLocaleString('en-US')})`;
}

/** The payload's note: an empty file, a window not reached, lines that could not be counted. */
function windowNotes(window: WindowResult, offset: number, shown: string, size: bigint): string {
  const notes: string[] = [];
  const notReached = window.reachedOnly !== undefined && !window.fromEnd;
  if (window.totalLines === 0) notes.push('The file is empty.');
  else if (notReached) {
    notes.push(
      `Line ${offset + 1} was not reached: one read scans for at most ${bound} and this one stopped at ${stoppedAt(window, size)}. Read again with the same offset to go on from there, or use a negative offset to read the end.`,
    );
  } else if (
    window.lines.length === 0 &&
    window.totalLines !== null &&
    window.start >= window.totalLines
  ) {
    notes.push(`offset ${offset} is past the end of the file (${window.totalLines} lines)`);
  }
  if (window.fromEnd) {
    notes.push(
      `${shown} is too large to count its lines in one read (${size} bytes; counting stopped at ${stoppedAt(window, size)} after ${bound}), so these lines are numbered from the end (-1 is the last line); page back with a more negative offset. Reading again goes on counting from there.`,
    );
    if (window.reachedOnly !== undefined)
      notes.push(
        `Only the last ${window.reachedOnly} lines were found in the time one read takes; the line before them is longer than that.`,
      );
  } else if (window.totalLines === null && !notReached) {
    const mib = `${COUNT_AFTER_WINDOW_BYTES / (1 << 20)} MiB`;
    notes.push(
      `${shown} has more than ${mib} after this window, which a read does not count only for a total (${size} bytes), so its total line count is unknown (total_lines is null); a negative offset counts them.`,
    );
  }
  return notes.join(' ');
}
