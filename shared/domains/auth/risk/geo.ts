/** Where an IP address is, as far as the GeoIP database knows. */
export type GeoLocation = { country: string | null; latitude: number | null; longitude: number | null };

/**
 * Locates the IP the server saw (never the client's own `geo`). Returns null for addresses the
 * database does not know (loopback, private ranges). Owned by the suspicious-login work.
 */
export function locateIp(_ip: string | null): GeoLocation | null {
  return null;
}

/** The network an address belongs to: its /24 for IPv4, its /48 for IPv6. */
export function networkOf(ip: string | null): string | null {
  if (!ip) return null;
  if (ip.includes('.') && !ip.includes(':')) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = expandIpv6(ip);
  return groups ? `${groups.slice(0, 3).join(':')}::/48` : null;
}

function expandIpv6(ip: string): string[] | null {
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return null;
  return [...left, ...Array(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}
