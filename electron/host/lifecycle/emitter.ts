import { toDisposable, type Disposable } from './disposable';

export type Event<T> = (listener: (value: T) => void) => Disposable;

/** A typed event source (VS Code's Emitter): `onDidX` instead of string names on a shared bus. */
export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => {
      this.listeners.delete(listener);
    });
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        // A broken listener must not starve the others (or the emitter's owner).
        console.error('listener failed', err);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
