import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go: loopback, private, link-local (cloud metadata at 169.254.169.254),
 * carrier-grade NAT, documentation, benchmark, multicast and reserved ranges, in IPv4 and IPv6, and
 * IPv6 forms that embed an IPv4 address. Otherwise a team could make Berth's workers call its own
 * internal services (SSRF).
 */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible or 6to4 IPv6 address, if it has one. */
function embeddedIpv4(address: string): string | null {
  const mapped = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[2]!;
  const groups = expandIpv6(address);
  if (!groups) return null;
  const hexPair = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0)) return hexPair(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return hexPair(groups[1]!, groups[2]!);
  return null;
}

function expandIpv6(address: string): number[] | null {
  if (address.includes('.')) return null;
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16));
}

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: never a target
  const v4 = embeddedIpv4(address);
  return internal.check(address, 'ipv6') || (v4 !== null && internal.check(v4, 'ipv4'));
}

export class InternalTarget extends Error {}

/** The host of a URL as an address, without IPv6 brackets; null for a name. */
export function literalAddressOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * A `dns.lookup` for http.request that refuses internal addresses: the check happens at connect
 * time, on the very addresses connected to, so a name that resolves elsewhere by then (DNS
 * rebinding) is caught too. A name with any internal address is refused whole.
 */
export function guardedLookup(
  hostname: string,
  options: object,
  callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    // which address it was stays unsaid: the answer would map the platform's internal network for a tenant
    if (addresses.some((entry) => isInternalAddress(entry.address))) return callback(new InternalTarget(`${hostname} resolves to an internal address`), '');
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** Resolves a name the way a delivery would and says why it may not be a target, or null when it may. */
export async function internalTargetReason(url: URL): Promise<string | null> {
  const literal = literalAddressOf(url);
  if (literal !== null) return isInternalAddress(literal) ? `${literal} is an internal address` : null;
  return new Promise((resolve) => {
    guardedLookup(url.hostname, {}, (error) => {
      if (error instanceof InternalTarget) return resolve(error.message);
      resolve(null); // a name that does not resolve yet is not refused: its deliveries fail until it does
    });
  });
}
