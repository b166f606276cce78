import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

// An OAuth failure in words a user can act on. The SDK's errors say what broke but not where: a
// schema error from malformed metadata, an authorization server's bare error code, a redirect it
// would not follow. Each is named here with the request it happened at (method, URL without its
// query, status), so a row in Settings says which server sent what.

export interface OAuthRequestSeen {
  method: string;
  url: string;
  status: number;
}

interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

function schemaIssues(err: unknown): SchemaIssue[] | null {
  if (!(err instanceof Error) || err.name !== 'ZodError') return null;
  const issues = (err as Error & { issues?: SchemaIssue[] }).issues;
  return Array.isArray(issues) ? issues : null;
}

/** `plain` is how the caller words an error of any other kind (a refused connection...). */
/** The SDK's refusal to present a client or token bound to one authorization server to another. */
const BOUND_ELSEWHERE =
  /bound to authorization server (\S+) and is not presented to (\S+?)\.(?:\s|$)/;

/** Whether the server moved to another authorization server than the sign-in was made with. */
export function movedAuthorizationServer(err: unknown): boolean {
  return err instanceof Error && BOUND_ELSEWHERE.test(err.message);
}

export function describeOAuthFailure(
  err: unknown,
  at: OAuthRequestSeen | null,
  plain: string,
): string {
  const moved = err instanceof Error ? BOUND_ELSEWHERE.exec(err.message) : null;
  if (moved)
    return `the server now names the authorization server ${moved[2]}, not ${moved[1]} that this sign-in was made with; nothing was sent to the new one`;
  const where = at ? `${at.method} ${at.url}` : 'the authorization server';
  const issues = schemaIssues(err);
  if (issues)
    return `${where} answered with malformed OAuth metadata: ${issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
      .join('; ')}`;
  if (err instanceof OAuthError) {
    const code = err.errorCode ?? 'error';
    const text = err.message && err.message !== code ? `: ${err.message}` : '';
    return `${where} refused (${code}${text})${at ? `, HTTP ${at.status}` : ''}`;
  }
  return at && at.status >= 300 ? `${plain} (at ${where}, HTTP ${at.status})` : plain;
}
