// Calls blocked on the user (an approval, a question, a plan), keyed by the id of what they wait
// for. The decision commands resolve them; a stop or a shutdown rejects them through the signal.

interface Pending<T> {
  resolve(value: T): void;
}

export class Waiters<T> {
  private readonly pending = new Map<string, Pending<T>>();

  /** Resolves with the value given to `resolve(id)`; rejects with the signal's reason on abort. */
  wait(id: string, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (value) => {
          signal.removeEventListener('abort', onAbort);
          this.pending.delete(id);
          resolve(value);
        },
      });
    });
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** False when nothing waits for `id` (then the caller handles the decision itself). */
  resolve(id: string, value: T): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.resolve(value);
    return true;
  }

  ids(): string[] {
    return [...this.pending.keys()];
  }
}
