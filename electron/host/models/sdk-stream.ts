import { MODEL_IDLE_TIMEOUT_MS } from './constants';
import { withRetry, type RetryPolicy } from './http';
import { ModelError } from './model-error';
import { idleGuard } from './stream-idle';

// One streamed model call through an official SDK, with what every provider needs around it: the
// run's stop reaching the request (a signal of the call's own, also pulled when the stream goes
// idle), retries only until the reply starts, each event read with a stop check, every failure as
// a ModelError, and a stream that ends without its protocol's end marker failing as a network
// error instead of passing for a short answer.

export interface SdkStreamOptions<T> {
  /** The provider as messages name it ("Anthropic"). */
  provider: string;
  /** The run's stop. */
  signal: AbortSignal;
  retry?: RetryPolicy;
  /** Starts the request with this call's signal; resolves once the reply has started. */
  open(signal: AbortSignal): Promise<AsyncIterable<T>>;
  /** A failure (not already a ModelError, not a stop) as a ModelError. */
  error(e: unknown, phase: 'open' | 'stream'): ModelError;
  /** Reads one event; may throw a ModelError (a stream-level error event). */
  onEvent(event: T): void;
  /** Whether the protocol's end marker came. */
  ended(): boolean;
  /** That marker's name, for the error when it did not. */
  endMarker: string;
}

const stopped = () => new ModelError('aborted', 'stopped');

export async function sdkStream<T>(o: SdkStreamOptions<T>): Promise<void> {
  const local = new AbortController();
  const onAbort = () => local.abort();
  o.signal.addEventListener('abort', onAbort, { once: true });
  const failure = (e: unknown, phase: 'open' | 'stream') =>
    e instanceof ModelError ? e : o.signal.aborted ? stopped() : o.error(e, phase);
  try {
    const stream = await withRetry(o.retry, o.signal, async () => {
      try {
        return await o.open(local.signal);
      } catch (e) {
        throw failure(e, 'open');
      }
    });
    try {
      for await (const event of idleGuard(stream, MODEL_IDLE_TIMEOUT_MS, o.provider, onAbort)) {
        if (o.signal.aborted) throw stopped();
        o.onEvent(event);
      }
    } catch (e) {
      throw failure(e, 'stream');
    }
  } finally {
    o.signal.removeEventListener('abort', onAbort);
  }
  if (o.signal.aborted) throw stopped();
  if (!o.ended())
    throw new ModelError('network', `${o.provider} stream ended before ${o.endMarker}`);
}
