import type { RecordSet } from './records.ts';
import { fromZoneContent, toZoneContent } from './records.ts';
import { DnsProviderFailed, DnsZoneExists, type DnsProvider, type ProviderRecordSet } from './provider.ts';

export type PowerDnsSettings = { apiUrl: string; apiKey: string; serverId: string; nameservers: readonly string[]; timeoutMs?: number };

type PdnsRrset = { name: string; type: string; ttl: number; records: Array<{ content: string; disabled: boolean }> };

/**
 * PowerDNS's authoritative server through its HTTP API (`/api/v1/servers/<id>/zones`): a zone is
 * `Native` (served from its database, no transfers), its SOA serial raised on every change
 * (soa_edit_api DEFAULT), its NS records the configured name servers.
 */
export class PowerDns implements DnsProvider {
  readonly name = 'powerdns';
  readonly nameservers: readonly string[];
  private readonly base: string;

  private readonly settings: PowerDnsSettings;

  constructor(settings: PowerDnsSettings) {
    this.settings = settings;
    this.nameservers = settings.nameservers;
    this.base = `${settings.apiUrl.replace(/\/+$/, '')}/api/v1/servers/${encodeURIComponent(settings.serverId)}`;
  }

  async createZone(zone: string): Promise<void> {
    // the SOA names the first name server as the primary (PowerDNS's default names an invalid host)
    const soa = `${this.nameservers[0]}. hostmaster.${zone}. 1 10800 3600 604800 3600`;
    const answer = await this.call('POST', '/zones', {
      name: `${zone}.`,
      kind: 'Native',
      soa_edit_api: 'DEFAULT',
      nameservers: this.nameservers.map((server) => `${server}.`),
      rrsets: [{ name: `${zone}.`, type: 'SOA', ttl: 3600, records: [{ content: soa, disabled: false }] }],
    });
    if (answer.status === 409) throw new DnsZoneExists(`the DNS server already holds a zone ${zone}`);
    await this.expectOk(answer, `creating zone ${zone}`);
  }

  async deleteZone(zone: string): Promise<void> {
    const answer = await this.call('DELETE', `/zones/${zone}.`);
    if (answer.status === 404) return;
    await this.expectOk(answer, `deleting zone ${zone}`);
  }

  async listRecordSets(zone: string): Promise<ProviderRecordSet[]> {
    const answer = await this.call('GET', `/zones/${zone}.`);
    if (answer.status === 404) return [];
    await this.expectOk(answer, `reading zone ${zone}`);
    const body = (await answer.json()) as { rrsets?: PdnsRrset[] };
    return (body.rrsets ?? []).map((set) => ({
      name: set.name.replace(/\.$/, ''),
      type: set.type,
      ttl: set.ttl,
      values: set.records.filter((record) => !record.disabled).map((record) => fromZoneContent(set.type, record.content)),
    }));
  }

  async replaceRecordSet(zone: string, set: RecordSet): Promise<void> {
    const rrset = {
      name: `${set.name}.`,
      type: set.type,
      ttl: set.ttl,
      changetype: 'REPLACE',
      records: set.values.map((value) => ({ content: toZoneContent(set.type, value), disabled: false })),
    };
    await this.expectOk(await this.call('PATCH', `/zones/${zone}.`, { rrsets: [rrset] }), `writing ${set.type} ${set.name}`);
  }

  async deleteRecordSet(zone: string, name: string, type: string): Promise<void> {
    const answer = await this.call('PATCH', `/zones/${zone}.`, { rrsets: [{ name: `${name}.`, type, changetype: 'DELETE' }] });
    if (answer.status === 404) return;
    await this.expectOk(answer, `deleting ${type} ${name}`);
  }

  private async call(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.base}${path}`, {
        method,
        headers: { 'X-API-Key': this.settings.apiKey, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 10_000),
      });
    } catch (error) {
      // the API's address stays out of it: this message reaches the team
      throw new DnsProviderFailed(`the DNS server did not answer: ${(error as Error).message}`);
    }
  }

  /** A 2xx, or a DnsProviderFailed with PowerDNS's own error text. */
  private async expectOk(answer: Response, what: string): Promise<void> {
    if (answer.ok) return;
    const text = await answer.text().catch(() => '');
    let said = text.slice(0, 300);
    try {
      said = (JSON.parse(text) as { error?: string }).error ?? said;
    } catch {
      // not JSON: the text as it is
    }
    throw new DnsProviderFailed(`the DNS server refused ${what} (${answer.status}): ${said}`);
  }
}
