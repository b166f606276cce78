import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatSshUrl,
  isSshUrl,
  parseSshUrl,
  sshDestinationArgs,
  type SshTarget,
} from '../../../electron/host/remote/ssh-url';

// Remote project URLs (issue #29 part 1): what a user types in the picker, `mewbo projects add`
// or config, to the typed target the ssh transport connects to.

function refusal(url: string): string {
  try {
    parseSshUrl(url);
  } catch (err) {
    expect((err as { code?: string }).code).toBe('invalid_url');
    return (err as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('ssh:// project URLs', () => {
  it('reads user, host, port and path', () => {
    expect(parseSshUrl('ssh://ana@build-box.lab:2222/srv/app')).toEqual({
      user: 'ana',
      host: 'build-box.lab',
      port: 2222,
      path: '/srv/app',
    });
  });

  it('an alias from ~/.ssh/config is a bare host, leaving user and port to ssh', () => {
    expect(parseSshUrl('ssh://gpu/home/ana/model')).toEqual({
      host: 'gpu',
      path: '/home/ana/model',
    });
  });

  it('reads a bracketed IPv6 address and writes it back in brackets', () => {
    const target = parseSshUrl('ssh://[::1]:22/tmp/x');
    expect(target).toEqual({ host: '::1', port: 22, path: '/tmp/x' });
    expect(formatSshUrl(target)).toBe('ssh://[::1]:22/tmp/x');
  });

  it('canonical form: doubled and trailing slashes dropped, spaces percent-encoded', () => {
    const target = parseSshUrl('SSH://box//srv/my%20app/');
    expect(target.path).toBe('/srv/my app');
    expect(formatSshUrl(target)).toBe('ssh://box/srv/my%20app');
  });

  it('tells a URL from a local path', () => {
    expect(isSshUrl('ssh://box/srv')).toBe(true);
    expect(isSshUrl('/home/ana/ssh://x')).toBe(false);
    expect(isSshUrl('box:/srv')).toBe(false);
  });

  it('names what is wrong with a bad URL', () => {
    expect(refusal('sftp://box/srv')).toMatch(/must start with ssh:\/\//);
    expect(refusal('ssh://box')).toMatch(/path is missing/);
    expect(refusal('ssh://box/~/proj')).toMatch(/must be absolute/);
    expect(refusal('ssh:///srv')).toMatch(/host is empty/);
    expect(refusal('ssh://@box/srv')).toMatch(/user before '@' is empty/);
    expect(refusal('ssh://box:/srv')).toMatch(/port after ':' is empty/);
    expect(refusal('ssh://box:ssh/srv')).toMatch(/port 'ssh' is not a number/);
    expect(refusal('ssh://box:70000/srv')).toMatch(/outside 1-65535/);
    expect(refusal('ssh://box:0/srv')).toMatch(/outside 1-65535/);
    expect(refusal('ssh://box/srv/../etc')).toMatch(/'\.\.' segment/);
    expect(refusal('ssh://box/srv?x=1')).toMatch(/query/);
    expect(refusal('ssh://box/my app')).toMatch(/white space/);
    expect(refusal('ssh://box/a%0Ab')).toMatch(/control characters/);
    expect(refusal('ssh://box/a%2Fb')).toMatch(/%2F/);
    expect(refusal('ssh://box/a%zz')).toMatch(/percent-encoding/);
    expect(refusal('ssh://[zz]/a')).toMatch(/not an IPv6 address/);
    expect(refusal('ssh://a;b/srv')).toMatch(/host 'a;b' may only have/);
  });

  it('refuses a host or user ssh would read as an option', () => {
    expect(refusal('ssh://-oProxyCommand=touch%20x/srv')).toMatch(/starts with '-'.*option/);
    expect(refusal('ssh://-oProxyCommand=sh/srv')).toMatch(
      /host '-oProxyCommand=sh' starts with '-'/,
    );
    expect(refusal('ssh://-lroot@box/srv')).toMatch(/user '-lroot' starts with '-'/);
  });

  it('puts the destination after -- on the ssh command line', () => {
    expect(sshDestinationArgs(parseSshUrl('ssh://ana@box:2200/srv'))).toEqual([
      '-p',
      '2200',
      '-l',
      'ana',
      '--',
      'box',
    ]);
    expect(sshDestinationArgs(parseSshUrl('ssh://gpu/srv'))).toEqual(['--', 'gpu']);
  });
});

const nameChar = fc.constantFrom(...'abcXYZ019_.-');
const name = fc
  .array(nameChar, { minLength: 1, maxLength: 12 })
  .map((cs) => cs.join(''))
  .filter((s) => !s.startsWith('-'));
const segment = fc
  .string({ minLength: 1, maxLength: 10, unit: 'grapheme' })
  .filter(
    (s) =>
      !s.includes('/') && ![...s].some((c) => c < ' ' || c === '\x7f') && s !== '.' && s !== '..',
  );
const target: fc.Arbitrary<SshTarget> = fc.record(
  {
    user: name,
    host: fc.oneof(name, fc.ipV6()),
    port: fc.integer({ min: 1, max: 65535 }),
    path: fc.array(segment, { maxLength: 5 }).map((s) => '/' + s.join('/')),
  },
  { requiredKeys: ['host', 'path'] },
);

describe('ssh:// URL properties', () => {
  it('a target written as a URL reads back as the same target', () => {
    fc.assert(
      fc.property(target, (t) => {
        expect(parseSshUrl(formatSshUrl(t))).toEqual(t);
      }),
    );
  });

  it('the canonical URL of any accepted URL is a fixed point', () => {
    const urlish = fc
      .tuple(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }))
      .map(([a, b]) => `ssh://${a}/${b}`);
    fc.assert(
      fc.property(urlish, (url) => {
        let t: SshTarget;
        try {
          t = parseSshUrl(url);
        } catch {
          return;
        }
        expect(formatSshUrl(parseSshUrl(formatSshUrl(t)))).toBe(formatSshUrl(t));
      }),
    );
  });

  it('no input, however hostile, yields a host or user starting with -', () => {
    const hostile = fc
      .tuple(
        fc.constantFrom('', '-', '-o', '-oProxyCommand=', '@-', '-l', '[', '%2D'),
        fc.string({ maxLength: 20 }),
        fc.constantFrom('', '@', ':', '@-', ':-1'),
        fc.string({ maxLength: 20 }),
      )
      .map(([a, b, c, d]) => `ssh://${a}${b}${c}${d}/srv`);
    fc.assert(
      fc.property(hostile, (url) => {
        let t: SshTarget;
        try {
          t = parseSshUrl(url);
        } catch {
          return;
        }
        expect(t.host.startsWith('-')).toBe(false);
        expect(t.user?.startsWith('-') ?? false).toBe(false);
        expect(sshDestinationArgs(t).indexOf('--')).toBe(sshDestinationArgs(t).length - 2);
      }),
      { numRuns: 2000 },
    );
  });
});
