import type { HostFrame } from '../../shared/protocol/wire';
import type { ShellOutputFrame } from '../../shared/protocol/shell-stream';
import {
  SHELL_OUTPUT_HEADER_BYTES as HEADER,
  SHELL_OUTPUT_KIND,
} from '../../shared/protocol/shell-binary';

const MAX_U32 = 0xffff_ffff;

/**
 * The binary message for a frame on a connection that opted in (shared/protocol/shell-binary.ts
 * has the layout), or null when the frame stays JSON: anything but a shell topic's output, and a
 * subscription id the header cannot carry (a client may pick any integer).
 */
export function binaryShellOutput(frame: HostFrame, topic: string | undefined): Buffer | null {
  if (frame.t !== 'event' || !topic?.startsWith('shell:')) return null;
  const data = frame.data as Partial<ShellOutputFrame> | null;
  if (data?.type !== 'shell_output' || typeof data.data !== 'string') return null;
  if (!Number.isInteger(frame.sub) || frame.sub < 0 || frame.sub > MAX_U32) return null;
  if (data.data.length > MAX_U32) return null;
  const text = data.data;
  const buf = Buffer.allocUnsafe(HEADER + Buffer.byteLength(text, 'utf8'));
  buf.writeUInt8(SHELL_OUTPUT_KIND, 0);
  buf.writeUInt8(HEADER, 1);
  buf.writeUInt16LE(0, 2);
  buf.writeUInt32LE(frame.sub, 4);
  buf.writeDoubleLE(data.cursor ?? 0, 8);
  buf.writeDoubleLE(data.missed_characters ?? 0, 16);
  buf.writeUInt32LE(text.length, 24);
  buf.writeUInt32LE(0, 28);
  buf.write(text, HEADER, 'utf8');
  return buf;
}
