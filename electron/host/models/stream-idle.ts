import { ModelError } from './model-error';

// An SDK's event stream has no idle limit of its own (its timeout ends when the headers arrive):
// a provider that goes silent mid-reply would hang the run. This yields the stream's items and
// fails as a network error, after aborting the request, when nothing comes for `idleMs`.

export async function* idleGuard<T>(
  stream: AsyncIterable<T>,
  idleMs: number,
  provider: string,
  abort: () => void,
): AsyncGenerator<T> {
  const it = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort();
          reject(new ModelError('network', `${provider} sent nothing for ${idleMs / 1000} s`));
        }, idleMs);
      });
      let next: IteratorResult<T>;
      try {
        next = await Promise.race([it.next(), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await it.return?.().catch(() => {});
  }
}
