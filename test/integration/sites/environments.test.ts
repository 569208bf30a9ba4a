import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, Operation } from '../../../shared/db/models.ts';
import { environmentLayout, nodeLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { wordpressImages } from '../../helpers/runtime-peers.ts';
import { docker, execIn, operationSucceeded, runHelper, siteStackEnv, startSiteNode, type SiteNode } from '../../helpers/site-node.ts';
import { environmentOf } from '../../helpers/site-on-node.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

/**
 * Staging from production, a change pushed back, a clone under its own address with its URLs
 * rewritten (a serialized option still valid), deletion of an environment, and the agent's restart
 * reconciling a node that lost a site's container and route: real agent, podman, WordPress.
 */
const images = wordpressImages();
let stack: Stack;
let node: SiteNode;
let owner: TestUser;
let token = '';

beforeAll(async () => {
  stack = await startStack({ env: siteStackEnv() });
  node = await startSiteNode(stack, 'environments');
  owner = await createOwner(stack.ctx.db);
  await stack.ctx.db('team_entitlements').insert({ team_id: owner.teamId, plan: 'agency', max_sites: 10, max_disk_bytes: 100 * 1024 ** 3 });
  token = await accessTokenOf(stack.client(), owner);
}, 120_000);

afterAll(async () => {
  await node?.remove();
  await stack?.stop();
}, 60_000);

describe('environments, push and clone on a real node', () => {
  const title = `Env Site ${unique('t').slice(-6)}`;
  let siteId = 0;
  let production: Environment;
  let staging: Environment;
  /** The basic-auth credentials staging was made with (shown once, in the answer that made it). */
  let stagingCredentials: { username: string; password: string };
  const serialized = (domain: string) => ({ home: `http://${domain}/`, nested: { links: [`http://${domain}/a`, `https://${domain}/b?x=1`] }, count: 3 });

  it('creates a site whose production holds a serialized option naming its address', async () => {
    const reply = await stack.client().post(
      '/v1/sites',
      {
        name: unique('Env'),
        region: node.region,
        php_version: images.php[0]!.version,
        wordpress: { title, admin_user: 'admin', admin_email: 'admin@example.test' },
      },
      bearer(token),
    );
    await operationSucceeded(stack, token, reply);
    siteId = reply.body.data.site.id;
    production = await environmentOf(stack, siteId, 'production');
    await runHelper(environmentLayout(production).container, 'option-set', { name: 'berth_test_links', value: serialized(production.domain) });
    const raw = await node.sql(`SELECT option_value FROM ${production.db_name}.wp_options WHERE option_name = 'berth_test_links'`);
    expect(raw[0]).toMatch(/^a:3:\{/);

    const inventory = await stack.client().get(`/v1/sites/${siteId}/environments/production/wordpress`, bearer(token));
    expect(inventory.status).toBe(200);
    expect(inventory.body.data).toMatchObject({
      blogname: title,
      php: images.php[0]!.version,
      theme: 'twentytwentyfive',
      plugins: [{ slug: 'akismet', active: false }],
    });
  }, 300_000);

  it('adds staging as a copy of production, under its own address, the serialized option rewritten and still valid', async () => {
    const reply = await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token));
    expect(reply.body.data?.environment).toMatchObject({ kind: 'staging', status: 'creating', password_protection: { enabled: true, username: 'staging' } });
    stagingCredentials = reply.body.data.password_protection;
    const outcome = await operationSucceeded(stack, token, reply);
    expect(outcome.steps.map((step: { name: string }) => step.name)).toEqual([
      'node_services',
      'database',
      'files',
      'copy_files',
      'container',
      'configure',
      'copy_database',
      'rewrite_urls',
      'route',
      'inventory',
      'verify',
      'purge_cache',
    ]);
    staging = await environmentOf(stack, siteId, 'staging');
    expect(staging.domain).toBe(production.domain.replace(/^production-/, 'staging-'));
    expect(staging.status).toBe('active');

    // protected by default: strangers are asked for the password
    expect((await node.throughEdge(`http://${staging.domain}/`)).status).toBe(401);
    const page = await node.throughEdge(`http://${staging.domain}/`, { credentials: stagingCredentials });
    expect(page.status).toBe(200);
    expect(page.body).toContain(title);
    expect(page.body).toContain(`http://${staging.domain}/`);
    expect(page.body).not.toContain(production.domain);
    // unserialized by WordPress (an invalid rewrite would come back as a string, not an array)
    expect((await runHelper(environmentLayout(staging).container, 'option-get', { name: 'berth_test_links' })).value).toEqual(serialized(staging.domain));
    // the plan's memory cap (the default 512 MiB) is the container's cgroup limit
    expect((await docker.getContainer(environmentLayout(staging).container).inspect()).HostConfig.Memory).toBe(512 * 1024 ** 2);
    // staging has its own database and credentials; production is untouched
    expect(staging.db_name).not.toBe(production.db_name);
    expect((await runHelper(environmentLayout(production).container, 'option-get', { name: 'berth_test_links' })).value).toEqual(serialized(production.domain));
    const listed = await stack.client().get(`/v1/sites/${siteId}/environments`, bearer(token));
    expect(listed.body.data.map((environment: { kind: string; status: string }) => `${environment.kind}:${environment.status}`)).toEqual([
      'production:active',
      'staging:active',
    ]);
    expect(listed.body.pagination).toMatchObject({ total: 2 });
  }, 300_000);

  it('refuses what cannot be done: a second staging, pushing nothing or onto itself, production deleted alone, another team', async () => {
    expect((await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token))).status).toBe(409);
    expect((await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'production' }, bearer(token))).status).toBe(422);
    expect((await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'development', source: 'development' }, bearer(token))).status).toBe(422);
    expect(
      (await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production', files: false, database: false }, bearer(token)))
        .status,
    ).toBe(422);
    expect((await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'staging' }, bearer(token))).status).toBe(422);
    expect((await stack.client().post(`/v1/sites/${siteId}/environments/development/push`, { target: 'production' }, bearer(token))).status).toBe(404);
    expect((await stack.client().post(`/v1/sites/${siteId}/environments/nowhere/restart`, undefined, bearer(token))).status).toBe(404);
    expect((await stack.client().request('DELETE', `/v1/sites/${siteId}/environments/production`, bearer(token))).status).toBe(409);
    const stranger = await accessTokenOf(stack.client(), await createOwner(stack.ctx.db));
    for (const reply of [
      await stack.client().get(`/v1/sites/${siteId}/environments`, bearer(stranger)),
      await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production' }, bearer(stranger)),
      await stack.client().post(`/v1/sites/${siteId}/clone`, { name: 'Theirs' }, bearer(stranger)),
    ])
      expect(reply.status).toBe(404);
    expect(await Operation.query(stack.ctx.db).where({ team_id: owner.teamId }).whereIn('status', ['queued', 'running'])).toEqual([]);
  });

  it("pushes a changed post and a new file from staging to production, where they show under production's address", async () => {
    await node.sql(
      `UPDATE ${staging.db_name}.wp_posts SET post_title = 'Staged change', post_content = CONCAT('<a href="http://${staging.domain}/pushed/">pushed link</a> ', post_content) WHERE ID = 1`,
    );
    const uploads = path.join(node.dataDir, environmentLayout(staging).filesDir, 'wp-content', 'uploads');
    fs.mkdirSync(uploads, { recursive: true });
    fs.writeFileSync(path.join(uploads, 'staged.txt'), 'made on staging');
    fs.chownSync(path.join(uploads, 'staged.txt'), 33, 33);
    expect((await node.throughEdge(`http://${production.domain}/`)).body).not.toContain('Staged change');

    const reply = await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production' }, bearer(token));
    expect(reply.body.data?.environment).toMatchObject({ kind: 'production' });
    const outcome = await operationSucceeded(stack, token, reply);
    expect(outcome.kind).toBe('environment.push');
    expect(outcome.target).toEqual({ type: 'environment', id: String(production.id) });

    const page = await node.throughEdge(`http://${production.domain}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Staged change');
    expect(page.body).toContain(`http://${production.domain}/pushed/`);
    expect(page.body).not.toContain(staging.domain);
    expect((await node.throughEdge(`http://${production.domain}/wp-content/uploads/staged.txt`)).body).toBe('made on staging');
    // production kept its own wp-config.php (its database), and the option is production's again
    expect(fs.readFileSync(path.join(node.dataDir, environmentLayout(production).filesDir, 'wp-config.php'), 'utf8')).toContain(production.db_name);
    expect((await runHelper(environmentLayout(production).container, 'option-get', { name: 'berth_test_links' })).value).toEqual(serialized(production.domain));
    // no copy is left half-made in MariaDB
    expect(await node.sql(`SHOW DATABASES LIKE '${production.db_name}\\_%'`)).toEqual([]);
    // production was backed up before anything was pushed onto it
    expect(outcome.steps.map((step: { name: string }) => step.name).slice(0, 2)).toEqual(['safety_repository', 'safety_snapshot']);
    const backups = (await stack.client().get(`/v1/sites/${siteId}/environments/production/backups`, bearer(token))).body.data;
    expect(backups).toEqual([
      expect.objectContaining({ kind: 'pre_push', status: 'succeeded', operation_id: outcome.id, note: 'before the push from staging' }),
    ]);
    expect(backups[0].file_count).toBeGreaterThan(1000);
  }, 300_000);

  it("pushes the files only, leaving the target's database alone", async () => {
    await node.sql(`UPDATE ${staging.db_name}.wp_posts SET post_title = 'Database not pushed' WHERE ID = 1`);
    fs.writeFileSync(path.join(node.dataDir, environmentLayout(staging).filesDir, 'wp-content', 'uploads', 'staged.txt'), 'second version');
    const outcome = await operationSucceeded(
      stack,
      token,
      await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production', database: false }, bearer(token)),
    );
    expect(outcome.result).toMatchObject({ status: 200 });
    expect((await node.throughEdge(`http://${production.domain}/wp-content/uploads/staged.txt`)).body).toBe('second version');
    expect((await node.throughEdge(`http://${production.domain}/`)).body).not.toContain('Database not pushed');
  }, 300_000);

  it('clones the site: its own address and database, its URLs rewritten, the serialized option valid', async () => {
    const slug = `clone-${unique('c').slice(-6)}`;
    const reply = await stack.client().post(`/v1/sites/${siteId}/clone`, { name: 'The Clone', slug }, bearer(token));
    expect(reply.body.data?.site).toMatchObject({ name: 'The Clone', slug, status: 'creating', cloned_from_site_id: siteId });
    const outcome = await operationSucceeded(stack, token, reply);
    expect(outcome.kind).toBe('site.clone');
    const cloneId = reply.body.data.site.id as number;
    const clone = await environmentOf(stack, cloneId, 'production');
    expect(clone.domain).toBe(`production-${slug}.sites.berth.test`);

    const page = await node.throughEdge(`http://${clone.domain}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Staged change');
    expect(page.body).toContain(`http://${clone.domain}/pushed/`);
    expect(page.body).not.toContain(production.domain);
    expect((await runHelper(environmentLayout(clone).container, 'option-get', { name: 'berth_test_links' })).value).toEqual(serialized(clone.domain));
    const shown = await stack.client().get(`/v1/sites/${cloneId}`, bearer(token));
    expect(shown.body.data).toMatchObject({ status: 'active', environments: [{ kind: 'production', status: 'active', wordpress: { blogname: title } }] });
    // the source still serves as before
    expect((await node.throughEdge(`http://${production.domain}/`)).body).toContain(`http://${production.domain}/pushed/`);
  }, 300_000);

  it("keeps each site's php-fpm out of the other sites' reach: no port, a socket only the edge shares", async () => {
    const clone = (await Environment.query(stack.ctx.db).where({ team_id: owner.teamId, kind: 'production' }).whereNot({ site_id: siteId }).first())!;
    const probe = `$s = @fsockopen(getenv('TARGET'), 9000, $errno, $errstr, 2); echo $s ? 'open' : "closed: $errstr";`;
    for (const [from, to] of [
      [clone, production],
      [production, clone],
    ] as const) {
      const answer = await execIn(environmentLayout(from).container, ['php', '-r', probe], { TARGET: environmentLayout(to).container }, 'www-data');
      expect(answer).toMatch(/^closed/);
      expect((await execIn(environmentLayout(from).container, ['ls', '/run/berth'])).trim()).toBe('php-fpm.sock');
    }
    // the edge reaches both through their sockets
    for (const environment of [clone, production]) expect((await node.throughEdge(`http://${environment.domain}/`)).status).toBe(200);
  });

  it("finds MariaDB through /etc/hosts, not the engine's DNS (podman's stalls while other containers come and go)", async () => {
    const mariadb = nodeLayout(node.nodeId).mariadbContainer;
    const address = (await docker.getContainer(mariadb).inspect()).NetworkSettings.Networks[nodeLayout(node.nodeId).network]!.IPAddress;
    const hosts = await execIn(environmentLayout(production).container, ['cat', '/etc/hosts']);
    expect(hosts.split('\n').map((line) => line.trim().split(/\s+/))).toContainEqual([address, mariadb]);
  });

  it("reconciles at the agent's start: a lost container and edge route are made again from the records", async () => {
    const layout = environmentLayout(staging);
    await docker.getContainer(layout.container).remove({ force: true });
    fs.rmSync(path.join(node.dataDir, layout.edgeSiteFile));
    expect((await node.throughEdge(`http://${staging.domain}/`, { credentials: stagingCredentials })).status).not.toBe(200);

    await node.restartAgent();
    const reconcile = await until(
      async () => (await Operation.query(stack.ctx.db).where({ kind: 'node.reconcile', target_id: node.nodeId }).whereIn('status', ['succeeded', 'failed']))[0],
      'the node.reconcile operation to end',
      120_000,
      500,
    );
    expect(reconcile.status, JSON.stringify(reconcile.error)).toBe('succeeded');
    expect(reconcile.result).toMatchObject({ environments: 3, repaired: [`${staging.domain}: container recreated`] });
    const page = await until(
      async () => {
        const answer = await node.throughEdge(`http://${staging.domain}/`, { credentials: stagingCredentials });
        return answer.status === 200 ? answer : null;
      },
      'staging to answer again',
      30_000,
      250,
    );
    expect(page.body).toContain(title);
  }, 180_000);

  it('deletes staging: its container, route, database, user and files go; production stays', async () => {
    const reply = await stack.client().request('DELETE', `/v1/sites/${siteId}/environments/staging`, bearer(token));
    expect(reply.body.data?.environment).toMatchObject({ kind: 'staging', status: 'deleting' });
    await operationSucceeded(stack, token, reply);
    const layout = environmentLayout(staging);
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, `berth.environment=${staging.id}`] } })).toEqual([]);
    for (const entry of [layout.filesDir, layout.workDir, layout.edgeSiteFile]) expect(fs.existsSync(path.join(node.dataDir, entry))).toBe(false);
    expect(
      await node.sql(
        `SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${staging.db_name}%' UNION ALL SELECT User FROM mysql.user WHERE User = '${staging.db_user}'`,
      ),
    ).toEqual([]);
    expect(await Environment.query(stack.ctx.db).findById(staging.id)).toBeUndefined();
    expect((await node.throughEdge(`http://${staging.domain}/`)).status).toBe(404);
    expect((await node.throughEdge(`http://${production.domain}/`)).status).toBe(200);
  }, 300_000);

  it('deletes both sites, leaving no labelled container, database or directory of theirs on the node', async () => {
    const sites = await stack.client().get('/v1/sites', bearer(token));
    const environments = await Environment.query(stack.ctx.db).where({ team_id: owner.teamId });
    for (const site of sites.body.data as Array<{ id: number }>)
      await operationSucceeded(stack, token, await stack.client().request('DELETE', `/v1/sites/${site.id}`, bearer(token)));
    const left = await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=site'] } });
    expect(left).toEqual([]);
    expect(fs.readdirSync(path.join(node.dataDir, 'sites'))).toEqual([]);
    expect(fs.readdirSync(path.join(node.dataDir, 'edge', 'sites'))).toEqual([]);
    const databases = await node.sql(
      `SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN (${environments.map((environment) => `'${environment.db_name}'`).join(',')})`,
    );
    expect(databases).toEqual([]);
  }, 300_000);
});
