import { PowerDns } from '../../shared/domains/dns/powerdns.ts';
import { freePort } from './free-port.ts';
import { startPebble, type Pebble } from './pebble.ts';
import { testPowerDns } from './runtime-peers.ts';
import { startSiteOnNode, type SiteOnNode } from './site-on-node.ts';

/**
 * A site on a node with HTTPS, a Pebble ACME server validating through the node's edge, and the
 * site's address in a zone of its own on the test PowerDNS (so parallel tests never share one).
 */
export type AcmeSite = { site: SiteOnNode; pebble: Pebble; dns: PowerDns; pdns: ReturnType<typeof testPowerDns>; stop(): Promise<void> };

export async function startAcmeSite(name: string): Promise<AcmeSite> {
  const pdns = testPowerDns();
  const dns = new PowerDns({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost', nameservers: ['ns1.berth.test'] });
  const edgePort = await freePort();
  const pebble = await startPebble({ httpPort: edgePort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
  let site: SiteOnNode | undefined;
  let zone = '';
  try {
    site = await startSiteOnNode(name, {
      https: true,
      edgePort,
      env: {
        ACME_DIRECTORY_URL: pebble.directoryUrl,
        ACME_CA_CERT: pebble.caCertificatePath,
        ACME_EMAIL: 'ops@example.test',
        POWERDNS_API_URL: pdns.apiUrl,
        POWERDNS_API_KEY: pdns.apiKey,
        DOMAIN_VERIFY_RESOLVERS: `127.0.0.1:${pdns.dnsPort}`,
      },
    });
    zone = site.production.domain;
    await dns.createZone(zone);
    await dns.replaceRecordSet(zone, { name: zone, type: 'A', ttl: 60, values: ['127.0.0.1'] });
  } catch (error) {
    if (zone) await dns.deleteZone(zone).catch(() => undefined);
    await site?.stop();
    await pebble.stop();
    throw error;
  }
  const started = site;
  return {
    site: started,
    pebble,
    dns,
    pdns,
    async stop() {
      await dns.deleteZone(zone).catch(() => undefined);
      await started.stop();
      await pebble.stop();
    },
  };
}
