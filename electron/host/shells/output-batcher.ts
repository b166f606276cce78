import type { Disposable } from '../lifecycle/disposable';
import { OUTPUT_BATCH_MAX_CHARS } from './constants';

// A shell's output as its owner (ShellSession) takes it: the reads of one turn of the event loop
// joined into one chunk. A PTY gives at most ~4 KB a read (the kernel's line discipline buffer),
// and each read used to be a ring append, a URL scan, a stream notification and an event of its
// own (16,000 of each per 64 MiB). libuv reads a ready stream up to 32 times in one poll phase, so
// what arrived in that phase goes on as one chunk in the check phase right after it
// (setImmediate): nothing waits for more data, so a keystroke's echo is not held back, and no
// timer runs. Past OUTPUT_BATCH_MAX_CHARS the chunk goes at once, so a batch stays one frame's
// worth. VS Code's TerminalDataBufferer does the same with a 5 ms timer; here it is one loop turn.

export class OutputBatcher implements Disposable {
  private parts: string[] = [];
  private size = 0;
  private pending: NodeJS.Immediate | null = null;

  constructor(
    private readonly deliver: (text: string) => void,
    private readonly maxChars = OUTPUT_BATCH_MAX_CHARS,
  ) {}

  push(text: string): void {
    if (text.length === 0) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.maxChars) this.flush();
    else this.pending ??= setImmediate(() => this.flush());
  }

  /** Delivers what is held now (before the exit, which must come after the last output). */
  flush(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = null;
    if (this.size === 0) return;
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.deliver(text);
  }

  dispose(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = null;
    this.parts = [];
    this.size = 0;
  }
}
