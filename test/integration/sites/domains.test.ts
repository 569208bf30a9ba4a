import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../../helpers/factories.ts';
import { testPowerDns } from '../../helpers/runtime-peers.ts';
import { operationOutcome } from '../../helpers/site-node.ts';
import { accessToken, startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';

/**
 * Custom domains on a real node: verified through a TXT record that a real DNS server (the test
 * PowerDNS) answers, or at once inside a zone the team hosts; then served by the node's edge.
 */
const pdns = testPowerDns();
let site: SiteOnNode;
let externalToken = '';
const external = `ext-${randomBytes(4).toString('hex')}.test`;
const hosted = `own-${randomBytes(4).toString('hex')}.test`;
const zones: Array<{ id: number; token: string }> = [];
const domains = () => `/v1/sites/${site.siteId}/environments/production/domains`;

/** Who answers at the edge for `host`: the site (200, or WordPress sending the visitor to its address) or the edge's default. */
async function servedAt(host: string): Promise<'site' | number> {
  const answer = await site.node.throughEdge('/', { host });
  const home = `http://${site.production.domain}/`;
  return answer.status === 200 || ([301, 302].includes(answer.status) && String(answer.headers.location).startsWith(home)) ? 'site' : answer.status;
}

async function zone(token: string, name: string): Promise<number> {
  const reply = await site.stack.client().post('/v1/dns/zones', { name }, site.bearer(token));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  zones.push({ id: reply.body.data.id, token });
  return reply.body.data.id;
}

beforeAll(async () => {
  site = await startSiteOnNode('domains', {
    env: { POWERDNS_API_URL: pdns.apiUrl, POWERDNS_API_KEY: pdns.apiKey, DOMAIN_VERIFY_RESOLVERS: `127.0.0.1:${pdns.dnsPort}` },
  });
  // another team hosts the external domain's DNS here: for the site's team it is any DNS host
  externalToken = await accessToken(site.stack, await createOwner(site.stack.ctx.db));
  await zone(externalToken, external);
}, 400_000);

afterAll(async () => {
  for (const { id, token } of zones) await site?.stack.client().request('DELETE', `/v1/dns/zones/${id}`, site.bearer(token));
  await site?.stop();
}, 60_000);

describe('custom domains', () => {
  it('verifies a domain by its TXT record, then the edge serves the site there', async () => {
    const name = `www.${external}`;
    const added = await site.stack.client().post(domains(), { name }, site.bearer());
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const domain = added.body.data.domain;
    expect(domain).toMatchObject({ name, status: 'pending', verification: { type: 'TXT', name: `_berth-verify.${name}`, value: expect.stringMatching(/^berth-verify=[0-9a-f]{32}$/) } });
    expect(await servedAt(name)).not.toBe('site');

    const early = await site.stack.client().post(`${domains()}/${domain.id}/verify`, undefined, site.bearer());
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain(`No TXT record "${domain.verification.value}" at _berth-verify.${name}`);

    // the domain's owner publishes the record at their DNS host
    const zoneId = zones[0]!.id;
    const txt = await site.stack.client().post(`/v1/dns/zones/${zoneId}/records`, { name: `_berth-verify.www`, type: 'TXT', ttl: 60, values: ['unrelated', domain.verification.value] }, site.bearer(externalToken));
    expect(txt.status, JSON.stringify(txt.body)).toBe(201);
    const verified = await site.stack.client().post(`${domains()}/${domain.id}/verify`, undefined, site.bearer());
    expect(verified.status, JSON.stringify(verified.body)).toBe(202);
    expect(verified.body.data.domain).toMatchObject({ status: 'verified', verified_by: 'txt' });
    const outcome = await operationOutcome(site.stack, site.token, verified.body.data.operation.id);
    expect(outcome, JSON.stringify(outcome.error)).toMatchObject({ kind: 'environment.domains', status: 'succeeded' });
    expect(outcome.result.hosts).toEqual([site.production.domain, name]);
    expect(await servedAt(name)).toBe('site');
    expect((await site.node.throughEdge(`http://${site.production.domain}/`)).status).toBe(200);
  }, 120_000);

  it('verifies a domain inside a zone the team hosts at once', async () => {
    await zone(site.token, hosted);
    const added = await site.stack.client().post(domains(), { name: hosted }, site.bearer());
    expect(added.status, JSON.stringify(added.body)).toBe(202);
    expect(added.body.data.domain).toMatchObject({ status: 'verified', verified_by: 'hosted_zone' });
    expect((await operationOutcome(site.stack, site.token, added.body.data.operation.id)).status).toBe('succeeded');
    expect(await servedAt(hosted)).toBe('site');
    const listed = await site.stack.client().get(domains(), site.bearer());
    expect(listed.body.data.map((domain: { name: string }) => domain.name)).toEqual([hosted, `www.${external}`]);
  }, 120_000);

  it('makes a verified domain primary: WordPress\'s address moves there everywhere, other domains redirect there, the default address links there', async () => {
    const name = `www.${external}`;
    const listed = (await site.stack.client().get(domains(), site.bearer())).body.data as Array<{ id: number; name: string }>;
    const www = listed.find((domain) => domain.name === name)!;
    const moved = await site.stack.client().request('PUT', `/v1/sites/${site.siteId}/environments/production/primary-domain`, { ...site.bearer(), json: { domain_id: www.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(202);
    expect(moved.body.data.primary).toBe(name);
    const outcome = await operationOutcome(site.stack, site.token, moved.body.data.operation.id);
    expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
    expect(outcome.result.urls).toMatchObject({ from: site.production.domain, to: name });
    expect(await site.node.sql(`SELECT option_value FROM ${site.production.db_name}.wp_options WHERE option_name IN ('home', 'siteurl')`)).toEqual([`http://${name}`, `http://${name}`]);
    const front = await site.node.throughEdge('/', { host: name });
    expect(front.status).toBe(200);
    expect(front.body).toContain(`//${name}/`);
    // the other domain: the edge's redirect, path kept; the default address still answers, its pages linking to the primary
    const other = await site.node.throughEdge('/a/path?x=1', { host: hosted });
    expect([other.status, other.headers.location]).toEqual([301, `http://${name}/a/path?x=1`]);
    const old = await site.node.throughEdge('/', { host: site.production.domain });
    expect(old.status).toBe(200);
    expect(old.body).toContain(`//${name}/`);
    const environment = (await site.stack.client().get(`/v1/sites/${site.siteId}/environments/production`, site.bearer())).body.data;
    expect(environment).toMatchObject({ primary_domain: name, url: `http://${name}/` });
    expect((await site.stack.client().request('PUT', `/v1/sites/${site.siteId}/environments/production/primary-domain`, { ...site.bearer(), json: { domain_id: www.id } })).status).toBe(409);

    // and back to the default address
    const back = await site.stack.client().request('PUT', `/v1/sites/${site.siteId}/environments/production/primary-domain`, { ...site.bearer(), json: { domain_id: null } });
    expect(back.status).toBe(202);
    expect((await operationOutcome(site.stack, site.token, back.body.data.operation.id)).status).toBe('succeeded');
    expect(await site.node.sql(`SELECT option_value FROM ${site.production.db_name}.wp_options WHERE option_name = 'home'`)).toEqual([`http://${site.production.domain}`]);
    expect(await servedAt(name)).toBe('site');
  }, 180_000);

  it('refuses a name attached anywhere already (409), the platform\'s own addresses (422), no host name (422), another team (404)', async () => {
    expect((await site.stack.client().post(domains(), { name: hosted.toUpperCase() }, site.bearer())).status).toBe(409);
    expect((await site.stack.client().post(domains(), { name: site.production.domain }, site.bearer())).status).toBe(422);
    expect((await site.stack.client().post(domains(), { name: 'not a name' }, site.bearer())).status).toBe(422);
    // another environment's default address (or anything under the platform's base domain) is not a custom domain
    expect((await site.stack.client().post(domains(), { name: `production-other.${site.stack.ctx.config.sites.baseDomain}` }, site.bearer())).status).toBe(422);
    expect((await site.stack.client().get(domains(), site.bearer(externalToken))).status).toBe(404);
    expect((await site.stack.client().post(domains(), { name: `x.${external}` }, site.bearer(externalToken))).status).toBe(404);
  });

  it('takes a removed domain off the edge', async () => {
    const listed = (await site.stack.client().get(domains(), site.bearer())).body.data as Array<{ id: number; name: string }>;
    const removed = await site.stack.client().request('DELETE', `${domains()}/${listed.find((domain) => domain.name === hosted)!.id}`, site.bearer());
    expect(removed.status, JSON.stringify(removed.body)).toBe(202);
    expect((await operationOutcome(site.stack, site.token, removed.body.data.operation.id)).status).toBe('succeeded');
    expect(await servedAt(hosted)).not.toBe('site');
    expect(await servedAt(`www.${external}`)).toBe('site');
    const pending = await site.stack.client().post(domains(), { name: `shop.${external}` }, site.bearer());
    expect((await site.stack.client().request('DELETE', `${domains()}/${pending.body.data.domain.id}`, site.bearer())).status).toBe(204);
  }, 120_000);
});
