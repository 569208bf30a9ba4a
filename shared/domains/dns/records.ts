import { isIPv4, isIPv6 } from 'node:net';
import { ValidationFailed } from '../../errors.ts';

/**
 * DNS names and record sets as the API takes and shows them, and their zone-file form for the
 * provider. A record set is every record of one name and type (what DNS answers at once, with one
 * TTL). Names are absolute, lower-case, without the trailing dot; values are in presentation form
 * (`10 mail.example.com` for MX), host names in them absolute too.
 */
export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export type RecordSet = { name: string; type: RecordType; ttl: number; values: string[] };

export const TTL_MIN = 60;
export const TTL_MAX = 86_400;
export const TTL_DEFAULT = 3600;
/** More records in one set than any resolver answer holds comfortably. */
const VALUES_MAX = 100;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Service labels (`_sip._tcp`, `_dmarc`) and DKIM selectors are names with underscores. */
const SERVICE_LABEL = /^_[a-z0-9-]{1,62}$/;

function hostName(value: string, options: { underscores?: boolean; wildcard?: boolean } = {}): string | null {
  const name = value.trim().toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return null;
  const labels = name.split('.');
  const ok = labels.every(
    (label, index) => LABEL.test(label) || (options.underscores && SERVICE_LABEL.test(label)) || (options.wildcard && index === 0 && label === '*'),
  );
  return ok ? name : null;
}

/** A zone's name: a registrable-looking domain of at least two labels (`example.com`), lower-case, no trailing dot. */
export function zoneName(input: string): string {
  const name = hostName(input);
  if (!name || !name.includes('.')) throw ValidationFailed.field('name', 'must be a domain name of at least two labels, such as example.com');
  return name;
}

/** `@` or '' is the apex; a relative name is put under the zone; an absolute one must be inside it. */
export function nameInZone(zone: string, input: string, field = 'name'): string {
  const raw = input.trim().toLowerCase();
  const absolute = raw === '@' || raw === '' ? zone : raw.endsWith('.') || raw === zone || raw.endsWith(`.${zone}`) ? raw.replace(/\.$/, '') : `${raw}.${zone}`;
  const name = hostName(absolute, { underscores: true, wildcard: true });
  if (!name) throw ValidationFailed.field(field, 'must be a host name (labels of letters, digits and hyphens; `_service` labels; a leading `*`)');
  if (name !== zone && !name.endsWith(`.${zone}`)) throw ValidationFailed.field(field, `must be inside the zone ${zone}`);
  return name;
}

const uint16 = (value: string) => /^\d{1,5}$/.test(value) && Number(value) <= 65_535;

/** One value of a record of `type`, checked and normalised; null when it is not one. */
function recordValue(type: RecordType, input: string): string | null {
  const value = input.trim();
  switch (type) {
    case 'A':
      return isIPv4(value) ? value : null;
    case 'AAAA':
      return isIPv6(value) ? value.toLowerCase() : null;
    case 'CNAME':
      return hostName(value, { underscores: true });
    case 'MX': {
      const [priority = '', exchange = '', ...rest] = value.split(/\s+/);
      const host = hostName(exchange);
      return rest.length === 0 && uint16(priority) && host ? `${Number(priority)} ${host}` : null;
    }
    case 'SRV': {
      const [priority = '', weight = '', port = '', target = '', ...rest] = value.split(/\s+/);
      const host = target === '.' ? '.' : hostName(target);
      return rest.length === 0 && uint16(priority) && uint16(weight) && uint16(port) && host
        ? `${Number(priority)} ${Number(weight)} ${Number(port)} ${host}`
        : null;
    }
    case 'CAA': {
      const match = /^(\d{1,3})\s+([a-z0-9]{1,15})\s+"([^"\\]*)"$/i.exec(value) ?? /^(\d{1,3})\s+([a-z0-9]{1,15})\s+([^"\\\s]+)$/i.exec(value);
      if (!match || Number(match[1]) > 255) return null;
      const tag = match[2]!.toLowerCase();
      if (!['issue', 'issuewild', 'iodef'].includes(tag)) return null;
      return `${Number(match[1])} ${tag} "${match[3]}"`;
    }
    case 'TXT':
      // any text of printable characters (quoting is the zone file's business, done below)
      return value.length > 0 && value.length <= 4000 && /^[\x20-\x7e]*$/.test(value) ? value : null;
  }
}

