// Numbers of the model layer, with their reasons.

/** Attempts per model call, the first included: enough to ride out a burst of 429/5xx, bounded. */
export const MODEL_MAX_ATTEMPTS = 4;
/** First backoff; doubles each retry (500 ms, 1 s, 2 s) unless the server says Retry-After. */
export const MODEL_BACKOFF_BASE_MS = 500;
/** A Retry-After longer than this is not waited for: the error is reported instead. */
export const MODEL_MAX_RETRY_AFTER_MS = 60_000;
/** No byte from the server for this long fails the call: a local CPU model can be slow to start. */
export const MODEL_IDLE_TIMEOUT_MS = 300_000;
/** How long the Ollama probe waits: it is on loopback, so anything slower means it is not there. */
export const OLLAMA_PROBE_TIMEOUT_MS = 800;
/** Output tokens asked for per turn (Anthropic requires a value; it is a ceiling, not a target). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 16_384;
/** Characters of an error body quoted in a message. */
export const ERROR_DETAIL_MAX_CHARS = 500;

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_API_VERSION = '2023-06-01';
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Ollama's root: its native API is under /api (a configured trailing /v1 is ignored). */
export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434';

export const DEFAULT_MODELS = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5',
} as const;
/** Prompt-cache breakpoints the Messages API accepts in one request. */
export const ANTHROPIC_MAX_CACHE_BREAKPOINTS = 4;
/**
 * num_ctx taken from a model's /api/show when nothing is configured is capped here: Ollama
 * allocates the whole KV cache up front, and a 128k-token window would not fit most machines.
 * providers.ollama.num_ctx (or model.context_window) asks for more.
 */
export const OLLAMA_AUTO_NUM_CTX_MAX = 32_768;
