import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentLayout, nodeLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { EDGE_WORKER_USER, pageCacheDir } from '../../../shared/wordpress/edge-cache.ts';
import { expectV1Error } from '../../helpers/expect-error.ts';
import { addMember } from '../../helpers/team-members.ts';
import { accessTokenOf } from '../../helpers/factories.ts';
import { bearer } from '../../helpers/client.ts';
import { environmentOf } from '../../helpers/site-on-node.ts';
import { execResult, operationSucceeded, type EdgeRequestOptions } from '../../helpers/site-node.ts';
import { startTwoSites, type TwoSites } from '../../helpers/two-sites.ts';

/**
 * The page cache at a real node's edge: two teams' production sites on the same node (cache on by
 * default), requests through the edge as visitors send them, the cache files read inside the edge.
 */
let sites: TwoSites;

beforeAll(async () => {
  sites = await startTwoSites('page-cache');
}, 600_000);

afterAll(async () => {
  await sites?.stop();
}, 60_000);

const get = (domain: string, path = '/', options: EdgeRequestOptions = {}) => sites.node.throughEdge(`http://${domain}${path}`, options);
const xCache = async (domain: string, path = '/', options: EdgeRequestOptions = {}) => {
  const answer = await get(domain, path, options);
  return answer.headers['x-cache'];
};
const cachePath = (who: 'a' | 'b', kind = 'production') => `/v1/sites/${sites[who].id}/environments/${kind}/cache`;
const purge = (who: 'a' | 'b', body: unknown = {}, as: 'a' | 'b' = who) => sites.stack.client().post(`${cachePath(who)}/purge`, body, sites.bearer(as));
const settings = (who: 'a' | 'b', body: unknown, kind = 'production', as: 'a' | 'b' = who) =>
  sites.stack.client().request('PATCH', cachePath(who, kind), { json: body, ...sites.bearer(as) });
const succeeded = (who: 'a' | 'b', reply: { status: number; body: any }) => operationSucceeded(sites.stack, sites.token(who), reply);
/** The cache keys stored in an environment's cache directory, read inside the edge container (as nginx, whose directory it is). */
const keysIn = async (environment: { id: number; node_id: string }) => {
  const dir = pageCacheDir(environmentLayout(environment).key);
  const found = await execResult(
    nodeLayout(environment.node_id).edgeContainer,
    ['sh', '-uc', `find ${dir} -type f ! -name '*.*' -exec grep -a -h -m1 '^KEY: ' {} +`],
    {},
    EDGE_WORKER_USER,
  );
  // grep exits 1 (and says nothing) when no file has a key; an unreadable directory is a failure of the test
  if (found.exit_code !== 0 && !(found.exit_code === 1 && found.stderr === '')) throw new Error(`reading ${dir}: ${found.exit_code} ${found.stderr}`);
  const out = found.stdout;
  return out.split('\n').filter(Boolean);
};

