import type { Readable } from 'node:stream';
import { STDERR_LINE_MAX_CHARS, STDERR_TAIL_LINES } from './constants';

/**
 * Keeps the last lines a server wrote to stderr (the reason it failed is usually there), or the
 * last log messages it sent, each cut to a bounded length.
 */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  attach(stream: Readable | null): void {
    if (!stream) return;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.push(chunk));
    stream.on('error', () => {});
  }

  private push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.add(line);
    if (this.partial.length > STDERR_LINE_MAX_CHARS) {
      this.add(this.partial);
      this.partial = '';
    }
  }

  /** One whole line (a log message), kept like a line of stderr. */
  line(text: string): void {
    for (const l of text.split('\n')) this.add(l);
  }

  private add(line: string): void {
    const trimmed = line.replace(/\r$/, '');
    if (!trimmed) return;
    this.lines.push(
      trimmed.length > STDERR_LINE_MAX_CHARS
        ? `${trimmed.slice(0, STDERR_LINE_MAX_CHARS)}...`
        : trimmed,
    );
    if (this.lines.length > STDERR_TAIL_LINES) this.lines.shift();
  }

  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }
}
