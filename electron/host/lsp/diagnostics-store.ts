import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';

// The diagnostics a server has pushed (textDocument/publishDiagnostics), per document, and the
// waits for a publish that reflects a given sync. A server that echoes `version` (pyright, gopls,
// rust-analyzer) is fresh once it publishes that version or later; one that does not is fresh once
// it publishes anything after the sync (`seq` counts publishes across the store).

interface Entry {
  diagnostics: Diagnostic[];
  version: number | undefined;
  seq: number;
}

export interface SyncMark {
  version: number;
  /** The store's publish counter when the document was last opened or changed. */
  seq: number;
}

interface Waiter {
  uri: string;
  mark: SyncMark;
  resolve: (diagnostics: Diagnostic[] | null) => void;
}

export class DiagnosticsStore {
  private readonly entries = new Map<string, Entry>();
  private readonly waiters = new Set<Waiter>();
  private seqCounter = 0;

  get seq(): number {
    return this.seqCounter;
  }

  publish(params: PublishDiagnosticsParams): void {
    const entry = {
      diagnostics: params.diagnostics,
      version: params.version,
      seq: ++this.seqCounter,
    };
    this.entries.set(params.uri, entry);
    for (const waiter of [...this.waiters]) {
      if (waiter.uri === params.uri && isFresh(entry, waiter.mark)) {
        this.waiters.delete(waiter);
        waiter.resolve(entry.diagnostics);
      }
    }
  }

  /** The latest diagnostics for a document, whether or not they reflect its last change. */
  latest(uri: string): Diagnostic[] | undefined {
    return this.entries.get(uri)?.diagnostics;
  }

  /**
   * Resolves with the diagnostics that reflect `mark`, or null if none arrive by `timeoutMs` or
   * the signal aborts (the caller then falls back to `latest`).
   */
  waitFresh(
    uri: string,
    mark: SyncMark,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Diagnostic[] | null> {
    const entry = this.entries.get(uri);
    if (entry && isFresh(entry, mark)) return Promise.resolve(entry.diagnostics);
    return new Promise((resolve) => {
      const done = (value: Diagnostic[] | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
        resolve(value);
      };
      const waiter: Waiter = { uri, mark, resolve: done };
      const onAbort = () => done(null);
      const timer = setTimeout(() => done(null), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }

  /** Ends every wait (the server went away). */
  clear(): void {
    for (const waiter of [...this.waiters]) waiter.resolve(null);
    this.waiters.clear();
    this.entries.clear();
  }
}

function isFresh(entry: Entry, mark: SyncMark): boolean {
  return entry.version !== undefined ? entry.version >= mark.version : entry.seq > mark.seq;
}
