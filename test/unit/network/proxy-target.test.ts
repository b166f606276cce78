import { describe, expect, test } from 'vitest';
import { hostKey } from '../../../electron/host/network/host-name';
import {
  hostHeaderMismatch,
  parseAbsoluteTarget,
  parseConnectTarget,
} from '../../../electron/host/network/proxy-target';
import { parseTcpTable } from '../../../electron/host/network/local-sockets';

const connect = (authority: string) => {
  const p = parseConnectTarget(authority);
  return p.ok ? `${hostKey(p.target.host)} ${p.target.port}` : p.message;
};

describe('where a request asks to go', () => {
  test.each([
    ['example.com:443', 'example.com 443'],
    ['EXAMPLE.com.:8443', 'example.com 8443'],
    ['10.0.0.1:22', '10.0.0.1 22'],
    ['[::1]:443', '::1 443'],
    ['[fd00::0001]:80', 'fd00::1 80'],
    ['0x7f.1:80', '127.0.0.1 80'],
  ])('CONNECT %s goes to %s', (authority, expected) => {
    expect(connect(authority)).toBe(expected);
  });

  test.each([
    ['example.com', 'CONNECT needs host:port'],
    ['::1:443', 'CONNECT needs host:port'],
    ['example.com:0', 'is not a port'],
    ['example.com:65536', 'is not a port'],
    ['example.com:+80', 'is not a port'],
    ['exa mple.com:80', 'is not a host name'],
    ['[1.2.3.4]:80', 'is not a host name'],
  ])('CONNECT %s is refused: %s', (authority, why) => {
    expect(connect(authority)).toContain(why);
  });

  test('an absolute URL gives host, port (80 by default) and the path with its query', () => {
    const p = parseAbsoluteTarget('http://Example.com/a/b?c=1');
    expect(p.ok && [hostKey(p.target.host), p.target.port, p.path]).toEqual([
      'example.com',
      80,
      '/a/b?c=1',
    ]);
    const v6 = parseAbsoluteTarget('http://[::1]:3000/');
    expect(v6.ok && [hostKey(v6.target.host), v6.target.port, v6.path]).toEqual(['::1', 3000, '/']);
  });

  test.each([
    ['/index.html', 'send absolute-form requests'],
    ['https://example.com/', 'go through CONNECT'],
    ['ftp://example.com/', 'go through CONNECT'],
    ['http://user:pw@example.com/', 'credentials in the URL'],
    ['http://exa%20mple.com/', 'not a URL'],
  ])('%s is refused: %s', (url, why) => {
    const p = parseAbsoluteTarget(url);
    expect(p.ok ? 'accepted' : p.message).toContain(why);
  });

  test('a CONNECT Host header must name the CONNECT line host (its port, when given, too)', () => {
    const t = parseConnectTarget('allowed.test:443');
    if (!t.ok) throw new Error(t.message);
    expect(hostHeaderMismatch(t.target, undefined)).toBeNull();
    expect(hostHeaderMismatch(t.target, 'allowed.test:443')).toBeNull();
    expect(hostHeaderMismatch(t.target, 'ALLOWED.test')).toBeNull();
    expect(hostHeaderMismatch(t.target, '127.0.0.1:8080')).toContain('names another destination');
    expect(hostHeaderMismatch(t.target, 'allowed.test:80')).toContain('names another destination');
    expect(hostHeaderMismatch(t.target, 'evil.test')).toContain('"evil.test"');
  });
});

