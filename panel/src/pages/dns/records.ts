import type { components } from '@berth/sdk';

export type DnsRecordSet = components['schemas']['DnsRecordSet'];
export type RecordType = DnsRecordSet['type'];

export const recordTypes: { value: RecordType; label: string; example: string }[] = [
  { value: 'A', label: 'A (IPv4 address)', example: '192.0.2.10' },
  { value: 'AAAA', label: 'AAAA (IPv6 address)', example: '2001:db8::10' },
  { value: 'CNAME', label: 'CNAME (alias)', example: 'target.example.net' },
  { value: 'MX', label: 'MX (mail)', example: '10 mail.example.com' },
  { value: 'TXT', label: 'TXT (text)', example: 'v=spf1 -all' },
  { value: 'CAA', label: 'CAA (certificate authorities)', example: '0 issue "letsencrypt.org"' },
  { value: 'SRV', label: 'SRV (service)', example: '10 5 5060 sip.example.com' },
];

/** A record's name as people write it in a zone: `@` for the apex, `www` rather than `www.example.com`. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@';
  return name.endsWith(`.${zone}`) ? name.slice(0, -(zone.length + 1)) : name;
}

/** One value a line; blank lines dropped. */
export function valuesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
