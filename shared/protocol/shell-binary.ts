// The binary form of `shell_output` on the web host's WebSocket (electron/web/PROTOCOL.md,
// "Binary shell output"). A client opts in per connection by offering the WebSocket subprotocol
// below; the host then sends each shell_output event as one binary message: a fixed header, then
// the output's UTF-8 bytes as they are, instead of a JSON-escaped string. Everything else (and
// every frame on a connection that did not opt in) stays JSON text.
//
// Layout, little-endian, HEADER_BYTES bytes then the payload:
//   0  u8   kind: 1 = shell_output
//   1  u8   header length in bytes (32): the payload starts there (a longer header may follow)
//   2  u16  reserved, 0
//   4  u32  sub: the subscription, as in {"t":"event","sub":...}
//   8  f64  cursor: absolute position (in characters) of the payload's first character
//   16 f64  missed_characters: evicted before this subscriber got them (0: none)
//   24 u32  characters: the payload's length in characters (UTF-16 code units, as cursors count):
//           what the client acks, and the next frame's cursor is cursor + characters
//   28 u32  reserved, 0
//   32 ...  payload: the output as UTF-8 (the same text the JSON form's `data` holds)

export const BINARY_SHELL_OUTPUT_PROTOCOL = 'mewbo.shell-output-binary.v1';
export const SHELL_OUTPUT_KIND = 1;
export const SHELL_OUTPUT_HEADER_BYTES = 32;

/** A binary shell_output as the client's transport hands it to the topic's listener. */
export interface ShellOutputBytes {
  type: 'shell_output_bytes';
  cursor: number;
  /** Characters the payload holds (the ack and the cursor advance by this). */
  characters: number;
  missed_characters?: number;
  /** The output's UTF-8 bytes (a view into the message; no copy). */
  bytes: Uint8Array;
}

export function isShellOutputBytes(x: unknown): x is ShellOutputBytes {
  return (x as { type?: unknown } | null)?.type === 'shell_output_bytes';
}

/** Reads one binary message; null when it is not a shell_output this client understands. */
export function decodeShellOutput(
  message: ArrayBuffer | Uint8Array,
): { sub: number; frame: ShellOutputBytes } | null {
  const u8 = message instanceof Uint8Array ? message : new Uint8Array(message);
  if (u8.byteLength < SHELL_OUTPUT_HEADER_BYTES) return null;
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const headerBytes = view.getUint8(1);
  if (view.getUint8(0) !== SHELL_OUTPUT_KIND || headerBytes < SHELL_OUTPUT_HEADER_BYTES)
    return null;
  if (headerBytes > u8.byteLength) return null;
  const missed = view.getFloat64(16, true);
  return {
    sub: view.getUint32(4, true),
    frame: {
      type: 'shell_output_bytes',
      cursor: view.getFloat64(8, true),
      characters: view.getUint32(24, true),
      ...(missed > 0 ? { missed_characters: missed } : {}),
      bytes: u8.subarray(headerBytes),
    },
  };
}
