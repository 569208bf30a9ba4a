import { z } from 'zod';
import type { DnsZone } from '../../shared/db/models.ts';
import { RECORD_TYPES, TTL_DEFAULT, TTL_MAX, TTL_MIN, type RecordSet } from '../../shared/domains/dns/records.ts';

export const dnsDescription =
  "Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. " +
  'Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot ' +
  '(`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in ' +
  'zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, ' +
  'MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, ' +
  'SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the ' +
  "servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS " +
  'hosting is not configured on this Berth.';

export const zoneJson = z
  .object({
    id: z.number().int(),
    name: z.string(),
    nameservers: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'DnsZone' });

export function zoneView(zone: DnsZone, nameservers: readonly string[]): z.infer<typeof zoneJson> {
  return { id: zone.id, name: zone.name, nameservers: [...nameservers], created_at: zone.created_at.toISOString() };
}

export const recordSetJson = z
  .object({
    name: z.string(),
    type: z.enum(RECORD_TYPES),
    ttl: z.number().int(),
    values: z.array(z.string()),
  })
  .meta({ id: 'DnsRecordSet' });

export function recordSetView(set: RecordSet): z.infer<typeof recordSetJson> {
  return { name: set.name, type: set.type, ttl: set.ttl, values: set.values };
}

export const createZoneBody = z.strictObject({
  name: z.string().min(1).max(253).describe('The domain, such as example.com'),
});

const ttl = z.number().int().min(TTL_MIN).max(TTL_MAX).optional().describe(`Seconds (default ${TTL_DEFAULT})`);
const values = z.array(z.string().max(4000)).min(1).max(100);

export const createRecordSetBody = z.strictObject({
  name: z.string().min(1).max(253).describe('Relative to the zone (`www`, `@`) or absolute inside it'),
  type: z.enum(RECORD_TYPES),
  ttl,
  values,
});

export const replaceRecordSetBody = z.strictObject({ ttl, values });

export const recordSetPath = z.object({ name: z.string(), type: z.enum(RECORD_TYPES) });
