import { describe, expect, it } from 'vitest';
import { rateLimitKeyOf } from '../src/http/client-address.ts';

describe('rateLimitKeyOf: the client a rate limit counts (issue 7, defect 5)', () => {
  it.each([
    ['IPv4 as it is', '203.0.113.7', '203.0.113.7'],
    ['IPv4 loopback', '127.0.0.1', '127.0.0.1'],
    ['IPv6: its /64', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['IPv6 elsewhere in the same /64: the same client', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['IPv6 written with ::', '2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['IPv6 with leading zeros and upper case', '2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['IPv6 zeros inside the prefix', '2001:db8::1', '2001:db8::/64'],
    ['IPv6 whose prefix has a shorter zero run first', '2001:0:0:1:a:b:c:d', '2001:0:0:1::/64'],
    ['IPv6 loopback', '::1', '::/64'],
    ['IPv6 with a zone', 'fe80::1%eth0', 'fe80::/64'],
    ['IPv6 ending in dotted IPv4 (not mapped)', '64:ff9b::198.51.100.1', '64:ff9b::/64'],
    ['IPv4-mapped IPv6, dotted', '::ffff:198.51.100.1', '198.51.100.1'],
    ['IPv4-mapped IPv6, upper case', '::FFFF:198.51.100.1', '198.51.100.1'],
    ['IPv4-mapped IPv6, in hex', '::ffff:c633:6401', '198.51.100.1'],
    ['IPv4-mapped IPv6, written out', '0:0:0:0:0:ffff:c633:6401', '198.51.100.1'],
    ['not an address: as it is', 'unknown', 'unknown'],
    ['empty: as it is', '', ''],
  ])('%s: %s → %s', (_what, ip, key) => {
    expect(rateLimitKeyOf(ip)).toBe(key);
  });

  it('tells two /64 networks apart', () => {
    expect(rateLimitKeyOf('2001:db8:1:2::1')).not.toBe(rateLimitKeyOf('2001:db8:1:3::1'));
  });
});
