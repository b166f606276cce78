import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  parseDomainPattern,
  patternCoversAddress,
  patternMatches,
  type DomainPattern,
} from '../../../electron/host/network/domain-pattern';
import {
  hostKey,
  hostText,
  normalizeHost,
  type Host,
} from '../../../electron/host/network/host-name';

const host = (text: string): Host => {
  const h = normalizeHost(text);
  if (!h) throw new Error(`not a host: ${text}`);
  return h;
};
const pattern = (text: string): DomainPattern => {
  const p = parseDomainPattern(text);
  if (!p.ok) throw new Error(p.error);
  return p.pattern;
};
const matches = (p: string, h: string) => patternMatches(pattern(p), host(h));

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
/** A top-level label is not all digits (the URL standard reads such a name as an IPv4 address). */
const tld = fc.stringMatching(/^[a-z][a-z0-9]{1,6}$/);
const name = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([l, t]) => [...l, t].join('.'));
/** The same name as a person might write it: any case, maybe a trailing dot. */
const spelling = (n: string) =>
  fc
    .tuple(fc.array(fc.boolean(), { minLength: n.length, maxLength: n.length }), fc.boolean())
    .map(
      ([upper, dot]) =>
        [...n].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('') + (dot ? '.' : ''),
    );

describe('host names have one spelling', () => {
  test.each([
    ['EXAMPLE.com.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['0x7f.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['[::0001]', '::1'],
    ['::1', '::1'],
    ['[FD00::1]', 'fd00::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
  ])('%s is %s', (raw, key) => {
    expect(hostKey(host(raw))).toBe(key);
  });

  test.each([
    '',
    'a..b',
    '-a.com',
    'a-.com',
    'example.com:443',
    '[1.2.3.4]',
    '1.2.3.4.5',
    '256.1.1.1',
    'a b.com',
    'user@host',
    'host/path',
    'x%2e.com',
    `${'a'.repeat(64)}.com`,
    `${'abcdefghi.'.repeat(26)}com`,
  ])('%j is not a host', (raw) => {
    expect(normalizeHost(raw)).toBeNull();
  });

  test('an IPv6 address is written in brackets where a URL needs them, bare where a rule does', () => {
    expect(hostText(host('fd00::1'))).toBe('[fd00::1]');
    expect(hostKey(host('[fd00::1]'))).toBe('fd00::1');
    expect(hostText(host('10.0.0.1'))).toBe('10.0.0.1');
    expect(hostText(host('Example.org'))).toBe('example.org');
  });
});

describe('destination patterns', () => {
  test('an exact name matches itself in any spelling, and nothing above or below it', () => {
    fc.assert(
      fc.property(name, label, (n, sub) =>
        fc.assert(
          fc.property(spelling(n), spelling(n), (written, asked) => {
            expect(matches(written, asked)).toBe(true);
            expect(matches(written, `${sub}.${n}`)).toBe(false);
            expect(matches(`${sub}.${n}`, n)).toBe(false);
          }),
          { numRuns: 5 },
        ),
      ),
      { numRuns: 50 },
    );
  });

  test('*.base matches every name below base at any depth, never base itself nor a name ending in its letters', () => {
    fc.assert(
      fc.property(
        name,
        fc.array(label, { minLength: 1, maxLength: 3 }),
        label,
        (base, below, glued) => {
          expect(matches(`*.${base}`, `${below.join('.')}.${base}`)).toBe(true);
          expect(matches(`*.${base}`, base)).toBe(false);
          // "evilnpmjs.org" is not below "npmjs.org".
          expect(matches(`*.${base}`, `${glued}${base}`)).toBe(false);
          expect(matches(`*.${base.toUpperCase()}.`, `${below.join('.')}.${base}`)).toBe(true);
        },
      ),
    );
  });

  test('the apex of *.npmjs.org is not matched: list npmjs.org too to allow it', () => {
    expect(matches('*.npmjs.org', 'registry.npmjs.org')).toBe(true);
    expect(matches('*.npmjs.org', 'a.b.npmjs.org')).toBe(true);
    expect(matches('*.npmjs.org', 'npmjs.org')).toBe(false);
    expect(matches('*.npmjs.org', 'evilnpmjs.org')).toBe(false);
    expect(matches('*.npmjs.org', 'npmjs.org.evil.com')).toBe(false);
  });

  test('a name pattern, * included, never matches an IP address', () => {
    fc.assert(
      fc.property(fc.ipV4(), name, (ip, n) => {
        expect(matches('*', ip)).toBe(false);
        expect(matches(n, ip)).toBe(false);
        expect(matches(`*.${n}`, ip)).toBe(false);
        expect(matches('*', n)).toBe(true);
      }),
    );
    expect(matches('*', '::1')).toBe(false);
  });

  test('an address pattern matches that address however either side writes it, and no other', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        expect(matches(a, a)).toBe(true);
        expect(matches(a, b)).toBe(a === b);
        expect(patternCoversAddress(pattern(a), hostKey(host(a)))).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.ipV6(), (a) => {
        expect(matches(a, `[${a}]`)).toBe(true);
        expect(matches(`[${a}]`, a)).toBe(true);
      }),
    );
    expect(matches('127.0.0.1', '0x7f.1')).toBe(true);
    expect(matches('10.0.0.5', 'ten.example')).toBe(false);
    expect(patternCoversAddress(pattern('example.com'), '93.184.216.34')).toBe(false);
    expect(patternCoversAddress(pattern('*'), '10.0.0.1')).toBe(false);
  });

  test.each([
    ['', 'empty destination'],
    ['https://example.com', 'without a scheme'],
    ['example.com:443', 'not a port'],
    ['foo.*.com', 'only allowed as the first label'],
    ['**.com', 'only allowed as the first label'],
    ['*.com', 'two labels or more'],
    ['*.10.0.0.1', 'cannot precede an IP address'],
    ['exa mple.com', 'not a host name'],
  ])('%j is refused, saying %s', (raw, why) => {
    const p = parseDomainPattern(raw);
    expect(p.ok).toBe(false);
    if (!p.ok) {
      expect(p.error).toContain(why);
      expect(p.error).toContain(`"${raw}"`);
    }
  });
});

