// VS Code's disposable pattern: every long-lived thing (PTY, child, socket, timer, watcher) is
// registered with exactly one owner, and disposing the owner disposes the tree, newest first.

export interface Disposable {
  dispose(): void | Promise<void>;
}

export function toDisposable(fn: () => void | Promise<void>): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      return fn();
    },
  };
}

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Registers a child; registering into a disposed store disposes the child at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      void item.dispose();
      return item;
    }
    this.items.add(item);
    return item;
  }

  /** Forget a child that disposed itself (a process that exited, a socket that closed). */
  delete(item: Disposable): void {
    this.items.delete(item);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items].reverse();
    this.items.clear();
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        await item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length) throw new AggregateError(errors, `${errors.length} disposables failed`);
  }
}

/** Base class for owners: `this.register(child)` ties a child's lifetime to this object. */
export abstract class DisposableObject implements Disposable {
  protected readonly store = new DisposableStore();

  protected register<T extends Disposable>(item: T): T {
    return this.store.add(item);
  }

  dispose(): void | Promise<void> {
    return this.store.dispose();
  }
}
