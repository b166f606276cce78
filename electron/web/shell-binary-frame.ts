import type { HostFrame } from '../../shared/protocol/wire';
import type { ShellOutputFrame } from '../../shared/protocol/shell-stream';
import {
  SHELL_OUTPUT_HEADER_BYTES as HEADER,
  SHELL_OUTPUT_KIND,
  type ShellOutputBytes,
} from '../../shared/protocol/shell-binary';

const MAX_U32 = 0xffff_ffff;
/** Where a frame made from a remote part's record keeps the record's bytes (not enumerable). */
const RECORD = Symbol('shell output record');

type RecordFrame = ShellOutputFrame & { [RECORD]?: ShellOutputBytes };

/**
 * A shell_output frame for a remote part's binary record (its UTF-8 bytes as they crossed the SSH
 * channel): a binary WebSocket client gets those bytes again under its own header, never decoded
 * and encoded back; `data` is decoded only when something reads it (a JSON client, the desktop's
 * IPC), once. The bytes are a view into the channel's chunk, which nothing writes over.
 */
export function shellOutputFromRecord(shellId: string, output: ShellOutputBytes): ShellOutputFrame {
  let text: string | null = null;
  const frame = { type: 'shell_output', shell_id: shellId, cursor: output.cursor } as RecordFrame;
  Object.defineProperty(frame, 'data', {
    enumerable: true,
    get: () =>
      (text ??= Buffer.from(
        output.bytes.buffer,
        output.bytes.byteOffset,
        output.bytes.byteLength,
      ).toString('utf8')),
  });
  if (output.missed_characters) frame.missed_characters = output.missed_characters;
  Object.defineProperty(frame, RECORD, { value: output });
  return frame;
}

/**
 * The binary message for a frame on a connection that opted in (shared/protocol/shell-binary.ts
 * has the layout), or null when the frame stays JSON: anything but a shell topic's output, and a
 * subscription id the header cannot carry (a client may pick any integer).
 */
export function binaryShellOutput(frame: HostFrame, topic: string | undefined): Buffer | null {
  if (frame.t !== 'event' || !topic?.startsWith('shell:')) return null;
  const data = frame.data as Partial<RecordFrame> | null;
  if (data?.type !== 'shell_output') return null;
  if (!Number.isInteger(frame.sub) || frame.sub < 0 || frame.sub > MAX_U32) return null;
  const record = data[RECORD];
  if (record) {
    const buf = header(frame.sub, record, record.characters, record.bytes.byteLength);
    buf.set(record.bytes, HEADER);
    return buf;
  }
  if (typeof data.data !== 'string' || data.data.length > MAX_U32) return null;
  const text = data.data;
  const buf = header(frame.sub, data, text.length, Buffer.byteLength(text, 'utf8'));
  buf.write(text, HEADER, 'utf8');
  return buf;
}

/** A message of `payloadBytes` bytes after its header, the header written. */
function header(
  sub: number,
  at: { cursor?: number; missed_characters?: number },
  characters: number,
  payloadBytes: number,
): Buffer {
  const buf = Buffer.allocUnsafe(HEADER + payloadBytes);
  buf.writeUInt8(SHELL_OUTPUT_KIND, 0);
  buf.writeUInt8(HEADER, 1);
  buf.writeUInt16LE(0, 2);
  buf.writeUInt32LE(sub, 4);
  buf.writeDoubleLE(at.cursor ?? 0, 8);
  buf.writeDoubleLE(at.missed_characters ?? 0, 16);
  buf.writeUInt32LE(characters, 24);
  buf.writeUInt32LE(0, 28);
  return buf;
}