describe("the kernel's TCP tables", () => {
  test('addresses, ports, state and inode are read from /proc/net/tcp and tcp6 text', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:D431 0100007F:0BB8 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    expect(parseTcpTable(tcp)).toEqual([
      {
        local: { address: '127.0.0.1', port: 3000 },
        remote: { address: '0.0.0.0', port: 0 },
        state: 10,
        inode: 4242,
      },
      {
        local: { address: '127.0.0.1', port: 54321 },
        remote: { address: '127.0.0.1', port: 3000 },
        state: 1,
        inode: 4343,
      },
    ]);
    const tcp6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 77 1 0000000000000000 100 0 0 10 0',
      '   1: 00000000000000000000000000000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 78 1 0000000000000000 100 0 0 10 0',
    ].join('\n');
    expect(parseTcpTable(tcp6).map((e) => [e.local.address, e.local.port, e.inode])).toEqual([
      ['::1', 8080, 77],
      ['::', 80, 78],
    ]);
  });
});

describe('the edges of what a request line may say', () => {
  test('a port is 1 to 65535 written in at most five digits', () => {
    expect(connect('example.com:1')).toBe('example.com 1');
    expect(connect('example.com:65535')).toBe('example.com 65535');
    expect(connect('example.com:000001')).toBe('"000001" is not a port (1-65535)');
    expect(connect('example.com:65536')).toBe('"65536" is not a port (1-65535)');
  });

  test('a CONNECT authority is one host and one port, nothing after', () => {
    expect(connect('example.com:443:80')).toBe('CONNECT needs host:port, got "example.com:443:80"');
  });

  test('an origin-form request (a path, even one holding a URL) is told to use absolute form', () => {
    expect(parseAbsoluteTarget('/fetch?u=http://example.com/')).toEqual({
      ok: false,
      message:
        'this is an HTTP proxy: send absolute-form requests (http://host/path) or CONNECT host:port',
    });
  });

  test('an unparsable URL is named, cut at 200 characters', () => {
    const url = `http://[${'x'.repeat(300)}/`;
    expect(parseAbsoluteTarget(url)).toEqual({
      ok: false,
      message: `"${url.slice(0, 200)}" is not a URL`,
    });
  });

  test('a user name alone, or a password alone, is a credential and refused', () => {
    for (const url of ['http://user@example.com/', 'http://:secret@example.com/'])
      expect(parseAbsoluteTarget(url)).toEqual({
        ok: false,
        message: 'credentials in the URL are not forwarded; send a header',
      });
  });

  test('a host the URL parser takes but no DNS name can be is refused; so is port 0', () => {
    expect(parseAbsoluteTarget('http://a..b/')).toEqual({
      ok: false,
      message: '"a..b" is not a host name or an IP address',
    });
    expect(parseAbsoluteTarget('http://example.com:0/')).toEqual({
      ok: false,
      message: '"0" is not a port',
    });
  });
});

describe("a CONNECT's Host header", () => {
  const target = (authority: string) => {
    const p = parseConnectTarget(authority);
    if (!p.ok) throw new Error(p.message);
    return p.target;
  };

  test('naming the same host, with or without the port, in brackets for IPv6, padded or not: no objection', () => {
    expect(hostHeaderMismatch(target('example.com:443'), undefined)).toBeNull();
    expect(hostHeaderMismatch(target('example.com:443'), 'example.com')).toBeNull();
    expect(hostHeaderMismatch(target('example.com:443'), ' Example.com:443 ')).toBeNull();
    expect(hostHeaderMismatch(target('[::1]:443'), '[::1]:443')).toBeNull();
    expect(hostHeaderMismatch(target('[::1]:443'), '[0:0::1]')).toBeNull();
  });

  test('anything before or after the host and port is another destination', () => {
    for (const header of [
      'other.test:example.com',
      'example.com:443/evil',
      'example.com:443 x',
      'example.com:444',
      '[::2]:443',
      '',
    ])
      expect(hostHeaderMismatch(target('example.com:443'), header), header).toBe(
        `the Host header "${header}" names another destination than the CONNECT line`,
      );
  });

  test('the header is quoted cut at 200 characters', () => {
    const header = `${'a'.repeat(300)}.test`;
    expect(hostHeaderMismatch(target('example.com:443'), header)).toBe(
      `the Host header "${'a'.repeat(200)}" names another destination than the CONNECT line`,
    );
  });
});
