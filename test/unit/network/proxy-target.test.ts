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
