import { isIPv4, isIPv6 } from 'node:net';

/**
 * What a per-IP limit counts a client address against. An IPv4 address is its own bucket; an IPv6
 * address counts against its /64, because one subscriber is routinely given a whole /64 (2^64
 * addresses) and would otherwise get as many buckets. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`,
 * what a dual-stack socket reports) is the IPv4 address. A zone id (`fe80::1%eth0`) is dropped.
 * Anything unparseable counts as itself, so it is never bucketed with a real address.
 */
export function ipBucketOf(ip: string | null | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.trim().replace(/%.*$/, '');
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return `raw:${ip}`;
  const groups = ipv6Groups(address);
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (compressed, or ending in a dotted IPv4). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}