const EXPECTED: Record<RecordType, string> = {
  A: 'an IPv4 address, such as 192.0.2.10',
  AAAA: 'an IPv6 address, such as 2001:db8::10',
  CNAME: 'a host name, such as target.example.net',
  MX: '"<priority> <host>", such as "10 mail.example.com"',
  TXT: '1 to 4000 printable ASCII characters',
  CAA: '"<flags> issue|issuewild|iodef \\"<value>\\"", such as "0 issue \\"letsencrypt.org\\""',
  SRV: '"<priority> <weight> <port> <host>", such as "10 5 5060 sip.example.com"',
};

/**
 * A record set from the API's input, for the zone `zone`: every problem named by its field
 * (`name`, `ttl`, `values.2`). A CNAME stands alone (one value, not at the apex).
 */
export function recordSetFrom(zone: string, input: { name: string; type: RecordType; ttl?: number | undefined; values: string[] }): RecordSet {
  const problems: Array<{ field: string; message: string }> = [];
  let name = zone;
  try {
    name = nameInZone(zone, input.name);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    problems.push(...error.problems.map((problem) => ({ field: problem.field ?? 'name', message: problem.message })));
  }
  const ttl = input.ttl ?? TTL_DEFAULT;
  if (!Number.isInteger(ttl) || ttl < TTL_MIN || ttl > TTL_MAX)
    problems.push({ field: 'ttl', message: `must be a whole number of seconds from ${TTL_MIN} to ${TTL_MAX}` });
  if (input.values.length === 0 || input.values.length > VALUES_MAX) problems.push({ field: 'values', message: `must hold 1 to ${VALUES_MAX} values` });
  const values: string[] = [];
  input.values.forEach((raw, index) => {
    const value = recordValue(input.type, raw);
    if (value === null) problems.push({ field: `values.${index}`, message: `must be ${EXPECTED[input.type]}` });
    else if (!values.includes(value)) values.push(value);
  });
  if (input.type === 'CNAME') {
    if (name === zone) problems.push({ field: 'name', message: "a CNAME cannot be at the zone's apex (it would hide its SOA and NS records)" });
    if (input.values.length > 1) problems.push({ field: 'values', message: 'a CNAME has exactly one value' });
  }
  if (problems.length > 0) throw new ValidationFailed(problems);
  return { name, type: input.type, ttl, values };
}

/** Into the zone file's form: absolute names end with a dot; a TXT value is quoted, in strings of at most 255 bytes. */
export function toZoneContent(type: RecordType, value: string): string {
  switch (type) {
    case 'CNAME':
      return `${value}.`;
    case 'MX':
    case 'SRV':
      return value === '.' || value.endsWith(' .') ? value : `${value}.`;
    case 'TXT': {
      const chunks = value.match(/[\s\S]{1,255}/g) ?? [''];
      return chunks.map((chunk) => `"${chunk.replace(/[\\"]/g, (character) => `\\${character}`)}"`).join(' ');
    }
    default:
      return value;
  }
}

/** Back from the zone file's form (as the provider lists it). */
export function fromZoneContent(type: string, content: string): string {
  if (type === 'TXT') {
    const strings = [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!.replace(/\\(.)/g, '$1'));
    return strings.length > 0 ? strings.join('') : content;
  }
  if (type === 'CNAME' || type === 'MX' || type === 'SRV' || type === 'NS') return content.replace(/\.$/, '').toLowerCase();
  return content;
}
