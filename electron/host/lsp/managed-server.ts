import type { Disposable } from '../lifecycle/disposable';
import { CRASH_WINDOW_MS, MAX_CRASHES } from './constants';
import { LspError } from './errors';
import type { LspClient } from './lsp-client';

// One language server for one workspace root, across restarts. It starts on first use; when the
// process dies unexpectedly (or fails to start) the next use starts a fresh one, until
// MAX_CRASHES within CRASH_WINDOW_MS, after which it stays down and says it gave up.

export class ManagedServer implements Disposable {
  private client: LspClient | undefined;
  private starting: Promise<LspClient> | undefined;
  private crashes: number[] = [];
  private lastFailure = '';
  private disposed = false;
  private gaveUp = false;

  constructor(
    readonly name: string,
    readonly root: string,
    private readonly launch: () => Promise<LspClient>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The running client, started (or restarted) if needed. Rejects with an LspError. */
  get(): Promise<LspClient> {
    if (this.disposed)
      return Promise.reject(new LspError('server_exited', `${this.name} was shut down`));
    if (this.gaveUp) return Promise.reject(this.gaveUpError());
    if (this.client && !this.client.hasExited) return Promise.resolve(this.client);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** The running client's pid, if any (status displays, tests). */
  get pid(): number | undefined {
    return this.client && !this.client.hasExited ? this.client.pid : undefined;
  }

  get restarts(): number {
    return this.crashes.length;
  }

  private async start(): Promise<LspClient> {
    let client: LspClient;
    try {
      client = await this.launch();
    } catch (err) {
      // A sandbox refusal is a setting, not a crash: it must not use up the restart budget.
      if (!(err instanceof LspError && err.code === 'sandbox_unavailable'))
        this.recordCrash((err as Error).message);
      throw err;
    }
    if (this.disposed) {
      await client.dispose();
      throw new LspError('server_exited', `${this.name} was shut down`);
    }
    this.client = client;
    client.onExit((exit) => {
      if (this.client === client) this.client = undefined;
      if (!exit.expected) {
        const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
        this.recordCrash(
          `exited unexpectedly (${how})${exit.stderr ? `: ${exit.stderr.slice(-400)}` : ''}`,
        );
      }
    });
    return client;
  }

  private recordCrash(reason: string): void {
    const now = this.now();
    this.lastFailure = reason;
    this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (this.crashes.length >= MAX_CRASHES) this.gaveUp = true;
  }

  private gaveUpError(): LspError {
    return new LspError(
      'server_gave_up',
      `${this.name} failed ${MAX_CRASHES} times within ${CRASH_WINDOW_MS / 1000} s and is not restarted ` +
        `again this session; last failure: ${this.lastFailure}`,
    );
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const pending = this.starting;
    const client = this.client;
    this.client = undefined;
    if (client) await client.dispose();
    // A start in flight disposes its own client once it sees `disposed`.
    await pending?.catch(() => undefined);
  }
}
