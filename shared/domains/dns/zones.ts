import type { DnsConfig } from '../../config/config.ts';
import type { Db } from '../../db/knex.ts';
import { DnsZone } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { PowerDns } from './powerdns.ts';
import { emitEvent } from '../webhooks/events.ts';
import { DnsZoneExists, type DnsProvider, type ProviderRecordSet } from './provider.ts';
import { nameInZone, RECORD_TYPES, recordSetFrom, zoneName, type RecordSet, type RecordType } from './records.ts';

/** DNS hosting is off (no POWERDNS_API_URL): 409 with `details.reason: dns_not_configured`. */
export class DnsNotConfigured extends Conflict {
  constructor() {
    super('DNS hosting is not configured on this Berth (POWERDNS_API_URL)');
  }
}

/** The provider the configuration names, or null when DNS hosting is off. */
export function dnsProviderOf(config: DnsConfig): DnsProvider | null {
  return config.kind === 'powerdns' ? new PowerDns(config) : null;
}

export function requireProvider(provider: DnsProvider | null): DnsProvider {
  if (!provider) throw new DnsNotConfigured();
  return provider;
}

/**
 * A zone for the team: the row (its name unique across teams) and the zone at the provider, in one
 * transaction: a provider that refuses leaves no row. A name another team holds, or one the
 * provider already serves, is 409.
 */
export async function createZone(
  db: Db,
  provider: DnsProvider,
  actor: { teamId: number; userId: number },
  input: { name: string },
  platform: { baseDomain: string },
): Promise<DnsZone> {
  const name = zoneName(input.name);
  // the platform's own names (every environment's default address, the name servers) are never a team's
  for (const reserved of [platform.baseDomain, ...provider.nameservers.map((server) => server.split('.').slice(1).join('.'))]) {
    if (reserved && (name === reserved || name.endsWith(`.${reserved}`) || reserved.endsWith(`.${name}`))) {
      throw ValidationFailed.field('name', `must not be ${reserved}, inside it or above it: those names are the platform's`);
    }
  }
  return db.transaction(async (trx) => {
    // one name is served from one zone: no zone inside or above another (the servers would answer from either)
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['dns_zones']);
    const overlapping = await DnsZone.query(trx)
      .where((query) => query.where({ name }).orWhereRaw("? LIKE '%.' || name", [name]).orWhereRaw("name LIKE '%.' || ?", [name]))
      .first();
    if (overlapping)
      throw new Conflict(
        overlapping.name === name ? `The zone ${name} is already hosted here` : `The zone ${overlapping.name} is hosted here already, and ${name} overlaps it`,
      );
    const zone = await DnsZone.query(trx)
      .insertAndFetch({ team_id: actor.teamId, name, provider: provider.name, created_by_user_id: actor.userId })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505') throw new Conflict(`The zone ${name} is already hosted here`);
        throw error;
      });
    try {
      await provider.createZone(name);
    } catch (error) {
      if (error instanceof DnsZoneExists) throw new Conflict(`The DNS server already serves a zone ${name}`);
      // it may have made the zone before its answer was lost: without our row, that zone would block every retry
      await provider.deleteZone(name).catch(() => undefined);
      throw error;
    }
    await emitEvent(trx, { teamId: zone.team_id, type: 'dns_zone.created', data: zoneEventData(zone) });
    return zone;
  });
}

export async function listZones(db: Db, teamId: number, page: { page: number; pageSize: number }): Promise<{ rows: DnsZone[]; total: number }> {
  const query = DnsZone.query(db).where({ team_id: teamId });
  const counted = (await query.clone().count({ total: '*' }).first()) as unknown as { total: string };
  const rows = await query
    .orderBy('name')
    .offset((page.page - 1) * page.pageSize)
    .limit(page.pageSize);
  return { rows, total: Number(counted.total) };
}

/** The team's zone by id; another team's, or none, is 404. */
export async function findZone(db: Db, teamId: number, id: number): Promise<DnsZone> {
  const zone = await DnsZone.query(db).findOne({ id, team_id: teamId });
  if (!zone) throw new NotFound('No such DNS zone');
  return zone;
}

