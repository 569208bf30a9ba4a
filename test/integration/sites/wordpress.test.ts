import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentLayout, nodeLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { type Environment } from '../../../shared/db/models.ts';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, type TestUser } from '../../helpers/factories.ts';
import { wordpressImages } from '../../helpers/runtime-peers.ts';
import { docker, operationOutcome, type SiteNode } from '../../helpers/site-node.ts';
import { type SiteOnNode, startSiteOnNode } from '../../helpers/site-on-node.ts';
import type { Stack } from '../../helpers/stack.ts';
import { addMember } from '../../helpers/team-members.ts';
import { uploadedId } from '../../helpers/upload.ts';
import { zipArchive } from '../../helpers/zip.ts';

/**
 * WordPress on an environment through the API: a plugin and a theme installed from uploaded zips,
 * activated, deactivated and deleted; the PHP version changed; restarts, one at a time. Real agent,
 * podman and WordPress; every change seen on the site itself.
 */
const images = wordpressImages();
let stack: Stack;
let node: SiteNode;
let owner: TestUser;
let token = '';
let siteId = 0;
let production: Environment;
let site: SiteOnNode;
const base = () => `/v1/sites/${siteId}/environments/production`;

const plugin = zipArchive({
  'berth-marker/berth-marker.php':
    "<?php\n/**\n * Plugin Name: Berth Marker\n * Version: 1.2.3\n */\nadd_action('wp_footer', static function () { echo '<!-- berth-marker-active -->'; });\n",
});
const theme = zipArchive({
  'berth-theme/style.css': '/*\nTheme Name: Berth Theme\nVersion: 0.1.0\n*/\n',
  'berth-theme/index.php':
    "<!doctype html><html><head><title><?php bloginfo('name'); ?></title><?php wp_head(); ?></head><body>berth-theme-active <?php wp_footer(); ?></body></html>\n",
});

const frontPage = async () => (await node.throughEdge(`http://${production.domain}/`)).body;

beforeAll(async () => {
  site = await startSiteOnNode('wordpress', { title: 'Plugins and themes', plan: { plan: 'starter', max_sites: 1, max_disk_bytes: 10 * 1024 ** 3 } });
  ({ stack, node, owner, token, siteId, production } = site);
}, 400_000);

afterAll(async () => {
  await site?.stop();
}, 60_000);

describe('plugins', () => {
  it('installs a plugin from an uploaded zip and activates it: the site runs it', async () => {
    const uploadId = await uploadedId(stack.client(), token, plugin, 'berth-marker.zip');
    const outcome = await site.succeeded(await stack.client().post(`${base()}/plugins`, { upload_id: uploadId, activate: true }, bearer(token)));
    expect(outcome.steps.map((step: { name: string }) => step.name)).toEqual(['fetch', 'apply', 'inventory', 'purge_cache']);
    expect(outcome.result.change).toMatchObject({ plugin: 'berth-marker/berth-marker.php', version: '1.2.3', active: true, installed: true });
    expect(await frontPage()).toContain('berth-marker-active');
    const listed = await stack.client().get(`${base()}/plugins`, bearer(token));
    expect(listed.body.data).toContainEqual({
      plugin: 'berth-marker/berth-marker.php',
      slug: 'berth-marker',
      name: 'Berth Marker',
      version: '1.2.3',
      active: true,
    });
    // the package does not stay in the work directory
    expect(fs.readdirSync(path.join(node.dataDir, environmentLayout(production).workDir)).filter((name) => name.startsWith('upload-'))).toEqual([]);
  }, 120_000);

  it('deactivates, activates and deletes it by its slug', async () => {
    await site.succeeded(await stack.client().post(`${base()}/plugins/berth-marker/deactivate`, undefined, bearer(token)));
    expect(await frontPage()).not.toContain('berth-marker-active');
    await site.succeeded(await stack.client().post(`${base()}/plugins/berth-marker/activate`, undefined, bearer(token)));
    expect(await frontPage()).toContain('berth-marker-active');
    await site.succeeded(await stack.client().request('DELETE', `${base()}/plugins/berth-marker`, bearer(token)));
    expect(await frontPage()).not.toContain('berth-marker-active');
    const listed = await stack.client().get(`${base()}/plugins`, bearer(token));
    expect(listed.body.data.map((entry: { slug: string }) => entry.slug)).not.toContain('berth-marker');
  }, 120_000);

  it('answers 404 for a plugin the inventory does not list, 422 for an unknown upload, 403 without the permission', async () => {
    expect((await stack.client().post(`${base()}/plugins/berth-marker/activate`, undefined, bearer(token))).status).toBe(404);
    expect((await stack.client().post(`${base()}/plugins/..%2Fetc/activate`, undefined, bearer(token))).status).toBe(404);
    const unknown = await stack.client().post(`${base()}/plugins`, { upload_id: '00000000-0000-4000-8000-000000000000' }, bearer(token));
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.fields).toEqual([expect.objectContaining({ field: 'upload_id' })]);
    const viewer = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, owner, 'viewer'));
    expect((await stack.client().get(`${base()}/plugins`, bearer(viewer))).status).toBe(200);
    const refused = await stack.client().post(`${base()}/plugins/akismet/activate`, undefined, bearer(viewer));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('wordpress:update');
  });

  it('fails the operation at `apply`, saying why, for a zip that holds no plugin', async () => {
    const uploadId = await uploadedId(stack.client(), token, zipArchive({ 'readme.txt': 'no plugin here' }), 'empty.zip');
    const reply = await stack.client().post(`${base()}/plugins`, { upload_id: uploadId }, bearer(token));
    expect(reply.status).toBe(202);
    const outcome = await operationOutcome(stack, token, reply.body.data.operation.id);
    expect(outcome).toMatchObject({ status: 'failed', error: { step: 'apply' } });
    expect(outcome.error.message).toMatch(/plugin/i);
  }, 120_000);
});

