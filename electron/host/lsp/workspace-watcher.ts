import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node';
import type { Disposable } from '../lifecycle/disposable';
import { MAX_WATCHED_DIRS, WATCH_DEBOUNCE_MS } from './constants';

// Files changed on disk behind the server's back (a shell's sed, a git checkout, a generator):
// servers such as pyright and gopls do not watch the disk themselves but register file watchers
// with the client (workspace/didChangeWatchedFiles). One inotify watch per directory of the
// workspace, skipping dependency, VCS and build trees, bounded; events are batched, and flushed
// before every query so a change made a moment earlier is known to the server when it answers.

/** Directory names never watched: dependencies, VCS data, caches, build output. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  '__pycache__',
  'venv',
  'target',
  'dist',
  'build',
  'out',
]);

export class WorkspaceWatcher implements Disposable {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Map<string, FileEvent['type']>();
  private readonly patterns: RegExp[] = [];
  /** Events still being looked at (a stat in flight); a flush waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;
  private disposed = false;
  /** Set when the directory cap was reached: deeper changes are not reported. */
  capped = false;

  constructor(
    private readonly root: string,
    private readonly send: (changes: FileEvent[]) => void,
  ) {}

  /** Adds the patterns of one registration and starts watching on the first. */
  add(patterns: RegExp[]): void {
    this.patterns.push(...patterns);
    this.started ??= this.watchTree(this.root);
  }

  /** Sends what is pending now (after letting queued fs events in), instead of after the debounce. */
  async flush(): Promise<void> {
    if (!this.started) return;
    await this.started;
    // Two turns of the loop pass through one whole poll phase, where inotify events the kernel
    // has already queued (a write that just returned) reach the callbacks.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all(this.inFlight);
    this.sendPending();
  }

  private async watchTree(dir: string): Promise<void> {
    if (this.disposed || this.watchers.has(dir)) return;
    if (this.watchers.size >= MAX_WATCHED_DIRS) {
      this.capped = true;
      return;
    }
    try {
      const watcher = watch(dir, { persistent: false }, (event, name) => {
        if (!name) return;
        const handled = this.onEvent(join(dir, name.toString()), event).finally(() =>
          this.inFlight.delete(handled),
        );
        this.inFlight.add(handled);
      });
      watcher.on('error', () => this.unwatch(dir));
      this.watchers.set(dir, watcher);
    } catch {
      return; // unreadable or gone: nothing to watch there
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory() && !isSkipped(entry.name))
        await this.watchTree(join(dir, entry.name));
    }
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private async onEvent(path: string, event: string): Promise<void> {
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory()) {
      if (!isSkipped(path.slice(path.lastIndexOf('/') + 1))) await this.watchTree(path);
      return;
    }
    if (!info && this.watchers.has(path)) this.unwatch(path);
    const rel = relative(this.root, path);
    if (!this.patterns.some((p) => p.test(rel))) return;
    const type = !info
      ? FileChangeType.Deleted
      : event === 'rename'
        ? FileChangeType.Created
        : FileChangeType.Changed;
    this.pending.set(path, type);
    this.timer ??= setTimeout(() => this.sendPending(), WATCH_DEBOUNCE_MS);
  }

  private sendPending(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size || this.disposed) return;
    const changes = [...this.pending].map(([path, type]) => ({
      uri: pathToFileURL(path).href,
      type,
    }));
    this.pending.clear();
    this.send(changes);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

function isSkipped(name: string): boolean {
  return name.startsWith('.') || SKIPPED_DIRS.has(name);
}