/** The zone goes from the provider first (a failure there keeps the row, to try again), then the row. */
export async function deleteZone(db: Db, provider: DnsProvider, zone: DnsZone): Promise<void> {
  await provider.deleteZone(zone.name);
  await db.transaction(async (trx) => {
    await DnsZone.query(trx).deleteById(zone.id);
    await emitEvent(trx, { teamId: zone.team_id, type: 'dns_zone.deleted', data: zoneEventData(zone) });
  });
}

function zoneEventData(zone: DnsZone): { zone: { id: number; name: string } } {
  return { zone: { id: zone.id, name: zone.name } };
}

/** The record sets a team manages: the types of RECORD_TYPES. (SOA and the apex NS are the provider's, listed apart.) */
export async function listRecordSets(provider: DnsProvider, zone: DnsZone): Promise<{ records: RecordSet[]; nameservers: string[] }> {
  const sets = await provider.listRecordSets(zone.name);
  const managed = sets.filter((set): set is ProviderRecordSet & { type: RecordType } => (RECORD_TYPES as readonly string[]).includes(set.type));
  const nameservers = sets.find((set) => set.type === 'NS' && set.name === zone.name)?.values ?? [...provider.nameservers];
  return { records: managed.map(({ name, type, ttl, values }) => ({ name, type, ttl, values })).sort(byNameAndType), nameservers };
}

function byNameAndType(a: RecordSet, b: RecordSet): number {
  return a.name === b.name ? a.type.localeCompare(b.type) : a.name.localeCompare(b.name);
}

/**
 * Writes a record set. `mode: 'create'` refuses one that exists (409); `'replace'` one that does not
 * (404). A CNAME shares its name with no other record, and no record joins a CNAME's name (409).
 */
export async function writeRecordSet(
  db: Db,
  provider: DnsProvider,
  zone: DnsZone,
  input: { name: string; type: RecordType; ttl?: number | undefined; values: string[] },
  mode: 'create' | 'replace',
): Promise<RecordSet> {
  const set = recordSetFrom(zone.name, input);
  const existing = (await provider.listRecordSets(zone.name)).filter((other) => other.name === set.name);
  const same = existing.find((other) => other.type === set.type);
  if (mode === 'create' && same) throw new Conflict(`${set.name} already has ${set.type} records: replace them (PUT) instead`);
  if (mode === 'replace' && !same) throw new NotFound(`${set.name} has no ${set.type} records`);
  const others = existing.filter((other) => other.type !== set.type);
  if (set.type === 'CNAME' && others.length > 0)
    throw new Conflict(`${set.name} has ${others.map((other) => other.type).join(', ')} records: a CNAME must be the only record of its name`);
  if (set.type !== 'CNAME' && others.some((other) => other.type === 'CNAME')) throw new Conflict(`${set.name} is a CNAME: it can hold no other record`);
  await provider.replaceRecordSet(zone.name, set);
  // after the provider took it (the records live there, not in a transaction of ours)
  await emitEvent(db, {
    teamId: zone.team_id,
    type: 'dns_record_set.written',
    data: { ...zoneEventData(zone), record_set: { name: set.name, type: set.type, ttl: set.ttl, values: set.values } },
  });
  return set;
}

/** Removes the record set of `name` (relative, `@`, or absolute in the zone) and `type`; 404 when there is none. */
export async function deleteRecordSet(db: Db, provider: DnsProvider, zone: DnsZone, input: { name: string; type: RecordType }): Promise<void> {
  const name = nameInZone(zone.name, input.name);
  const existing = await provider.listRecordSets(zone.name);
  if (!existing.some((set) => set.name === name && set.type === input.type)) throw new NotFound(`${name} has no ${input.type} records`);
  await provider.deleteRecordSet(zone.name, name, input.type);
  await emitEvent(db, {
    teamId: zone.team_id,
    type: 'dns_record_set.deleted',
    data: { ...zoneEventData(zone), record_set: { name, type: input.type, ttl: null, values: [] } },
  });
}
