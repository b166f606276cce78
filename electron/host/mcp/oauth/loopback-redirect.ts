import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Disposable } from '../../lifecycle/disposable';

// Where the browser comes back after signing in (RFC 8252 loopback redirect): a listener on
// 127.0.0.1 that takes exactly one request, checks its `state` against the one this sign-in sent,
// answers the browser with a short page and closes. A wrong state (a stale tab, another program
// guessing at the port) ends the sign-in with nothing accepted: a code is only ever taken from the
// redirect this sign-in asked for.

export const REDIRECT_PATH = '/callback';

export interface LoopbackRedirect extends Disposable {
  /** The redirect_uri to register and send: http://127.0.0.1:PORT/callback. */
  readonly redirectUrl: string;
  /** The authorization code from the one request; rejects with what was wrong with it. */
  readonly code: Promise<string>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><p>${escapeHtml(text)}</p>`;
}

/** What one redirect request says: the code, or why it cannot be used. */
function readRedirect(req: IncomingMessage, state: string): { code: string } | { error: string } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET' || url.pathname !== REDIRECT_PATH)
    return {
      error: `the browser came back to ${req.method} ${url.pathname}, not the sign-in page`,
    };
  const q = url.searchParams;
  if (q.get('state') !== state)
    return {
      error:
        'the sign-in redirect carried the wrong state (a stale tab or another program); nothing was accepted, sign in again',
    };
  const refused = q.get('error');
  if (refused) {
    const why = q.get('error_description');
    return { error: `the authorization server refused: ${refused}${why ? ` (${why})` : ''}` };
  }
  const code = q.get('code');
  return code ? { code } : { error: 'the sign-in redirect carried no authorization code' };
}

/**
 * Listens on 127.0.0.1:`port` (0: any free port; a taken port falls back to a free one, so the
 * caller compares `redirectUrl` with the one it asked for).
 */
export async function listenForRedirect(opts: {
  state: string;
  port: number;
  serverName: string;
}): Promise<LoopbackRedirect> {
  let settle!: { resolve(code: string): void; reject(err: Error): void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be waiting yet when it fails (disposed before the page opened).
  code.catch(() => {});
  let taken = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (taken) {
      res.writeHead(410, { Connection: 'close' }).end();
      return;
    }
    taken = true;
    const outcome = readRedirect(req, opts.state);
    const done = () => {
      server.close();
      server.closeAllConnections();
    };
    res.once('finish', done);
    res.writeHead('code' in outcome ? 200 : 400, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    if ('code' in outcome) {
      res.end(
        page('Signed in', `Signed in to MCP server ${opts.serverName}. You can close this tab.`),
      );
      settle.resolve(outcome.code);
    } else {
      res.end(page('Sign-in failed', `Sign-in to ${opts.serverName} failed: ${outcome.error}.`));
      settle.reject(new Error(outcome.error));
    }
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(opts.port);
  } catch (err) {
    if (opts.port === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    await listen(0);
  }
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}${REDIRECT_PATH}`,
    code,
    dispose() {
      if (!taken) settle.reject(new Error('the sign-in was cancelled'));
      taken = true;
      server.close();
      server.closeAllConnections();
    },
  };
}
