import { writeSync } from 'node:fs';

// How a one-shot command prints its answer. process.stdout on a pipe (a parent reading the
// answer, as an editor or a script does) is a net.Socket, and its first use loads Node's net and
// stream modules: ~12M instructions of `mewbo tool read_file`'s ~200M, for one write (issue #26
// part 4). Node writes stdout pipes and files synchronously on Linux anyway, so writing the fd
// ourselves changes no order. A pipe its maker left non-blocking answers EAGAIN when full: the
// rest then goes through process.stdout, which waits for the reader.

/** Writes `text` to stdout: all of it before returning, or the rest queued on process.stdout. */
export function writeStdout(text: string): void {
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(1, bytes));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      process.stdout.write(bytes);
      return;
    }
  }
}
