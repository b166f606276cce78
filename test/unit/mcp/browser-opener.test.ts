import { mkdtempSync, readFileSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserOpener, openableUrl } from '../../../electron/host/system/browser-opener';

// How a sign-in page is opened: $BROWSER first (its %s convention), else the system opener where
// there is a display, else nothing; and only web pages, whatever an authorization server names.

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('browserOpener', () => {
  it('runs $BROWSER with the URL as one argument, where %s is or last', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mewbo-browser-'));
    const script = join(dir, 'browser.sh');
    const out = join(dir, 'args');
    writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > ${out}\n`);
    chmodSync(script, 0o755);
    const url = 'https://auth.example/authorize?a=1&b=$(touch pwned)';
    await browserOpener({ BROWSER: `${script} --new-tab %s --x` })!.open(url);
    await eventually(() => existsSync(out));
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
