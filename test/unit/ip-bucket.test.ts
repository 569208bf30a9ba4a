import { describe, expect, it } from 'vitest';
import { ipBucketOf } from '../../shared/ip-bucket.ts';

describe('ipBucketOf (the subject of every per-IP limit)', () => {
  it('keeps an IPv4 address as its own bucket', () => {
    expect(ipBucketOf('198.51.100.7')).toBe('198.51.100.7');
    expect(ipBucketOf('198.51.100.8')).toBe('198.51.100.8');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, in dotted or hex form', () => {
    expect(ipBucketOf('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(ipBucketOf('::FFFF:1.2.3.4')).toBe('1.2.3.4');
    expect(ipBucketOf('::ffff:0102:0304')).toBe('1.2.3.4');
    expect(ipBucketOf('0:0:0:0:0:ffff:1.2.3.4')).toBe('1.2.3.4');
  });

  it('puts every address of one /64 in one bucket, whatever the form', () => {
    const bucket = '2001:db8:aa:bb::/64';
    for (const ip of [
      '2001:db8:aa:bb::1',
      '2001:db8:aa:bb:ffff:ffff:ffff:ffff',
      '2001:0db8:00aa:00bb:0000:0000:0000:0001',
      '2001:DB8:AA:BB:1:2:3:4',
      '2001:db8:aa:bb:0:0:1.2.3.4',
    ])
      expect(ipBucketOf(ip), ip).toBe(bucket);
    expect(ipBucketOf('2001:db8:aa:bc::1')).toBe('2001:db8:aa:bc::/64');
    expect(ipBucketOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipBucketOf('::1')).toBe('0:0:0:0::/64');
    expect(ipBucketOf('::')).toBe('0:0:0:0::/64');
  });

  it('drops a zone id', () => {
    expect(ipBucketOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ipBucketOf('fe80::abcd:1%25')).toBe('fe80:0:0:0::/64');
  });

  it('never buckets a missing or malformed value with a real address', () => {
    expect(ipBucketOf(null)).toBe('unknown');
    expect(ipBucketOf(undefined)).toBe('unknown');
    expect(ipBucketOf('')).toBe('unknown');
    expect(ipBucketOf('not-an-ip')).toBe('raw:not-an-ip');
    expect(ipBucketOf('2001:db8::1::2')).toBe('raw:2001:db8::1::2');
    expect(ipBucketOf('1.2.3.256')).toBe('raw:1.2.3.256');
  });
});
