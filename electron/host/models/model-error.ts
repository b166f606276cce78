// Every way a model call fails, as one error type with a code the loop and the UI branch on and a
// message a person can act on. Retry decisions read `retryable`.

export type ModelErrorCode =
  | 'auth' // 401/403: the key is missing, wrong or revoked
  | 'rate_limited' // 429
  | 'overloaded' // 529 and Anthropic's overloaded_error
  | 'server' // 5xx
  | 'context_overflow' // the prompt is larger than the model's window
  | 'bad_request' // 400 for any other reason (a bad model name, a malformed tool schema)
  | 'not_found' // 404: wrong base URL or model
  | 'network' // connection refused, DNS, reset, timeout
  | 'protocol' // the server answered something that is not the protocol
  | 'aborted'; // the user stopped the run

export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly status?: number,
    /** Server-requested wait before a retry (Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return (
      this.code === 'rate_limited' ||
      this.code === 'overloaded' ||
      this.code === 'server' ||
      this.code === 'network'
    );
  }
}

const CONTEXT_OVERFLOW =
  /prompt is too long|context[_ ]length|context window|maximum context|too many tokens|exceeds the (model's )?(context|maximum)|input is too long|request_too_large/i;

/** Maps an HTTP failure to a ModelError; `detail` is the server's own message. */
export function httpModelError(
  provider: string,
  status: number,
  detail: string,
  retryAfterMs?: number,
): ModelError {
  const said = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) {
    return new ModelError(
      'auth',
      `${provider} rejected the API key (HTTP ${status})${said}. Set a valid key in Settings or the environment.`,
      status,
    );
  }
  if (status === 429)
    return new ModelError(
      'rate_limited',
      `${provider} rate limit (HTTP 429)${said}`,
      status,
      retryAfterMs,
    );
  if (status === 529)
    return new ModelError(
      'overloaded',
      `${provider} is overloaded (HTTP 529)${said}`,
      status,
      retryAfterMs,
    );
  if (status === 413 || CONTEXT_OVERFLOW.test(detail)) {
    return new ModelError(
      'context_overflow',
      `the conversation is larger than the model's context window (HTTP ${status})${said}`,
      status,
    );
  }
  if (status === 404)
    return new ModelError(
      'not_found',
      `${provider} answered 404${said}: check the base URL and the model name`,
      status,
    );
  if (status >= 500)
    return new ModelError(
      'server',
      `${provider} server error (HTTP ${status})${said}`,
      status,
      retryAfterMs,
    );
  return new ModelError(
    'bad_request',
    `${provider} refused the request (HTTP ${status})${said}`,
    status,
  );
}

/** fetch() rejects with a TypeError whose `cause` carries the errno: say which. */
export function networkModelError(provider: string, url: string, err: unknown): ModelError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const why = cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
  return new ModelError('network', `cannot reach ${provider} at ${url} (${why})`);
}