describe('themes', () => {
  it('installs and activates a theme; the active one cannot be deleted; another activated, it can', async () => {
    const uploadId = await uploadedId(stack.client(), token, theme, 'berth-theme.zip');
    await site.succeeded(await stack.client().post(`${base()}/themes`, { upload_id: uploadId, activate: true }, bearer(token)));
    expect(await frontPage()).toContain('berth-theme-active');
    const refused = await stack.client().request('DELETE', `${base()}/themes/berth-theme`, bearer(token));
    expect(refused.status).toBe(409);
    await site.succeeded(await stack.client().post(`${base()}/themes/twentytwentyfive/activate`, undefined, bearer(token)));
    expect(await frontPage()).not.toContain('berth-theme-active');
    await site.succeeded(await stack.client().request('DELETE', `${base()}/themes/berth-theme`, bearer(token)));
    const listed = await stack.client().get(`${base()}/themes`, bearer(token));
    expect(listed.body.data).toEqual([expect.objectContaining({ theme: 'twentytwentyfive', active: true })]);
  }, 180_000);
});

describe('the environment', () => {
  it('changes the PHP version: a new container from the other image, the same files and database', async () => {
    const other = images.php.at(-1)!;
    expect(other.version).not.toBe(images.php[0]!.version);
    const before = await docker.getContainer(environmentLayout(production).container).inspect();
    const reply = await stack.client().request('PATCH', base(), { json: { php_version: other.version }, ...bearer(token) });
    expect(reply.body.data?.environment).toMatchObject({ php_version: images.php[0]!.version });
    const outcome = await site.succeeded(reply);
    expect(outcome.result.wordpress).toMatchObject({ php_version: expect.stringMatching(new RegExp(`^${other.version.replace('.', '\\.')}\\.`)) });
    const after = await docker.getContainer(environmentLayout(production).container).inspect();
    expect(after.Id).not.toBe(before.Id);
    expect(after.Config.Image).toContain(other.image.split(':').pop()!);
    expect(await frontPage()).toContain('Plugins and themes');
    const shown = await stack.client().get(base(), bearer(token));
    expect(shown.body.data).toMatchObject({
      php_version: other.version,
      wordpress: { php_version: expect.stringMatching(new RegExp(`^${other.version.replace('.', '\\.')}`)) },
    });
    expect((await stack.client().request('PATCH', base(), { json: { php_version: other.version }, ...bearer(token) })).status).toBe(409);
    expect((await stack.client().request('PATCH', base(), { json: { php_version: '5.6' }, ...bearer(token) })).status).toBe(422);
  }, 180_000);

  it('runs a second operation on the environment only once the first has finished', async () => {
    const [first, second] = await Promise.all([
      stack.client().post(`${base()}/restart`, undefined, bearer(token)),
      stack.client().post(`${base()}/restart`, undefined, bearer(token)),
    ]);
    const [a, b] = await Promise.all([site.succeeded(first), site.succeeded(second)]);
    // which runs first is not given (their creations race); that they never overlap is
    const [earlier, later] = Date.parse(a.started_at) <= Date.parse(b.started_at) ? [a, b] : [b, a];
    expect(Date.parse(later.started_at)).toBeGreaterThanOrEqual(Date.parse(earlier.finished_at));
    expect(await frontPage()).toContain('Plugins and themes');
  }, 180_000);

  it("replaces a node's helper that predates a command, and runs the command again", async () => {
    const file = path.join(node.dataDir, nodeLayout(node.nodeId).helperDir, 'berth-helper.php');
    const current = fs.readFileSync(file, 'utf8');
    const old = current.replace(/^\s*'inventory' => .*\n/m, '');
    expect(old).not.toBe(current);
    fs.writeFileSync(file, old);
    const outcome = await site.succeeded(await stack.client().post(`${base()}/wordpress/refresh`, undefined, bearer(token)));
    expect(outcome.result.wordpress).toMatchObject({ blogname: 'Plugins and themes' });
    expect(fs.readFileSync(file, 'utf8')).toBe(current);
  }, 120_000);

  it('reads the inventory again on request', async () => {
    const checked = Date.parse((await stack.client().get(`${base()}/wordpress`, bearer(token))).body.data.checked_at);
    await site.succeeded(await stack.client().post(`${base()}/wordpress/refresh`, undefined, bearer(token)));
    const again = await stack.client().get(`${base()}/wordpress`, bearer(token));
    expect(Date.parse(again.body.data.checked_at)).toBeGreaterThan(checked);
    expect(again.body.data).toMatchObject({ blogname: 'Plugins and themes', theme: 'twentytwentyfive' });
  }, 120_000);
});
