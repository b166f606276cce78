import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { browserOpener, openableUrl } from '../../../electron/host/system/browser-opener';

// How a sign-in page is opened: $BROWSER first (its %s convention), else the system opener where
// there is a display, else nothing; and only web pages, whatever an authorization server names.

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

/**
 * Whether the browser script has written all its arguments: the shell's `>` makes the file before
 * printf writes to it, so a file that exists may still be empty (a loaded machine caught it so).
 */
const written = (out: string) => existsSync(out) && readFileSync(out, 'utf8').endsWith('\n');

/** A $BROWSER script in a new folder that writes its arguments, one a line, to `out`. */
function recordingBrowser(): { dir: string; script: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mewbo-browser-'));
  const script = join(dir, 'browser.sh');
  const out = join(dir, 'args');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > ${out}\n`);
  chmodSync(script, 0o755);
  return { dir, script, out };
}

describe('browserOpener', () => {
  it('runs $BROWSER with the URL as one argument, where %s is or last', async () => {
    const { dir, script, out } = recordingBrowser();
    const url = 'https://auth.example/authorize?a=1&b=$(touch pwned)';
    await browserOpener({ BROWSER: `${script} --new-tab %s --x` })!.open(url);
    await eventually(() => written(out));
    expect(readFileSync(out, 'utf8').split('\n')).toEqual(['--new-tab', url, '--x', '']);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('has nothing to open with on a machine without $BROWSER or a display', () => {
    expect(browserOpener({ PATH: process.env.PATH }, 'linux')).toBeNull();
  });

  it('opens web pages only: https, or http on this machine', async () => {
    expect(openableUrl('https://auth.example/a')).toBe(true);
    expect(openableUrl('http://127.0.0.1:5/a')).toBe(true);
    expect(openableUrl('http://auth.example/a')).toBe(false);
    expect(openableUrl('file:///etc/passwd')).toBe(false);
    expect(openableUrl('javascript:alert(1)')).toBe(false);
    await expect(browserOpener({ BROWSER: 'true' })!.open('file:///etc/passwd')).rejects.toThrow(
      /refusing to open/,
    );
  });
});

describe('openPrivately: a secret URL through an owner-only page', () => {
  it('gives the browser only the page, which redirects to the URL; the folder and page are owner-only', async () => {
    const { dir, script, out } = recordingBrowser();
    const pages = join(dir, 'pages');
    mkdirSync(pages, { mode: 0o755 });
    const url = 'http://127.0.0.1:5/login?code=SECRET&x="<y>';
    const page = await browserOpener({ BROWSER: script })!.openPrivately(url, pages);
    await eventually(() => written(out));
    expect(readFileSync(out, 'utf8')).toBe(`${pathToFileURL(page).href}\n`);
    expect(readFileSync(out, 'utf8')).not.toContain('SECRET');
    expect(readFileSync(page, 'utf8')).toContain(
      'content="0;url=http://127.0.0.1:5/login?code=SECRET&amp;x=&quot;&lt;y>"',
    );
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(pages).mode & 0o777).toBe(0o700);
  });

  it('refuses a URL that is not a web page of https or this machine, and a folder that is a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mewbo-browser-'));
    const opener = browserOpener({ BROWSER: 'true' })!;
    await expect(
      opener.openPrivately('http://evil.example/login?code=SECRET', join(dir, 'a')),
    ).rejects.toThrow(/refusing to open the page/);
    expect(existsSync(join(dir, 'a'))).toBe(false);
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'));
    await expect(
      opener.openPrivately('http://127.0.0.1:5/login?code=SECRET', join(dir, 'link')),
    ).rejects.toThrow(/not a directory of this user's/);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
  });

  it('opens a folder (a worktree) as its file: URL, and refuses a file or a link to a folder', async () => {
    const { dir, script, out } = recordingBrowser();
    const folder = join(dir, 'work tree');
    mkdirSync(folder);
    const opener = browserOpener({ BROWSER: script })!;
    await opener.openFolder(folder);
    await eventually(() => written(out));
    expect(readFileSync(out, 'utf8')).toBe(`${pathToFileURL(folder).href}\n`);
    writeFileSync(join(dir, 'file'), '');
    symlinkSync(folder, join(dir, 'link'));
    for (const bad of ['file', 'link', 'gone'])
      await expect(opener.openFolder(join(dir, bad))).rejects.toThrow(/is not a folder/);
  });
});
