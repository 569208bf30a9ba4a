import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteDomain } from '../../../shared/db/models.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { testPowerDns, wordpressImages } from '../../helpers/runtime-peers.ts';
import { operationOutcome } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { until } from '../../helpers/until.ts';

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
  externalToken = await accessTokenOf(site.stack.client(), await createOwner(site.stack.ctx.db));
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
    expect(domain).toMatchObject({
      name,
      status: 'pending',
      verification: { type: 'TXT', name: `_berth-verify.${name}`, value: expect.stringMatching(/^berth-verify=[0-9a-f]{32}$/) },
    });
    expect(await servedAt(name)).not.toBe('site');

    const early = await site.stack.client().post(`${domains()}/${domain.id}/verify`, undefined, site.bearer());
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain(`No TXT record "${domain.verification.value}" at _berth-verify.${name}`);

    // the domain's owner publishes the record at their DNS host
    const zoneId = zones[0]!.id;
    const txt = await site.stack
      .client()
      .post(
        `/v1/dns/zones/${zoneId}/records`,
        { name: `_berth-verify.www`, type: 'TXT', ttl: 60, values: ['unrelated', domain.verification.value] },
        site.bearer(externalToken),
      );
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

  it("makes a verified domain primary: WordPress's address moves there everywhere, other domains redirect there, the default address links there", async () => {
    const name = `www.${external}`;
    const listed = (await site.stack.client().get(domains(), site.bearer())).body.data as Array<{ id: number; name: string }>;
    const www = listed.find((domain) => domain.name === name)!;
    const moved = await site.stack
      .client()
      .request('PUT', `/v1/sites/${site.siteId}/environments/production/primary-domain`, { ...site.bearer(), json: { domain_id: www.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(202);
    expect(moved.body.data.primary).toBe(name);
    const outcome = await operationOutcome(site.stack, site.token, moved.body.data.operation.id);
    expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
    expect(outcome.result.urls).toMatchObject({ from: site.production.domain, to: name });
    expect(await site.node.sql(`SELECT option_value FROM ${site.production.db_name}.wp_options WHERE option_name IN ('home', 'siteurl')`)).toEqual([
      `http://${name}`,
      `http://${name}`,
    ]);
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
    expect(
      (
        await site.stack
          .client()
          .request('PUT', `/v1/sites/${site.siteId}/environments/production/primary-domain`, { ...site.bearer(), json: { domain_id: www.id } })
      ).status,
    ).toBe(409);

    // and back to the default address
    const back = await site.stack
      .client()
      .request('PUT', `/v1/sites/${site.siteId}/environments/production/primary-domain`, { ...site.bearer(), json: { domain_id: null } });
    expect(back.status).toBe(202);
    expect((await operationOutcome(site.stack, site.token, back.body.data.operation.id)).status).toBe('succeeded');
    expect(await site.node.sql(`SELECT option_value FROM ${site.production.db_name}.wp_options WHERE option_name = 'home'`)).toEqual([
      `http://${site.production.domain}`,
    ]);
    expect(await servedAt(name)).toBe('site');
  }, 180_000);

  it("refuses a name attached anywhere already (409), the platform's own addresses (422), no host name (422), another team (404)", async () => {
    const again = await site.stack.client().post(domains(), { name: hosted.toUpperCase() }, site.bearer());
    expect([again.status, again.body.error.details.reason]).toEqual([409, 'domain_claimed_by_team']);
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

/**
 * Claims of two real teams on one name (issue 19): a pending claim blocks nobody and is never
 * revealed, the first proof wins, a zone delegated here wins at once, and a claim left unproven lapses.
 */
describe('domain claims of two teams', () => {
  let rival: { owner: TestUser; token: string; siteId: number; domain: string };
  const rivalDomains = () => `/v1/sites/${rival.siteId}/environments/production/domains`;
  const client = () => site.stack.client();

  /** What a 409 must not tell: which team, site or environment holds the name. */
  function namesNoRival(message: string): void {
    for (const secret of [rival.owner.teamName, rival.owner.email, rival.domain, `site ${rival.siteId}`, `team ${rival.owner.teamId}`])
      expect(message).not.toContain(secret);
  }

  async function publishTxt(name: string, ...values: string[]): Promise<void> {
    const relative = `_berth-verify.${name}`.slice(0, -`.${external}`.length);
    const written = await client().post(`/v1/dns/zones/${zones[0]!.id}/records`, { name: relative, type: 'TXT', ttl: 60, values }, site.bearer(externalToken));
    expect(written.status, JSON.stringify(written.body)).toBe(201);
  }

  async function statusIn(path: string, token: string, name: string): Promise<string | undefined> {
    const listed = await client().get(path, site.bearer(token));
    expect(listed.status).toBe(200);
    return (listed.body.data as Array<{ name: string; status: string }>).find((domain) => domain.name === name)?.status;
  }

  beforeAll(async () => {
    // a second team with an active site of its own on the same node, made through the API
    const owner = await createOwner(site.stack.ctx.db);
    await site.stack.ctx.db('team_entitlements').insert({ team_id: owner.teamId, plan: 'agency', max_sites: 10, max_disk_bytes: 100 * 1024 ** 3 });
    const token = await accessTokenOf(site.stack.client(), owner);
    const made = await client().post(
      '/v1/sites',
      {
        name: unique('rival'),
        region: site.node.region,
        php_version: wordpressImages().php[0]!.version,
        wordpress: { title: 'Rival', admin_user: 'admin', admin_email: 'rival@example.test' },
      },
      site.bearer(token),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(202);
    expect((await operationOutcome(site.stack, token, made.body.data.operation.id)).status).toBe('succeeded');
    const environment = (await client().get(`/v1/sites/${made.body.data.site.id}/environments/production`, site.bearer(token))).body.data;
    rival = { owner, token, siteId: made.body.data.site.id, domain: environment.domain };
    expect(owner.teamId).not.toBe(site.owner.teamId);
  }, 400_000);

  it("accepts a second team's claim on a name another team holds unverified, answering as if nobody did; the first TXT proof wins and the other claim is superseded", async () => {
    const name = `contested.${external}`;
    const first = await client().post(domains(), { name }, site.bearer());
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // the rival's answer is the same as for a name nobody claimed
    const contested = await client().post(rivalDomains(), { name }, site.bearer(rival.token));
    const uncontested = await client().post(rivalDomains(), { name: `free.${external}` }, site.bearer(rival.token));
    expect([contested.status, uncontested.status]).toEqual([201, 201]);
    expect(Object.keys(contested.body.data.domain).sort()).toEqual(Object.keys(uncontested.body.data.domain).sort());
    expect(contested.body.data.domain).toMatchObject({ name, status: 'pending', verified_by: null, verified_at: null });
    expect(Object.keys(contested.body)).toEqual(Object.keys(uncontested.body));
    expect(contested.body.data.domain.verification.value).not.toBe(first.body.data.domain.verification.value);
    // two live claims of two teams on one name, in the table
    const claims = await SiteDomain.query(site.stack.ctx.db).where({ name }).orderBy('id');
    expect(claims.map((claim) => [claim.team_id, claim.status])).toEqual([
      [site.owner.teamId, 'pending'],
      [rival.owner.teamId, 'pending'],
    ]);
    // a team cannot verify (or see) the other's claim through its own site
    expect((await client().post(`${rivalDomains()}/${first.body.data.domain.id}/verify`, undefined, site.bearer(rival.token))).status).toBe(404);

    // the name's real owner publishes the rival's token: the rival proves control first
    await publishTxt(name, contested.body.data.domain.verification.value);
    const won = await client().post(`${rivalDomains()}/${contested.body.data.domain.id}/verify`, undefined, site.bearer(rival.token));
    expect(won.status, JSON.stringify(won.body)).toBe(202);
    expect(won.body.data.domain).toMatchObject({ status: 'verified', verified_by: 'txt', verify_by: null });
    expect((await operationOutcome(site.stack, rival.token, won.body.data.operation.id)).status).toBe('succeeded');

    // the loser sees why on its own claim, and nothing of who won
    expect(await statusIn(domains(), site.token, name)).toBe('superseded');
    const lost = await client().post(`${domains()}/${first.body.data.domain.id}/verify`, undefined, site.bearer());
    expect([lost.status, lost.body.error.code, lost.body.error.details.reason]).toEqual([409, 'CONFLICT', 'claim_superseded']);
    namesNoRival(lost.body.error.message);
    // a verified claim still holds the name: 409 in neutral words
    const taken = await client().post(domains(), { name }, site.bearer());
    expect([taken.status, taken.body.error.details.reason]).toEqual([409, 'domain_in_use']);
    namesNoRival(taken.body.error.message);
    expect(await SiteDomain.query(site.stack.ctx.db).where({ name, status: 'verified' }).resultSize()).toBe(1);
    // the void claim is removed like a pending one
    expect((await client().request('DELETE', `${domains()}/${first.body.data.domain.id}`, site.bearer())).status).toBe(204);
  }, 120_000);

  it("lets the owner of a zone delegated to Berth's name servers win at once over another team's pending claim", async () => {
    const owned = `rival-${randomBytes(4).toString('hex')}.test`;
    await zone(rival.token, owned);
    const squat = await client().post(domains(), { name: `www.${owned}` }, site.bearer());
    expect([squat.status, squat.body.data.domain.status]).toEqual([201, 'pending']);
    const claimed = await client().post(rivalDomains(), { name: `www.${owned}` }, site.bearer(rival.token));
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(202);
    expect(claimed.body.data.domain).toMatchObject({ status: 'verified', verified_by: 'hosted_zone' });
    expect((await operationOutcome(site.stack, rival.token, claimed.body.data.operation.id)).status).toBe('succeeded');
    expect(await statusIn(domains(), site.token, `www.${owned}`)).toBe('superseded');
    const late = await client().post(`${domains()}/${squat.body.data.domain.id}/verify`, undefined, site.bearer());
    expect([late.status, late.body.error.details.reason]).toEqual([409, 'claim_superseded']);
    namesNoRival(late.body.error.message);
  }, 120_000);

  it('decides two proofs of one name that reach the decision together: one claim verified, the other superseded', async () => {
    const name = `race.${external}`;
    const ours = (await client().post(domains(), { name }, site.bearer())).body.data.domain;
    const theirs = (await client().post(rivalDomains(), { name }, site.bearer(rival.token))).body.data.domain;
    await publishTxt(name, ours.verification.value, theirs.verification.value);
    const db = site.stack.ctx.db;
    const key = `site_domains:${name}`;
    // the barrier: the name's lock held here until both verifications wait on it (seen in pg_locks)
    const waiting = () =>
      db.raw(
        `SELECT count(*)::int AS n FROM pg_locks, (SELECT hashtext(?)::bigint AS k) key
       WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND classid::bigint = (key.k >> 32) & 4294967295 AND objid::bigint = key.k & 4294967295`,
        [key],
      );
    const replies = await db.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [key]);
      const sent = [
        client().post(`${domains()}/${ours.id}/verify`, undefined, site.bearer()),
        client().post(`${rivalDomains()}/${theirs.id}/verify`, undefined, site.bearer(rival.token)),
      ];
      await until(async () => (await waiting()).rows[0].n === 2, 'both verifications waiting on the name', 30_000, 50);
      return sent;
    });
    const [a, b] = await Promise.all(replies);
    expect([a!.status, b!.status].sort()).toEqual([202, 409]);
    const loser = a!.status === 409 ? a! : b!;
    expect(loser.body.error.details.reason).toBe('claim_superseded');
    namesNoRival(loser.body.error.message);
    const claims = await SiteDomain.query(db).where({ name }).orderBy('id');
    expect(claims.map((claim) => claim.status).sort()).toEqual(['superseded', 'verified']);
    const winner = a!.status === 202 ? a! : b!;
    expect((await operationOutcome(site.stack, winner === a ? site.token : rival.token, winner.body.data.operation.id)).status).toBe('succeeded');
  }, 120_000);

  it('lapses a pending claim left unverified past its deadline: it cannot be verified even with its record published, and the name can be claimed anew', async () => {
    const name = `late.${external}`;
    const added = await client().post(domains(), { name }, site.bearer());
    expect(added.status).toBe(201);
    const domain = added.body.data.domain;
    const hours = site.stack.ctx.config.domainClaimTtlHours;
    expect(hours).toBe(72);
    expect(Date.parse(domain.verify_by) - Date.parse(domain.created_at)).toBe(hours * 3_600_000);
    await publishTxt(name, domain.verification.value);

    // the claim was made 73 hours ago
    const moved = await site.stack.ctx
      .db('site_domains')
      .where({ id: domain.id })
      .update({
        created_at: site.stack.ctx.db.raw(`created_at - interval '73 hours'`),
        verify_by: site.stack.ctx.db.raw(`verify_by - interval '73 hours'`),
      });
    expect(moved).toBe(1);
    expect(await statusIn(domains(), site.token, name)).toBe('lapsed');
    expect((await SiteDomain.query(site.stack.ctx.db).findById(domain.id))!.status).toBe('lapsed');
    const verify = await client().post(`${domains()}/${domain.id}/verify`, undefined, site.bearer());
    expect([verify.status, verify.body.error.details.reason]).toEqual([409, 'claim_lapsed']);
    expect((await SiteDomain.query(site.stack.ctx.db).findById(domain.id))!.status).toBe('lapsed');

    // another team's claim is accepted, and the team itself claims it anew: its lapsed claim gives way
    expect((await client().post(rivalDomains(), { name }, site.bearer(rival.token))).status).toBe(201);
    const anew = await client().post(domains(), { name }, site.bearer());
    expect(anew.status, JSON.stringify(anew.body)).toBe(201);
    expect(anew.body.data.domain).toMatchObject({ name, status: 'pending' });
    expect(anew.body.data.domain.verification.value).not.toBe(domain.verification.value);
    expect((await SiteDomain.query(site.stack.ctx.db).where({ name, team_id: site.owner.teamId })).map((claim) => claim.id)).toEqual([
      anew.body.data.domain.id,
    ]);
  }, 120_000);
});
