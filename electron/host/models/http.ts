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

/** Resolves with a 2xx response whose body is unread; rejects with a ModelError. */
export async function postJson(opts: PostOptions): Promise<Response> {
  const policy = opts.retry ?? DEFAULT_RETRY;
  const payload = JSON.stringify(opts.body);
  for (let attempt = 1; ; attempt++) {
    let err: ModelError;
    try {
      const res = await fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: payload,
        signal: opts.signal,
      });
      if (res.ok) return res;
      const text = await res.text().catch(() => '');
      err = httpModelError(opts.provider, res.status, errorDetail(text), retryAfterMs(res));
    } catch (e) {
      if (opts.signal.aborted) throw new ModelError('aborted', 'stopped');
      err = e instanceof ModelError ? e : networkModelError(opts.provider, opts.url, e);
    }
    if (!err.retryable || attempt >= policy.attempts) throw err;
    const delay = err.retryAfterMs ?? policy.baseDelayMs * 2 ** (attempt - 1);
    if (delay > MODEL_MAX_RETRY_AFTER_MS) throw err;
    opts.onRetry?.(err, attempt, delay);
    await sleep(delay, opts.signal);
  }
}
