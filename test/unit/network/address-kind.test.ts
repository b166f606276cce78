import { networkInterfaces } from 'node:os';
import { describe, expect, test } from 'vitest';
import { addressClassifier } from '../../../electron/host/network/address-kind';

const kind = addressClassifier();

describe('what an address is', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['::1', 'loopback'],
    ['::', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['::ffff:a01:203', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'not-unicast'],
    ['255.255.255.255', 'not-unicast'],
    ['ff02::1', 'not-unicast'],
    ['192.0.2.10', 'not-unicast'],
    ['64:ff9b::a01:203', 'not-unicast'],
    ['2002:a01:203::1', 'not-unicast'],
    ['::7f00:1', 'not-unicast'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(kind(address)).toBe(expected);
  });

  test("this machine's own interface addresses are loopback: they reach the app's listeners too", () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
      .map((a) => a!.address);
    for (const address of own) expect(kind(address)).toBe('loopback');
  });

  test('a name is not an address', () => {
    expect(() => kind('example.com')).toThrow('not an IP address');
  });
});
