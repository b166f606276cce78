import {
  ERROR_DETAIL_MAX_CHARS,
  MODEL_BACKOFF_BASE_MS,
  MODEL_MAX_ATTEMPTS,
  MODEL_MAX_RETRY_AFTER_MS,
} from './constants';
import { httpModelError, ModelError, networkModelError } from './model-error';

// POST with bounded retries on 429/5xx and network failures, before any byte of a reply is used:
// once a stream has started, a retry would repeat text the user already saw.

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: MODEL_MAX_ATTEMPTS,
  baseDelayMs: MODEL_BACKOFF_BASE_MS,
};

function retryAfterMs(res: Response): number | undefined {
  const ms = res.headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Number(ms);
  const s = res.headers.get('retry-after');
  if (s === null) return undefined;
  if (Number.isFinite(Number(s))) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The server's own words from an error body: `error.message` of either protocol, or the text. */
export function errorDetail(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const msg = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (msg) return msg.slice(0, ERROR_DETAIL_MAX_CHARS);
  } catch {
    // not JSON: quote the text
  }
  return body.trim().slice(0, ERROR_DETAIL_MAX_CHARS);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ModelError('aborted', 'stopped'));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new ModelError('aborted', 'stopped'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PostOptions {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  retry?: RetryPolicy;
  /** Told before each wait, so the loop can say why nothing is happening. */
  onRetry?(err: ModelError, attempt: number, delayMs: number): void;
}

/**
 * Runs `attempt` until it resolves, retrying retryable ModelErrors with backoff (or the server's
 * Retry-After) up to the policy's bound. `attempt` must resolve once the reply has started and
 * before any of it is used: a retry after that would repeat what the user already saw.
 */
export async function withRetry<T>(
  policy: RetryPolicy | undefined,
  signal: AbortSignal,
  attempt: () => Promise<T>,
  onRetry?: PostOptions['onRetry'],
): Promise<T> {
  const { attempts, baseDelayMs } = policy ?? DEFAULT_RETRY;
  for (let n = 1; ; n++) {
    let err: ModelError;
    try {
      return await attempt();
    } catch (e) {
      if (signal.aborted) throw new ModelError('aborted', 'stopped');
      if (!(e instanceof ModelError)) throw e;
      err = e;
    }
    if (!err.retryable || n >= attempts) throw err;
    const delay = err.retryAfterMs ?? baseDelayMs * 2 ** (n - 1);
    if (delay > MODEL_MAX_RETRY_AFTER_MS) throw err;
    onRetry?.(err, n, delay);
    await sleep(delay, signal);
  }
}

/** Resolves with a 2xx response whose body is unread; rejects with a ModelError. */
export async function postJson(opts: PostOptions): Promise<Response> {
  const payload = JSON.stringify(opts.body);
  return withRetry(
    opts.retry,
    opts.signal,
    async () => {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...opts.headers },
          body: payload,
          signal: opts.signal,
        });
      } catch (e) {
        if (opts.signal.aborted) throw new ModelError('aborted', 'stopped');
        throw networkModelError(opts.provider, opts.url, e);
      }
      if (res.ok) return res;
      const text = await res.text().catch(() => '');
      throw httpModelError(opts.provider, res.status, errorDetail(text), retryAfterMs(res));
    },
    opts.onRetry,
  );
}

/** The shape of an official SDK's API error (Anthropic's and OpenAI's share it). */
interface SdkApiError {
  status?: number;
  headers?: Headers;
  error?: unknown;
  message?: string;
  cause?: unknown;
  name?: string;
}

/**
 * Maps an error thrown by an official SDK to a ModelError, so the loop and the UI see one error
 * type whatever client made the call: an HTTP status goes through httpModelError, a stream-level
 * error event (no status) by its type, anything else is a network failure.
 */
export function sdkModelError(provider: string, url: string, e: unknown, signal: AbortSignal) {
  if (e instanceof ModelError) return e;
  if (signal.aborted) return new ModelError('aborted', 'stopped');
  const err = (e ?? {}) as SdkApiError;
  const body = err.error as { error?: { type?: string; message?: string }; message?: string };
  const detail = body?.error?.message ?? body?.message ?? err.message ?? String(e);
  if (typeof err.status === 'number') {
    const retry = err.headers ? retryAfterMs({ headers: err.headers } as Response) : undefined;
    return httpModelError(provider, err.status, detail.slice(0, ERROR_DETAIL_MAX_CHARS), retry);
  }
  const type = body?.error?.type;
  if (type)
    return new ModelError(
      type === 'overloaded_error' ? 'overloaded' : 'server',
      `${provider} stream error (${type}): ${detail}`,
    );
  if (err.name === 'APIConnectionError' || err.name === 'APIConnectionTimeoutError')
    return networkModelError(provider, url, err.cause ?? e);
  return new ModelError('network', `${provider} stream broke: ${detail}`);
}
