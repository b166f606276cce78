import { SHELL_RECORD_EVERY_MS } from './constants';
import { saveShellRecord } from './shell-records';
import type { ShellSession } from './shell-session';

// Keeps each background shell's record on disk while it runs, not only when it ends: a host that
// is killed (SIGKILL, a crash, the machine losing power) never runs its exit path, and its shells
// would otherwise vanish from the session. A record is written when the shell starts, again at
// most every SHELL_RECORD_EVERY_MS while output arrives, and last when it ends. Writes of one
// shell are chained, so an older snapshot never lands over a newer one.

interface Kept {
  dir: string;
  shell: ShellSession;
  /** The write in flight (or done): the next one starts after it. */
  chain: Promise<void>;
  timer: NodeJS.Timeout | null;
  ended: boolean;
}

export class ShellRecordKeeper {
  private readonly kept = new Set<Kept>();

  constructor(private readonly log?: (line: string) => void) {}

  /** Records `shell` under `dir` from now until it ends. */
  keep(dir: string, shell: ShellSession): void {
    const k: Kept = { dir, shell, chain: Promise.resolve(), timer: null, ended: false };
    this.kept.add(k);
    this.write(k);
    const appended = shell.onDidAppend(() => {
      if (k.ended || k.timer) return;
      k.timer = setTimeout(() => this.write(k), SHELL_RECORD_EVERY_MS);
      k.timer.unref();
    });
    void shell.whenExited.then(() => {
      k.ended = true;
      appended.dispose();
      this.write(k);
      void k.chain.then(() => this.kept.delete(k));
    });
  }

  private write(k: Kept): void {
    if (k.timer) clearTimeout(k.timer);
    k.timer = null;
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
