import { spawn } from 'node:child_process';
import { resolveExecutable } from '../lsp/resolve-command';

// Opening a page in the user's browser (an OAuth sign-in): `$BROWSER` when set (the Debian/xdg
// convention: a command, the page's URL appended or put where `%s` is), else the system opener
// (xdg-open where a display is, open on macOS, the URL handler on Windows). The URL is one argv
// element, never a shell string, and only web pages are opened: an authorization server's metadata
// names the URL, and a `file:` or `javascript:` one must not reach the opener.

export interface BrowserOpener {
  /** The command, for messages ("opened with xdg-open"). */
  readonly name: string;
  /** Starts the browser on `url`; resolves once it is spawned (a browser may run for hours). */
  open(url: string): Promise<void>;
}

/** Web pages only: https anywhere, plain http on this machine (a local authorization server). */
export function openableUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return (
    parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)
  );
}

function opener(command: string, args: string[], urlAt: number | null): BrowserOpener {
  return {
    name: command,
    open(url) {
      if (!openableUrl(url))
        return Promise.reject(new Error(`refusing to open ${url}: not an https page`));
      const argv = urlAt === null ? [...args, url] : args.map((a, i) => (i === urlAt ? url : a));
      return new Promise((resolve, reject) => {
        const child = spawn(command, argv, { stdio: 'ignore', detached: true });
        child.once('error', (err) =>
          reject(new Error(`${command} could not start: ${err.message}`)),
        );
        child.once('spawn', () => {
          child.unref();
          resolve();
        });
      });
    },
  };
}

/** Words of a command line, split at blanks; single or double quotes keep a word together. */
function commandWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** `$BROWSER`'s first entry as a command: `%s` marks the URL's place, else it goes last. */
function fromBrowserVariable(value: string): BrowserOpener | null {
  const first = value.split(':').find((part) => part.trim());
  if (!first) return null;
  const [command, ...args] = commandWords(first);
  if (!command) return null;
  const at = args.indexOf('%s');
  return opener(command, args, at < 0 ? null : at);
}

/** How this process can open a page, or null when nothing can (a headless machine, no $BROWSER). */
export function browserOpener(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): BrowserOpener | null {
  if (env.BROWSER?.trim()) return fromBrowserVariable(env.BROWSER);
  const onPath = (program: string) =>
    resolveExecutable(program, '/', { before: [], after: [], path: env.PATH ?? '' });
  if (platform === 'darwin') return onPath('open') ? opener('open', [], null) : null;
  if (platform === 'win32') return opener('rundll32', ['url.dll,FileProtocolHandler'], null);
  // xdg-open without a display falls back to a text browser in this terminal: not a sign-in page.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  const xdg = onPath('xdg-open');
  return xdg ? opener(xdg, [], null) : null;
}
