import type { ErrorPayload } from '../../../shared/tools/payload';

// Why an LSP call failed, as values the service turns into payloads. Each carries a payload code.

export class LspError extends Error {
  constructor(
    readonly code:
      | 'server_failed'
      | 'server_exited'
      | 'server_gave_up'
      | 'sandbox_unavailable'
      | 'timeout'
      | 'cancelled'
      | 'request_failed',
    message: string,
  ) {
    super(message);
    this.name = 'LspError';
  }
}

/** The server process went away while (or before) the call ran: worth one retry on a restart. */
export function isServerGone(err: unknown): boolean {
  return err instanceof LspError && err.code === 'server_exited';
}

/** Narrows "a value or an error payload" (lookups here return either, never throw). */
export function isRefusal<T extends object>(value: T | ErrorPayload): value is ErrorPayload {
  return 'kind' in value && (value as { kind: unknown }).kind === 'error';
}

/** A server start keeps going for the next caller; this caller just stops waiting. */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new LspError('cancelled', 'cancelled'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new LspError('cancelled', 'cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
