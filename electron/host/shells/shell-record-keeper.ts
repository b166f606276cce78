import { SHELL_RECORD_FIRST_MS, SHELL_RECORD_MAX_MS } from './constants';
import { saveShellRecord } from './shell-records';
import type { ShellSession } from './shell-session';

// Keeps each background shell's record on disk while it runs, not only when it ends: a host that
// is killed (SIGKILL, a crash, the machine losing power) never runs its exit path, and its shells
// would otherwise vanish from the session. A record is written when the shell starts, again only
// after new output arrived (an idle shell's record is never rewritten), and last when it ends.
// Each rewrite serialises the whole ring and fsyncs it, so while output keeps streaming the wait
// before the next one doubles from SHELL_RECORD_FIRST_MS up to SHELL_RECORD_MAX_MS; output after a
// quiet spell is kept within SHELL_RECORD_FIRST_MS again. Writes of one shell are chained, so an
// older snapshot never lands over a newer one.

/** When the keeper's rewrites run: real time, or a test's hand-driven clock. */
export interface RecordTimer {
  now(): number;
  /** Runs `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

const realTimer: RecordTimer = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

interface Kept {
  dir: string;
  shell: ShellSession;
  /** The write in flight (or done): the next one starts after it. */
  chain: Promise<void>;
  /** Cancels the armed rewrite; null when none is armed (no output since the last write). */
  cancel: (() => void) | null;
  /** The wait the next rewrite is armed with. */
  delay: number;
  /** When the last rewrite the timer ran happened (the start of the quiet spell it measures). */
  wroteAt: number;
  ended: boolean;
}

export class ShellRecordKeeper {
  private readonly kept = new Set<Kept>();

  constructor(
    private readonly log?: (line: string) => void,
    private readonly timer: RecordTimer = realTimer,
  ) {}

  /** Records `shell` under `dir` from now until it ends. */
  keep(dir: string, shell: ShellSession): void {
    const k: Kept = {
      dir,
      shell,
      chain: Promise.resolve(),
      cancel: null,
      delay: SHELL_RECORD_FIRST_MS,
      wroteAt: this.timer.now(),
      ended: false,
    };
    this.kept.add(k);
    this.write(k);
    const appended = shell.onDidAppend(() => {
      if (k.ended || k.cancel) return;
      // Output within one wait of the last rewrite means it is still streaming: wait longer.
      // After a quiet spell at least that long, the first wait is short again.
      if (this.timer.now() - k.wroteAt >= k.delay) k.delay = SHELL_RECORD_FIRST_MS;
      k.cancel = this.timer.after(k.delay, () => {
        k.cancel = null;
        k.wroteAt = this.timer.now();
        k.delay = Math.min(k.delay * 2, SHELL_RECORD_MAX_MS);
        this.write(k);
      });
    });
    void shell.whenExited.then(() => {
      k.ended = true;
      appended.dispose();
      k.cancel?.();
      k.cancel = null;
      this.write(k);
      void k.chain.then(() => this.kept.delete(k));
    });
  }

  private write(k: Kept): void {
    k.chain = k.chain.then(async () => {
      // The state and output as they are when this write's turn comes: the newest there is.
      const info = k.shell.info();
      try {
        await saveShellRecord(k.dir, {
          info,
          start: k.shell.buffer.start,
          output: k.shell.buffer.read().text,
        });
      } catch (err) {
        this.log?.(`[shells] could not keep ${info.shell_id}'s output: ${String(err)}`);
      }
    });
  }

  /** Resolves once every record written so far is on disk (quit waits for the final ones). */
  async flush(): Promise<void> {
    await Promise.all([...this.kept].map((k) => k.chain));
  }
}
