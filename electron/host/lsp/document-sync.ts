import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { MAX_OPEN_DOCUMENTS } from './constants';
import type { DiagnosticsStore, SyncMark } from './diagnostics-store';
import PQueue from 'p-queue';

// Keeps a server's view of files equal to the disk: a file is opened (didOpen, version 1) on first
// use and sent again in full (didChange, next version) whenever its content on disk differs from
// what the server has, so a query right after an edit sees the edit. Syncs run one at a time: two
// interleaved reads of one file could otherwise send an older text under a newer version.

interface OpenDocument {
  uri: string;
  text: string;
  mark: SyncMark;
  mtimeMs: number;
  size: number;
  /** An atomic write (temp file + rename) gives the path a new inode. */
  ino: number;
}

export interface SyncedDocument {
  uri: string;
  text: string;
  mark: SyncMark;
}

export class DocumentSync {
  /** Insertion order is recency: the first entry is the least recently used. */
  private readonly open = new Map<string, OpenDocument>();
  private readonly queue = new PQueue({ concurrency: 1 });

  constructor(
    private readonly connection: ProtocolConnection,
    private readonly store: DiagnosticsStore,
    private readonly languageId: (ext: string) => string,
  ) {}

  /** Brings one file up to date with the disk; rejects (ENOENT, EISDIR) if it cannot be read. */
  sync(file: string): Promise<SyncedDocument> {
    return this.serialize(() => this.syncNow(file));
  }

  /**
   * Re-sends every open file changed on disk since it was sent (another file's edit changes
   * references and cross-file errors), and closes the ones that were deleted.
   */
  refreshOpen(): Promise<void> {
    return this.serialize(async () => {
      for (const [file, doc] of [...this.open]) {
        const info = await stat(file).catch(() => null);
        if (!info?.isFile()) {
          this.close(file, doc);
          continue;
        }
        if (info.mtimeMs !== doc.mtimeMs || info.size !== doc.size || info.ino !== doc.ino)
          await this.syncNow(file);
      }
    });
  }

  isOpen(file: string): boolean {
    return this.open.has(file);
  }

  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.add(fn);
  }

  private async syncNow(file: string): Promise<SyncedDocument> {
    const info = await stat(file);
    if (!info.isFile()) throw Object.assign(new Error(`${file} is not a file`), { code: 'EISDIR' });
    const text = await readFile(file, 'utf8');
    const existing = this.open.get(file);
    if (existing) {
      this.open.delete(file);
      this.open.set(file, existing);
      existing.mtimeMs = info.mtimeMs;
      existing.size = info.size;
      existing.ino = info.ino;
      if (existing.text !== text) {
        existing.text = text;
        existing.mark = { version: existing.mark.version + 1, seq: this.store.seq };
        await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri: existing.uri, version: existing.mark.version },
          contentChanges: [{ text }],
        });
      }
      return existing;
    }
    const uri = pathToFileURL(file).href;
    const doc: OpenDocument = {
      uri,
      text,
      mark: { version: 1, seq: this.store.seq },
      mtimeMs: info.mtimeMs,
      size: info.size,
      ino: info.ino,
    };
    this.open.set(file, doc);
    this.store.forget(uri);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri,
        languageId: this.languageId(extname(file).toLowerCase()),
        version: 1,
        text,
      },
    });
    this.evictOverflow();
    return doc;
  }

  private evictOverflow(): void {
    for (const [file, doc] of this.open) {
      if (this.open.size <= MAX_OPEN_DOCUMENTS) break;
      this.close(file, doc);
    }
  }

  private close(file: string, doc: OpenDocument): void {
    this.open.delete(file);
    this.store.forget(doc.uri);
    void this.connection
      .sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: doc.uri } })
      .catch(() => undefined);
  }
}
