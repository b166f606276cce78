import { RpcFailure } from '../transport/transport';

// Errors in words a person understands, with what to do next: never a zod path, a method name
// or a bare error code. One place, so every card, dialog and the message box say it the same way.

/** What to do next, by the host's error code (commands and model failures alike). */
const NEXT_STEP: Record<string, string> = {
  no_model: 'Choose a model in Settings (Ctrl+,) and send again.',
  auth: 'Check the API key in Settings (Ctrl+,), then send again.',
  rate_limited: 'The provider is limiting requests: wait a minute, then send again.',
  overloaded: 'The provider is busy: wait a moment, then send again.',
  server: 'The provider had a problem: send again in a moment.',
  network: 'Check your network and the provider address in Settings, then send again.',
  not_found: 'Check the model name and the provider address in Settings.',
  bad_request: 'Check the model name in Settings; if it is right, start a new session.',
  context_overflow: 'The conversation is too long for the model: start a new session.',
  protocol: 'The provider answered something unexpected: check its address in Settings.',
  provider_unreachable: 'Check the provider address and key in Settings, and your network.',
  step_limit: 'Send a message to let the agent continue.',
  disconnected: 'The app reconnects by itself: try again in a moment.',
  session_not_found: 'It may have been deleted: pick another session or start a new one.',
  internal: 'Try again; if it keeps happening, restart the app.',
};

/** Limits the host enforces on what a person sends, said the way they would meet them. */
function invalidParams(err: RpcFailure): string {
  const issues = err.error.issues ?? [];
  const text = issues.find((i) => i.path === 'text');
  if (text && /too big|<=|at most|too long/i.test(text.message))
    return 'The message is too long to send. Attach long text as a file (paste it: it becomes an attachment).';
  if (text) return 'The message is empty: type something to send.';
  return 'The app could not handle that request. Reload the window and try again.';
}

/** Drops what only a developer can read: `method 'x.y'`, `x.y:` prefixes, "Error:" noise. */
function plain(message: string): string {
  return message
    .replace(/\b(?:unknown )?method '[a-z]+\.[A-Za-z]+'/g, 'that request')
    .replace(/^[a-z]+\.[A-Za-z]+:\s*/, '')
    .replace(/^(?:Error|RpcFailure):\s*/, '')
    .trim();
}

function sentence(s: string): string {
  const t = s.trim();
  if (!t) return t;
  const capital = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** One readable sentence (or two: what happened, what to do) for a failed action. */
export function userError(err: unknown): string {
  if (err instanceof RpcFailure) {
    const { code, message } = err.error;
    if (code === 'invalid_params') return invalidParams(err);
    if (code === 'unknown_method') return 'This version of the app cannot do that yet.';
    const next = NEXT_STEP[code];
    const what = code === 'internal' ? 'Something went wrong in the app' : plain(message);
    return next ? `${sentence(what)} ${next}` : sentence(what);
  }
  const message = err instanceof Error ? err.message : String(err);
  return sentence(plain(message));
}

/** The next step for an error recorded in a session (its `code`), if there is one to suggest. */
export function nextStep(code: string | undefined): string | null {
  return code ? (NEXT_STEP[code] ?? null) : null;
}