describe('the edges of a pattern', () => {
  test('spaces around a pattern are not part of it, a wildcard included', () => {
    expect(parseDomainPattern('  example.com ')).toEqual({
      ok: true,
      pattern: { kind: 'exact', name: 'example.com' },
    });
    expect(parseDomainPattern('  *.example.com ')).toEqual({
      ok: true,
      pattern: { kind: 'below', base: 'example.com' },
    });
  });

  test('only a scheme at the start is a scheme; one colon is a port, more are no host', () => {
    expect(parseDomainPattern('a/https://b:1')).toEqual({
      ok: false,
      error: '"a/https://b:1": not a host name or an IP address',
    });
    expect(parseDomainPattern('example.com:443')).toEqual({
      ok: false,
      error: '"example.com:443": a destination names a host, not a port (drop ":port")',
    });
    for (const raw of ['a:b:c', 'example.com::443'])
      expect(parseDomainPattern(raw)).toEqual({
        ok: false,
        error: `"${raw}": not a host name or an IP address`,
      });
  });

  test('an address pattern covers its own address only; a name pattern covers no address', () => {
    const address: DomainPattern = { kind: 'address', address: '10.0.0.5' };
    expect(patternCoversAddress(address, '10.0.0.5')).toBe(true);
    expect(patternCoversAddress(address, '10.0.0.6')).toBe(false);
    expect(patternCoversAddress({ kind: 'exact', name: 'example.com' }, '10.0.0.5')).toBe(false);
    expect(patternCoversAddress({ kind: 'any' }, '10.0.0.5')).toBe(false);
  });
});
