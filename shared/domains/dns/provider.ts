import { UpstreamFailed } from '../../errors.ts';
import type { RecordSet } from './records.ts';

/** A record set as the provider holds it: any type (SOA and NS included), values in presentation form. */
export type ProviderRecordSet = { name: string; type: string; ttl: number; values: string[] };

/**
 * Where Berth's DNS zones are served from. Zones and record sets only: what the API lets a team
 * change. PowerDNS (powerdns.ts) is the real one; another provider (a registrar's API) implements
 * the same calls. Names are absolute without the trailing dot.
 */
export interface DnsProvider {
  readonly name: string;
  /** The name servers a zone made here is delegated to (what the team sets at its registrar). */
  readonly nameservers: readonly string[];
  /** Makes the zone with its SOA and NS records; a zone already there is a DnsZoneExists. */
  createZone(zone: string): Promise<void>;
  /** Removes the zone and every record in it; a zone already gone is fine. */
  deleteZone(zone: string): Promise<void>;
  /** Every record set of the zone; a missing zone is an empty list. */
  listRecordSets(zone: string): Promise<ProviderRecordSet[]>;
  /** Creates or replaces the record set of `set.name` and `set.type` with exactly these values. */
  replaceRecordSet(zone: string, set: RecordSet): Promise<void>;
  /** Removes the record set of that name and type; one already gone is fine. */
  deleteRecordSet(zone: string, name: string, type: string): Promise<void>;
}

/** The provider refused or did not answer: a 502 on the API, with its words (never its credentials). */
export class DnsProviderFailed extends UpstreamFailed {
  constructor(message: string) {
    super('dns', message);
  }
}

/** The provider already holds a zone of that name (another team's, or one made outside Berth). */
export class DnsZoneExists extends Error {}
