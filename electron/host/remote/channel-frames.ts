import type { Readable, Writable } from 'node:stream';

// The frames of the app's protocol over a byte stream (the SSH channel's stdio, through the relay
// to the remote part): one JSON value a line, and a console's output as a binary record. JSON
// escapes every newline and control character inside a string, so a line is always one whole
// frame and never starts with RECORD_MARK. A record is RECORD_MARK, the length of its message
// (u32, little-endian), then the message: the web socket's binary shell_output as it is
// (shared/protocol/shell-binary.ts), the output's UTF-8 bytes after a 32-byte header. Output
// stays bytes from the remote part's one encoding to the app: no JSON escaping, no base64, no
// decoding of a chunk at a time (a record is handed over only whole, so a character's bytes are
// never split across two).

/** First byte of a binary record: a JSON line cannot start with it (JSON escapes U+0000). */
export const RECORD_MARK = 0x00;
/** The mark and the u32 length of the message that follows. */
export const RECORD_HEAD_BYTES = 5;
/** A record's message larger than this is not one the remote part writes: the stream is broken. */
export const RECORD_MAX_BYTES = 64 * 1024 * 1024;
/**
 * A JSON line longer than this is not one the remote part writes (its largest is the project's
 * policy files: at most 500 of 256 KiB, 128 MiB of text before escaping), so the stream is broken:
 * without it, bytes with no newline from a hostile host would be buffered without end.
 */
export const LINE_MAX_BYTES = 256 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface ChannelFrameHandlers {
  /** A JSON line, parsed. */
  frame(frame: unknown): void;
  /** A binary record's message (a view valid only during the call). */
  record(message: Buffer): void;
  /** A line that is not JSON (skipped: the frames after it are read). */
  bad(what: string): void;
  /** A record or a line longer than any the remote part writes: nothing more is read. */
  broken(what: string): void;
}

/**
 * Splits a byte stream into frames, however it is chunked: a frame's bytes are gathered until it
 * is whole, then handed over once. Push chunks in order; each whole frame is handled at once.
 */
export class ChannelFrameReader {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes the frame at the front needs in all, once known (a record's head read, or a line's end found). */
  private need = 0;
  /** Bytes of the buffered chunks already searched for a newline (a line's end). */
  private searched = 0;
  private broken = false;

  constructor(
    private readonly on: ChannelFrameHandlers,
    private readonly maxLineBytes = LINE_MAX_BYTES,
  ) {}

  push(chunk: Buffer): void {
    if (this.broken || chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (!this.broken && this.buffered > 0) {
      const size = this.frameSize();
      if (size === 0 || this.buffered < size) return;
      this.take(size);
    }
  }

  /** Bytes of the frame at the front, or 0 when that is not known yet. */
  private frameSize(): number {
    if (this.need) return this.need;
    const first = this.chunks[0]!;
    if (first[0] === RECORD_MARK) {
      if (this.buffered < RECORD_HEAD_BYTES) return 0;
      const head = first.length >= RECORD_HEAD_BYTES ? first : this.gather(RECORD_HEAD_BYTES);
      const length = head.readUInt32LE(1);
      if (length > RECORD_MAX_BYTES) {
        this.break(`a binary record of ${length} bytes (at most ${RECORD_MAX_BYTES})`);
        return 0;
      }
      return (this.need = RECORD_HEAD_BYTES + length);
    }
    // A line: its end is searched for in the bytes not searched yet.
    let offset = 0;
    for (const chunk of this.chunks) {
      if (offset + chunk.length > this.searched) {
        const nl = chunk.indexOf(NEWLINE, Math.max(0, this.searched - offset));
        if (nl !== -1) return (this.need = offset + nl + 1);
      }
      offset += chunk.length;
    }
    this.searched = offset;
    if (offset > this.maxLineBytes)
      this.break(`a line of more than ${this.maxLineBytes} bytes with no end`);
    return 0;
  }

  private break(what: string): void {
    this.broken = true;
    this.chunks.length = 0;
    this.buffered = 0;
    this.on.broken(what);
  }

  /** Hands over the `size` bytes at the front as one frame. */
  private take(size: number): void {
    const bytes = this.gather(size);
    this.chunks[0] = bytes.subarray(size);
    if (this.chunks[0].length === 0) this.chunks.shift();
    this.buffered -= size;
    this.need = 0;
    this.searched = 0;
    if (bytes[0] === RECORD_MARK) {
      this.on.record(bytes.subarray(RECORD_HEAD_BYTES, size));
      return;
    }
    const line = bytes.toString('utf8', 0, size - 1);
    if (!line) return;
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      this.on.bad(`not a JSON frame: ${line.slice(0, 80)}`);
      return;
    }
    this.on.frame(frame);
  }

  /** The first chunk, joined with the next ones until it holds `size` bytes (one copy, only when split). */
  private gather(size: number): Buffer {
    if (this.chunks[0]!.length >= size) return this.chunks[0]!;
    let n = 0;
    let count = 0;
    while (n < size) n += this.chunks[count++]!.length;
    const joined = Buffer.concat(this.chunks.slice(0, count), n);
    this.chunks.splice(0, count, joined);
    return joined;
  }
}

/** Reads `input`'s frames as they arrive. */
export function readChannelFrames(input: Readable, on: ChannelFrameHandlers): void {
  const reader = new ChannelFrameReader(on);
  input.on('data', (chunk: Buffer) => reader.push(chunk));
}

export function writeLineFrame(output: Writable, frame: unknown): void {
  if (!output.writableEnded && !output.destroyed) output.write(`${JSON.stringify(frame)}\n`);
}

/** Writes `message` as one binary record. */
export function writeRecord(output: Writable, message: Buffer): void {
  if (output.writableEnded || output.destroyed) return;
  const head = Buffer.allocUnsafe(RECORD_HEAD_BYTES);
  head.writeUInt8(RECORD_MARK, 0);
  head.writeUInt32LE(message.length, 1);
  output.cork();
  output.write(head);
  output.write(message);
  output.uncork();
}