describe('the page cache at the edge', () => {
  it('answers MISS then HIT on the front page of a production site, cached by default', async () => {
    const { a } = sites;
    expect((await sites.stack.client().get(`/v1/sites/${a.id}/environments/production`, sites.bearer('a'))).body.data.page_cache).toEqual({
      enabled: true,
      exclusions: [],
    });
    const first = await get(a.domain);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await get(a.domain);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(first.body);
  });

  it('bypasses the cache for a login cookie, a query string, wp-login.php, a POST and a platform probe, and stores none of them', async () => {
    const { a } = sites;
    await get(a.domain); // cached by now
    expect(await xCache(a.domain, '/', { headers: { cookie: 'wordpress_logged_in_x=someone' } })).toBe('BYPASS');
    expect(await xCache(a.domain, '/?s=hello')).toBe('BYPASS');
    expect(await xCache(a.domain, '/?s=hello')).toBe('BYPASS');
    expect(await xCache(a.domain, '/wp-login.php')).toBe('BYPASS');
    expect(await xCache(a.domain, '/wp-login.php')).toBe('BYPASS');
    expect(await xCache(a.domain, '/', { method: 'POST', form: { x: '1' } })).toBe('BYPASS');
    expect(await xCache(a.domain, '/', { headers: { 'x-berth-probe': '1' } })).toBe('BYPASS');
    const keys = await keysIn(a.environment);
    expect(keys).toContain(`KEY: httpGET${a.domain}/`);
    expect(keys.some((key) => key.includes('?') || key.includes('wp-login') || key.startsWith('KEY: httpPOST'))).toBe(false);
  });

  it('serves the second tenant its own page (MISS) while the first one is HIT, and keeps each cache directory to its own host', async () => {
    const { a, b } = sites;
    await get(a.domain);
    expect(await xCache(a.domain)).toBe('HIT');
    const other = await get(b.domain);
    expect(other.headers['x-cache']).toBe('MISS');
    expect(other.body).toContain('Tenant B');
    expect(other.body).not.toContain('Tenant A');
    expect(await xCache(b.domain)).toBe('HIT');
    const [keysA, keysB] = [await keysIn(a.environment), await keysIn(b.environment)];
    expect(keysA.length).toBeGreaterThan(0);
    expect(keysB.length).toBeGreaterThan(0);
    expect(keysA.every((key) => key.includes(`GET${a.domain}/`) || key.includes(`HEAD${a.domain}/`))).toBe(true);
    expect(keysB.every((key) => key.includes(`GET${b.domain}/`) || key.includes(`HEAD${b.domain}/`))).toBe(true);
  });

  it("purges one environment's pages (MISS again) and leaves the other tenant's HIT; the other team's purge and settings are 404", async () => {
    const { a, b } = sites;
    await get(a.domain);
    await get(b.domain);
    expect([await xCache(a.domain), await xCache(b.domain)]).toEqual(['HIT', 'HIT']);
    expectV1Error(await purge('a', {}, 'b'), 404, 'NOT_FOUND');
    expectV1Error(await settings('a', { enabled: false }, 'production', 'b'), 404, 'NOT_FOUND');
    expect(await xCache(a.domain)).toBe('HIT');

    const outcome = await succeeded('a', await purge('a'));
    expect(outcome.kind).toBe('environment.cache_purge');
    expect(outcome.result).toMatchObject({ paths: 'all' });
    expect(outcome.result.removed).toBeGreaterThan(0);
    expect(await keysIn(a.environment)).toEqual([]);
    expect(await xCache(a.domain)).toBe('MISS');
    expect(await xCache(b.domain)).toBe('HIT');
  });

  it('purges only the paths named, exact or prefix*', async () => {
    const { a } = sites;
    for (const path of ['/', '/wp-links-opml.php']) await get(a.domain, path);
    expect([await xCache(a.domain), await xCache(a.domain, '/wp-links-opml.php')]).toEqual(['HIT', 'HIT']);
    await succeeded('a', await purge('a', { paths: ['/'] }));
    expect([await xCache(a.domain), await xCache(a.domain, '/wp-links-opml.php')]).toEqual(['MISS', 'HIT']);
    await succeeded('a', await purge('a', { paths: ['/wp-links*'] }));
    expect([await xCache(a.domain), await xCache(a.domain, '/wp-links-opml.php')]).toEqual(['HIT', 'MISS']);
  });

  it("honours the environment's exclusions, and sends no X-Cache header once the cache is off", async () => {
    const { a } = sites;
    const excluded = await succeeded('a', await settings('a', { exclusions: ['/wp-links-opml.php'] }));
    expect(excluded.kind).toBe('environment.edge');
    expect(excluded.steps.map((step: { name: string }) => step.name)).toEqual(['urls', 'route', 'verify', 'purge_cache']);
    expect(await xCache(a.domain, '/wp-links-opml.php')).toBe('BYPASS');
    expect(await xCache(a.domain, '/wp-links-opml.php')).toBe('BYPASS');
    expect(await xCache(a.domain)).toBe('MISS');
    expect(await xCache(a.domain)).toBe('HIT');

    await succeeded('a', await settings('a', { enabled: false }));
    const off = await get(a.domain);
    expect(off.status).toBe(200);
    expect(off.headers['x-cache']).toBeUndefined();
    expect((await environmentOf(sites.stack, a.id, 'production')).page_cache).toBe(false);
    // a purge of an environment whose cache is off succeeds without touching the node
    expect((await succeeded('a', await purge('a'))).result).toEqual({ skipped: 'page cache off' });

    await succeeded('a', await settings('a', { enabled: true, exclusions: [] }));
    expect(await xCache(a.domain)).toBe('MISS');
  });

  it('misses after a push onto the environment; staging starts with its cache off; its removal removes its cached pages', async () => {
    const { a } = sites;
    const made = await sites.stack.client().post(`/v1/sites/${a.id}/environments`, { kind: 'staging' }, sites.bearer('a'));
    await succeeded('a', made);
    // a new staging is password-protected: its credentials come once, in the answer that made it
    const credentials = made.body.data.password_protection as { username: string; password: string };
    const staging = await environmentOf(sites.stack, a.id, 'staging');
    const visit = (path = '/') => get(staging.domain, path, { credentials });
    const stagingCache = async () => (await visit()).headers['x-cache'];
    expect(staging.page_cache).toBe(false);
    const uncached = await visit();
    expect(uncached.status).toBe(200);
    expect(uncached.headers['x-cache']).toBeUndefined();
    await succeeded('a', await settings('a', { enabled: true }, 'staging'));
    expect(await stagingCache()).toBe('MISS');
    expect(await stagingCache()).toBe('HIT');
    // the password still stands in front of the cached page
    expect((await get(staging.domain)).status).toBe(401);

    const pushed = await succeeded(
      'a',
      await sites.stack.client().post(`/v1/sites/${a.id}/environments/production/push`, { target: 'staging' }, sites.bearer('a')),
    );
    expect(pushed.steps.map((step: { name: string }) => step.name)).toContain('purge_cache');
    expect(await stagingCache()).toBe('MISS');

    // a removed environment's pages do not stay behind in the edge
    expect(await keysIn(staging)).toContain(`KEY: httpGET${staging.domain}/`);
    await succeeded('a', await sites.stack.client().request('DELETE', `/v1/sites/${a.id}/environments/staging`, sites.bearer('a')));
    expect(await keysIn(staging)).toEqual([]);
  }, 90_000); // three operations one after another: staging made, a push, staging removed

  it('answers 422 for exclusions and paths the edge cannot take, 403 to a viewer, 404 for another team', async () => {
    for (const exclusions of [
      ['shop/'],
      ['/a/../b'],
      ['/a b'],
      ['/a;b'],
      ['/a{b'],
      ['/a$b'],
      ['/a"b'],
      ['/a\\b'],
      [`/${'x'.repeat(200)}`],
      Array.from({ length: 51 }, (_, i) => `/p${i}`),
    ])
      expectV1Error(await settings('a', { exclusions }), 422, 'VALIDATION_ERROR');
    expectV1Error(await settings('a', {}), 422, 'VALIDATION_ERROR');
    for (const paths of [['about'], ['/a/../b'], ['/a\u0001b'], Array.from({ length: 101 }, () => '/')])
      expectV1Error(await purge('a', { paths }), 422, 'VALIDATION_ERROR');

    const viewer = await addMember(sites.stack.ctx.db, sites.owners.a, 'viewer');
    const token = await accessTokenOf(sites.stack.client(), viewer);
    expectV1Error(await sites.stack.client().post(`${cachePath('a')}/purge`, {}, bearer(token)), 403, 'AUTHORIZATION_ERROR', { permission: 'sites:cache' });
    expectV1Error(await sites.stack.client().request('PATCH', cachePath('a'), { json: { enabled: false }, ...bearer(token) }), 403, 'AUTHORIZATION_ERROR', {
      permission: 'sites:update',
    });
    expectV1Error(await sites.stack.client().post(`${cachePath('b')}/purge`, {}, sites.bearer('a')), 404, 'NOT_FOUND');
  });
});
