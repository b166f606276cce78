import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { APP_CSP, appResource, isAppUrl, isExternalUrl } from '../../../electron/window/app-origin';

const DIR = '/opt/mewbo/dist/renderer';

describe('the app:// origin', () => {
  it('maps app://mewbo paths to files of the built renderer, unknown routes to index.html', () => {
    expect(appResource('app://mewbo/index.html', DIR)).toEqual({
      ok: true,
      file: join(DIR, 'index.html'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(appResource('app://mewbo/assets/main-abc.js', DIR)).toMatchObject({
      ok: true,
      file: join(DIR, 'assets/main-abc.js'),
    });
    expect(appResource('app://mewbo/', DIR)).toMatchObject({ file: join(DIR, 'index.html') });
    expect(appResource('app://mewbo/sessions/s_1', DIR)).toMatchObject({
      file: join(DIR, 'index.html'),
    });
  });

  it('never names a file outside the renderer, nor answers another host or scheme', () => {
    for (const url of [
      'app://mewbo/../../etc/passwd',
      'app://mewbo/%2e%2e/%2e%2e/etc/passwd',
      'app://mewbo/..%2f..%2fsecrets.json',
    ]) {
      const r = appResource(url, DIR);
      if (r.ok) expect(r.file.startsWith(DIR + '/'), url).toBe(true);
    }
    expect(appResource('app://mewbo/%', DIR)).toEqual({ ok: false, status: 400 });
    expect(appResource('app://mewbo/a%00.js', DIR)).toEqual({ ok: false, status: 400 });
    expect(appResource('app://other/index.html', DIR)).toEqual({ ok: false, status: 403 });
    expect(appResource('file:///etc/passwd', DIR)).toEqual({ ok: false, status: 403 });
    expect(appResource('app://mewbo/x.exe', DIR)).toEqual({ ok: false, status: 404 });
  });

  it('navigation stays in the app; only http(s) and mailto leave it, to the system', () => {
    expect(isAppUrl('app://mewbo/index.html#x')).toBe(true);
    expect(isAppUrl('file:///opt/mewbo/dist/renderer/index.html')).toBe(false);
    expect(isAppUrl('app://mewbo.evil/')).toBe(false);
    expect(isExternalUrl('https://example.com')).toBe(true);
    expect(isExternalUrl('mailto:a@b.c')).toBe(true);
    expect(isExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalUrl('javascript:alert(1)')).toBe(false);
  });

  it('the CSP allows scripts only from the app: no inline, no eval, no remote', () => {
    const script = APP_CSP.split('; ').find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).not.toMatch(/unsafe-eval|\*|http:|https:/);
  });
});
