import { execFileSync } from 'node:child_process';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowerDns } from '../../../shared/domains/dns/powerdns.ts';
import { startAcmeSite, type AcmeSite } from '../../helpers/acme-site.ts';
import { SCHEDULES_QUEUE } from '../../../shared/jobs/schedule.jobs.ts';
import { operationOutcome } from '../../helpers/site-node.ts';
import type { SiteOnNode } from '../../helpers/site-on-node.ts';
import { until } from '../../helpers/until.ts';

/**
 * A certificate from a real ACME server (Pebble) for a site on a real node: the site's name
 * resolved by the test PowerDNS to the node, HTTP-01 answered by the node's edge, the certificate
 * then served on the edge's HTTPS port.
 */
let acme: AcmeSite;
let site: SiteOnNode;
let dns: PowerDns;
let zone = '';

/** The SHA-256 fingerprint the edge's HTTPS port presents for `host`. */
function presented(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: site.node.edgeHttpsPort!, servername: host, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  acme = await startAcmeSite('acme');
  ({ site, dns } = acme);
  // the site's address, as the CA's resolver sees it: the node (a zone of its own, so parallel tests never share one)
  zone = site.production.domain;
}, 400_000);

afterAll(async () => {
  await acme?.stop();
}, 120_000);

describe('a certificate from an ACME CA', () => {
  it("is issued for the site's address through HTTP-01 on the edge, stored with its key sealed, and served on HTTPS", async () => {
    const reply = await site.stack.client().post(`/v1/sites/${site.siteId}/environments/production/certificate/issue`, undefined, site.bearer());
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    // one order at a time (its operation takes seconds: the edge is checked first)
    const again = await site.stack.client().post(`/v1/sites/${site.siteId}/environments/production/certificate/issue`, undefined, site.bearer());
    expect([again.status, again.body.error?.message]).toEqual([409, expect.stringContaining('being issued')]);
    const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
    expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
    expect(outcome.steps.map((step: { name: string }) => step.name)).toEqual([
      'node_services',
      'account',
      'obtain',
      'files',
      'route',
      'verify_tls',
      'scheme',
      'purge_cache',
    ]);
    expect(outcome.logs.map((entry: { line: string }) => entry.line)).toContain(`${site.production.domain}: HTTP-01 answered through the edge`);

    const certificate = (await site.stack.client().get(`/v1/sites/${site.siteId}/environments/production/certificate`, site.bearer())).body.data;
    expect(certificate).toMatchObject({ source: 'acme', status: 'installed', names: [site.production.domain] });
    expect(certificate.issuer).toMatch(/Pebble/);
    expect(await presented(site.production.domain)).toBe(certificate.fingerprint_sha256);
    // and as openssl's own client sees it
    const seen = execFileSync('sh', [
      '-c',
      `openssl s_client -connect 127.0.0.1:${site.node.edgeHttpsPort} -servername ${site.production.domain} </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256`,
    ]).toString();
    expect(seen.trim().split('=')[1]).toBe(certificate.fingerprint_sha256);
    const row = await site.stack.ctx.db('certificates').where({ id: certificate.id }).first();
    expect(row.key_sealed).not.toContain('PRIVATE KEY');
    // one account for the platform at this CA, registered once (other tests' CAs have their own)
    expect((await site.stack.ctx.db('acme_accounts').where({ directory_url: acme.pebble.directoryUrl }).whereNotNull('account_url')).length).toBe(1);
  }, 180_000);

  it('is renewed by the daily sweep once it expires within 30 days, and only then', async () => {
    const path = `/v1/sites/${site.siteId}/environments/production/certificate`;
    const before = (await site.stack.client().get(path, site.bearer())).body.data;
    const sweep = async () => {
      const job = await site.stack.ctx.queues.get(SCHEDULES_QUEUE).add('certificates.renewal-sweep', {});
      await until(async () => ['completed', 'failed'].includes(await job.getState()), 'the renewal sweep to run', 30_000);
    };
    await sweep();
    expect(await site.stack.ctx.db('operations').where({ kind: 'certificate.issue' }).whereRaw("input->>'renewal' = 'true'")).toEqual([]);

    await site.stack.ctx
      .db('certificates')
      .where({ id: before.id })
      .update({ not_after: new Date(Date.now() + 10 * 86_400_000) });
    await sweep();
    const renewal = await site.stack.ctx.db('operations').where({ kind: 'certificate.issue' }).whereRaw("input->>'renewal' = 'true'").first();
    expect(renewal).toBeDefined();
    const outcome = await operationOutcome(site.stack, site.token, renewal.id);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    const after = (await site.stack.client().get(path, site.bearer())).body.data;
    expect(after).toMatchObject({ source: 'acme', status: 'installed' });
    expect(after.fingerprint_sha256).not.toBe(before.fingerprint_sha256);
    expect(await presented(site.production.domain)).toBe(after.fingerprint_sha256);
  }, 180_000);

  it("proves a domain in a zone the team hosts here by DNS-01, the site's own address by HTTP-01, in one certificate", async () => {
    const shop = `shop-${zone.split('.')[0]!.slice(-10)}.test`;
    const created = await site.stack.client().post('/v1/dns/zones', { name: shop }, site.bearer());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    try {
      const added = await site.stack.client().post(`/v1/sites/${site.siteId}/environments/production/domains`, { name: shop }, site.bearer());
      expect(added.status, JSON.stringify(added.body)).toBe(202);
      expect((await operationOutcome(site.stack, site.token, added.body.data.operation.id)).status).toBe('succeeded');

      const reply = await site.stack.client().post(`/v1/sites/${site.siteId}/environments/production/certificate/issue`, undefined, site.bearer());
      const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
      expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
      const lines = outcome.logs.map((entry: { line: string }) => entry.line);
      expect(lines).toContain(`${shop}: DNS-01 answered in the zone ${shop}`);
      expect(lines).toContain(`${site.production.domain}: HTTP-01 answered through the edge`);
      const certificate = (await site.stack.client().get(`/v1/sites/${site.siteId}/environments/production/certificate`, site.bearer())).body.data;
      expect(certificate.names.sort()).toEqual([site.production.domain, shop].sort());
      // the challenge's TXT record is gone again
      const records = (await site.stack.client().get(`/v1/dns/zones/${created.body.data.id}/records`, site.bearer())).body.data.records;
      expect(records.filter((record: { name: string }) => record.name.startsWith('_acme-challenge'))).toEqual([]);
    } finally {
      await site.stack.client().request('DELETE', `/v1/dns/zones/${created.body.data.id}`, site.bearer());
    }
  }, 180_000);

  it("fails at `obtain` with the CA's problem when it cannot reach the site, and leaves the installed certificate serving", async () => {
    const before = (await site.stack.client().get(`/v1/sites/${site.siteId}/environments/production/certificate`, site.bearer())).body.data;
    await dns.deleteRecordSet(zone, zone, 'A');
    try {
      const reply = await site.stack.client().post(`/v1/sites/${site.siteId}/environments/production/certificate/issue`, undefined, site.bearer());
      const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
      expect(outcome).toMatchObject({ status: 'failed', error: { step: 'obtain' } });
      // the failure's own clean-up (the route written again) talks to the node after the operation is failed: let it finish while the agent runs
      await until(
        async () =>
          (await site.stack.ctx.db('agent_commands').where({ operation_id: outcome.id }).whereIn('status', ['pending', 'delivered'])).length === 0 &&
          (
            await site.stack.ctx
              .db('agent_commands')
              .where({ operation_id: outcome.id, status: 'succeeded' })
              .where('id', 'like', `${outcome.id}:after-failure:%`)
          ).length >= 2,
        "the failed issuance's route to be written again",
        60_000,
      );
      // the CA's own words: it could not resolve the site's name to fetch the challenge (a CA's answer is final: no retries)
      expect(outcome.error.message).toMatch(/the CA did not issue a certificate for .*: .*could not resolve/);
    } finally {
      await dns.replaceRecordSet(zone, { name: zone, type: 'A', ttl: 60, values: ['127.0.0.1'] });
    }
    const after = (await site.stack.client().get(`/v1/sites/${site.siteId}/environments/production/certificate`, site.bearer())).body.data;
    expect(after).toMatchObject({ id: before.id, status: 'installed' });
    expect(await presented(site.production.domain)).toBe(before.fingerprint_sha256);
  }, 180_000);
});
