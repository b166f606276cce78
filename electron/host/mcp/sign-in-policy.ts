import type { BrowserOpener } from '../system/browser-opener';
import { HEADLESS_SIGN_IN_WAIT_MS, SIGN_IN_WAIT_MS } from './constants';
import type { McpServerSpec } from './server-spec';

// What happens when an HTTP server turns out to need the user's sign-in. In the app the server
// waits, shown as such in Settings, until the user presses Sign in; a headless run (`mewbo run`)
// has nobody to press it, so it signs in by itself when it can open a browser, and otherwise says
// which command would, then goes on without that server.

export interface SignInPolicy {
  /** How pages are opened here; null when nothing can open one (no $BROWSER, no display). */
  browser: BrowserOpener | null;
  /** A connection that needs sign-in starts it itself (headless) instead of waiting for the user. */
  auto: boolean;
  /** How long a sign-in waits for the browser to come back. */
  waitMs: number;
  /** A line for the user where they look (a headless run's stderr). */
  notify(line: string): void;
}

/** The app's default: sign in only when the user asks; nothing to print. */
export function userStartedSignIn(browser: BrowserOpener | null): SignInPolicy {
  return { browser, auto: false, waitMs: SIGN_IN_WAIT_MS, notify: () => {} };
}

/** A headless run: sign in by itself when a browser can be opened, saying so on `notify`. */
export function headlessSignIn(
  browser: BrowserOpener | null,
  notify: (line: string) => void,
): SignInPolicy {
  return { browser, auto: true, waitMs: HEADLESS_SIGN_IN_WAIT_MS, notify };
}

/** The terminal command that signs in to this server. */
export function loginCommand(spec: Pick<McpServerSpec, 'name' | 'scope' | 'root'>): string {
  const project = spec.scope === 'project' && spec.root ? ['--project', spec.root] : [];
  return ['mewbo', 'mcp-auth', 'login', spec.name, ...project].map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
