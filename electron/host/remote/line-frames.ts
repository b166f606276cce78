import type { Readable, Writable } from 'node:stream';

// The frames of the app's protocol over a byte stream (the SSH channel's stdio): one JSON value
// a line. JSON escapes every newline inside a string, so a line is always one whole frame.

/** Calls `onFrame` for each line of `input` parsed as JSON; a line that is not JSON goes to `onBad`. */
export function readLineFrames(
  input: Readable,
  onFrame: (frame: unknown) => void,
  onBad: (line: string) => void,
): void {
  let pending = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (!line) continue;
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        onBad(line);
        continue;
      }
      onFrame(frame);
    }
  });
}

export function writeLineFrame(output: Writable, frame: unknown): void {
  if (!output.writableEnded && !output.destroyed) output.write(`${JSON.stringify(frame)}\n`);
}
