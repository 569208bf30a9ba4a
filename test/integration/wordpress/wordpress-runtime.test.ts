import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeSiteFileName, renderEdgeSite } from '../../../shared/wordpress/edge-site.ts';
import {
  WORDPRESS_RUNTIME,
  WordpressHelperFailed,
  helperExec,
  parseHelperOutput,
  wordpressHelperSource,
  type HelperCommand,
} from '../../../shared/wordpress/runtime.ts';
import { freePort } from '../../helpers/free-port.ts';
import { dockerSocket, testStateDir, wordpressImages } from '../../helpers/runtime-peers.ts';
import { CookieJar, edgeRequest, execChecked, execResult, type Answer, type EdgeRequestOptions, runHelper } from '../../helpers/site-node.ts';
import { zipArchive } from '../../helpers/zip.ts';

/**
 * The WordPress runtime a node runs, driven straight through the Docker Engine API (no agent, no
 * control plane): the images built by ops/images (php-<version>, edge, mariadb), the PHP helper and
 * the edge's site config. One set of containers serves every test of the file; the last test removes
 * everything and checks that nothing the run labelled is left.
 */

const docker = new Docker({ socketPath: dockerSocket() });
const images = wordpressImages();
const run = randomBytes(4).toString('hex');
const label = { 'berth.test': `wordpress-${run}` };
const names = {
  network: `berth-test-wp-${run}`,
  db: `berth-test-wp-${run}-db`,
  php: `berth-test-wp-${run}-php`,
  edge: `berth-test-wp-${run}-edge`,
};
const database = { name: `wp_${run}`, user: `wp_${run}`, password: randomBytes(18).toString('base64url') };
const root = path.join(testStateDir(), 'wordpress-tests', run);
const dirs = {
  files: path.join(root, 'sites', 'prod-demo', 'files'),
  work: path.join(root, 'sites', 'prod-demo', 'work'),
  run: path.join(root, 'sites', 'prod-demo', 'run'),
  sites: path.join(root, 'sites'),
  edgeSites: path.join(root, 'edge', 'sites'),
  helper: path.join(root, 'helper'),
  mysql: path.join(root, 'mysql'),
};
const prodHost = 'prod-demo.berth.test';
const cloneHost = 'clone-demo.berth.test';
const timings: Record<string, number> = {};
let edgePort = 0;

/** Runs one step of the test and records its milliseconds in `timings`, whether it succeeds or fails. */
async function timedStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[step] = Math.round(performance.now() - started);
  }
}

const exec = (container: string, cmd: string[], user?: string) => execResult(container, cmd, {}, user);
const mustExec = (container: string, cmd: string[], user?: string) => execChecked(container, cmd, {}, user);

/** The helper in the test's PHP container. */
const helper = (command: HelperCommand, input: Record<string, unknown> = {}) => runHelper(names.php, command, input);

async function sql(statement: string): Promise<string> {
  return mustExec(names.db, ['mariadb', '--default-character-set=utf8mb4', '-N', '-B', '--raw', '-e', statement]);
}

/** One HTTP request to the edge, for a Host (the production host unless told); a site URL becomes path + Host. */
function request(target: string, options: EdgeRequestOptions = {}): Promise<Answer> {
  return edgeRequest(edgePort, target, { host: prodHost, ...options });
}

/**
 * Polls until the edge answers other than 502/504: php-fpm not listening yet, or the edge still
 * holding the old container's address (its resolver keeps answers 2 s).
 */
async function firstAnswer(host: string): Promise<Answer> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await request('/', { host });
    if ((response.status !== 502 && response.status !== 504) || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startPhp(image: string): Promise<void> {
  const container = await docker.createContainer({
    name: names.php,
    Image: image,
    Labels: label,
    HostConfig: {
      NetworkMode: names.network,
      Binds: [
        `${dirs.files}:${WORDPRESS_RUNTIME.docroot}`,
        `${dirs.helper}:${WORDPRESS_RUNTIME.helperDir}:ro`,
        `${dirs.work}:${WORDPRESS_RUNTIME.workDir}`,
        `${dirs.run}:${WORDPRESS_RUNTIME.fpmSocketDir}`,
      ],
    },
  });
  await container.start();
  await mustExec(names.php, WORDPRESS_RUNTIME.seedCommand);
}

async function writeEdgeSite(hosts: string[]): Promise<void> {
  const config = renderEdgeSite({
    key: 'prod-demo',
    hosts,
    filesRoot: `${WORDPRESS_RUNTIME.edgeFilesRoot}/prod-demo/files`,
    fastcgiSocket: `${WORDPRESS_RUNTIME.edgeFilesRoot}/prod-demo/run/${WORDPRESS_RUNTIME.fpmSocketName}`,
  });
  fs.writeFileSync(path.join(dirs.edgeSites, edgeSiteFileName('prod-demo')), config);
  await mustExec(names.edge, WORDPRESS_RUNTIME.edgeReloadCommand);
}

async function removeEverything(): Promise<void> {
  const containers = await docker.listContainers({ all: true, filters: { label: [`berth.test=${label['berth.test']}`] } });
  await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true })));
  const networks = await docker.listNetworks({ filters: { label: [`berth.test=${label['berth.test']}`] } });
  await Promise.all(networks.map((n) => docker.getNetwork(n.Id).remove()));
  fs.rmSync(root, { recursive: true, force: true });
}

const oldUrl = `http://${prodHost}`;
const newUrl = `http://${cloneHost}`;

/** PHP's serialize() of a string. */
function phpString(value: string): string {
  return `s:${Buffer.byteLength(value)}:"${value}";`;
}

describe('WordPress on the node runtime (podman, images from ops/images)', () => {
  beforeAll(async () => {
    for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
    // what the agent does with files.put: the helper where site containers mount it read-only
    fs.writeFileSync(path.join(dirs.helper, 'berth-helper.php'), wordpressHelperSource());
    edgePort = await freePort();
    await timedStep('containers: network, MariaDB ready, PHP seeded, edge', async () => {
      await docker.createNetwork({ Name: names.network, Labels: label });
      const db = docker
        .createContainer({
          name: names.db,
          Image: images.mariadb,
          Labels: label,
          HostConfig: { NetworkMode: names.network, Binds: [`${dirs.mysql}:${WORDPRESS_RUNTIME.mariadbDataDir}`] },
        })
        .then(async (container) => {
          await container.start();
          await mustExec(names.db, WORDPRESS_RUNTIME.mariadbReadyCommand(60));
        });
      const edge = docker
        .createContainer({
          name: names.edge,
          Image: images.edge,
          Labels: label,
          ExposedPorts: { '80/tcp': {} },
          HostConfig: {
            NetworkMode: names.network,
            PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: String(edgePort) }] },
            Binds: [`${dirs.sites}:${WORDPRESS_RUNTIME.edgeFilesRoot}:ro`, `${dirs.edgeSites}:${WORDPRESS_RUNTIME.edgeSitesDir}:ro`],
          },
        })
        .then((container) => container.start());
      await Promise.all([db, edge, startPhp(images.php[0]!.image)]);
    });
    await sql(
      `CREATE DATABASE IF NOT EXISTS \`${database.name}\`; CREATE USER IF NOT EXISTS '${database.user}'@'%' IDENTIFIED BY '${database.password}'; ` +
        `GRANT ALL PRIVILEGES ON \`${database.name}\`.* TO '${database.user}'@'%';`,
    );
    await writeEdgeSite([prodHost]);
  }, 180_000);

  afterAll(async () => {
    await removeEverything();
    console.info(`wordpress runtime timings (ms): ${JSON.stringify(timings)}`);
  }, 60_000);

  it('writes wp-config.php, installs WordPress without revealing a password, and serves it through the edge by Host', async () => {
    const config = await helper('write-config', {
      db_host: names.db,
      db_name: database.name,
      db_user: database.user,
      db_password: database.password,
      url: oldUrl,
    });
    expect(config).toMatchObject({ created: true, salts: 'generated', mode: '0640' });
    const stat = fs.statSync(path.join(dirs.files, 'wp-config.php'));
    expect(stat.mode & 0o777).toBe(0o640);
    expect([stat.uid, stat.gid]).toEqual([WORDPRESS_RUNTIME.siteUid, WORDPRESS_RUNTIME.siteGid]);

    const run = await timedStep('install', () =>
      exec(
        names.php,
        helperExec('install', { title: 'Hello Berth', admin_user: 'admin', admin_email: 'admin@example.com', url: oldUrl }),
        WORDPRESS_RUNTIME.siteUser,
      ),
    );
    const installed = parseHelperOutput('install', run) as Record<string, any>;
    expect(installed).toMatchObject({ created: true, admin_user: 'admin', url: oldUrl, locale: 'en_US' });
    expect(JSON.stringify(installed)).not.toMatch(/"password"/);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(installed.password_link.url).toMatch(new RegExp(`^${oldUrl}/wp-login\\.php\\?action=rp&key=[A-Za-z0-9]+&login=admin$`));

    const page = await timedStep('first page', () => request('/'));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Hello Berth');
    expect(page.body).toContain(`${oldUrl}/`);

    // a second install is a retry: nothing changes, and it answers a fresh link
    const again = await helper('install', { title: 'Other', admin_user: 'admin', admin_email: 'admin@example.com', url: oldUrl });
    expect(again).toMatchObject({ created: false, user_id: installed.user_id });
    expect(again.password_link.url).not.toBe(installed.password_link.url);

    expect(await helper('core-version')).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+/), php: images.php[0]!.version });
    expect(await helper('status')).toMatchObject({ installed: true, home: oldUrl, siteurl: oldUrl, blogname: 'Hello Berth' });

    expect((await request('/wp-config.php')).status).toBe(403);
    expect((await request('/.htaccess')).status).toBe(403);
    expect((await request('/hello-world/')).status).toBe(200);
    expect((await request('/', { host: 'unknown.berth.test' })).status).toBe(404);
    fs.mkdirSync(path.join(dirs.files, 'wp-content', 'uploads', '2026'), { recursive: true });
    fs.writeFileSync(path.join(dirs.files, 'wp-content', 'uploads', '2026', 'shell.php'), '<?php echo "ran";');
    expect((await request('/wp-content/uploads/2026/shell.php')).status).toBe(403);
  }, 60_000);

  it('sets the admin password through the one-time link, signs in and opens the dashboard', async () => {
    const { password_link: link } = await helper('password-link', { login: 'admin' });
    const jar = new CookieJar();
    const opened = await request(link.url, { cookies: jar });
    expect(opened.status).toBe(302);
    const form = await request(String(opened.headers.location), { cookies: jar });
    expect(form.status).toBe(200);
    const key = /name="rp_key" value="([^"]+)"/.exec(form.body)?.[1];
    expect(key).toBeTruthy();
    const password = `Berth-${randomBytes(12).toString('base64url')}`;
    const reset = await request('/wp-login.php?action=resetpass', {
      cookies: jar,
      form: { pass1: password, pass2: password, rp_key: key!, 'wp-submit': 'Save Password' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toContain('Your password has been reset');

    jar.set('wordpress_test_cookie', 'WP%20Cookie%20check');
    const signIn = await request('/wp-login.php', {
      cookies: jar,
      form: { log: 'admin', pwd: password, 'wp-submit': 'Log In', redirect_to: `${oldUrl}/wp-admin/`, testcookie: '1' },
    });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.location).toBe(`${oldUrl}/wp-admin/`);
    const dashboard = await timedStep('wp-admin dashboard', () => request(`${oldUrl}/wp-admin/`, { cookies: jar }));
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain('<title>Dashboard');

    // the link was for one use
    const again = new CookieJar();
    const reopened = await request(link.url, { cookies: again });
    const refused = await request(String(reopened.headers.location), { cookies: again });
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toContain('error=invalidkey');
  }, 60_000);

  it('installs a plugin from an uploaded zip, activates it, deactivates and deletes it', async () => {
    fs.writeFileSync(
      path.join(dirs.work, 'berth-hello.zip'),
      zipArchive({
        'berth-hello/berth-hello.php': [
          '<?php',
          '/**',
          ' * Plugin Name: Berth Hello',
          ' * Version: 1.2.3',
          ' */',
          "add_action('wp_footer', static function () { echo '<p id=\"berth-hello\">berth-hello-plugin-active</p>'; });",
          '',
        ].join('\n'),
      }),
    );
    const zip = `${WORDPRESS_RUNTIME.workDir}/berth-hello.zip`;
    const installed = await timedStep('plugin install from zip', () => helper('plugin-install-zip', { zip, activate: true }));
    expect(installed).toMatchObject({
      plugin: 'berth-hello/berth-hello.php',
      slug: 'berth-hello',
      name: 'Berth Hello',
      version: '1.2.3',
      active: true,
      installed: true,
    });
    expect((await request('/')).body).toContain('berth-hello-plugin-active');

    const { plugins } = await helper('plugin-list');
    expect(plugins).toContainEqual({ plugin: 'berth-hello/berth-hello.php', slug: 'berth-hello', name: 'Berth Hello', version: '1.2.3', active: true });
    await expect(helper('plugin-install-zip', { zip })).rejects.toMatchObject({ code: 'INSTALL_FAILED' });
    expect(await helper('plugin-activate', { plugin: 'berth-hello' })).toEqual({ plugin: 'berth-hello/berth-hello.php', active: true, changed: false });
    expect(await helper('plugin-deactivate', { plugin: 'berth-hello' })).toEqual({ plugin: 'berth-hello/berth-hello.php', active: false, changed: true });
    expect((await request('/')).body).not.toContain('berth-hello-plugin-active');
    expect(await helper('plugin-delete', { plugin: 'berth-hello' })).toEqual({ plugin: 'berth-hello/berth-hello.php', deleted: true });
    expect(fs.existsSync(path.join(dirs.files, 'wp-content', 'plugins', 'berth-hello'))).toBe(false);
    expect(await helper('plugin-delete', { plugin: 'berth-hello' })).toEqual({ plugin: 'berth-hello', deleted: false });
    await expect(helper('plugin-activate', { plugin: 'berth-hello' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  }, 60_000);

  it('installs a theme from a zip, activates it, and deletes it once another is active', async () => {
    fs.writeFileSync(
      path.join(dirs.work, 'berth-plain.zip'),
      zipArchive({
        'berth-plain/style.css': '/*\nTheme Name: Berth Plain\nVersion: 0.1.0\n*/\n',
        'berth-plain/index.php': "<?php echo '<!doctype html><title>' . esc_html(get_bloginfo('name')) . '</title><p>berth-plain-theme</p>';\n",
      }),
    );
    const before = (await helper('theme-list')).themes.find((t: { active: boolean }) => t.active);
    expect(before).toMatchObject({ theme: 'twentytwentyfive' });
    expect(await helper('theme-install-zip', { zip: `${WORDPRESS_RUNTIME.workDir}/berth-plain.zip`, activate: true })).toMatchObject({
      theme: 'berth-plain',
      name: 'Berth Plain',
      active: true,
      installed: true,
    });
    expect((await request('/')).body).toContain('berth-plain-theme');
    await expect(helper('theme-delete', { theme: 'berth-plain' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await helper('theme-activate', { theme: 'twentytwentyfive' })).toMatchObject({ theme: 'twentytwentyfive', active: true, changed: true });
    expect(await helper('theme-delete', { theme: 'berth-plain' })).toEqual({ theme: 'berth-plain', deleted: true });
    expect((await helper('theme-list')).themes.map((t: { theme: string }) => t.theme)).not.toContain('berth-plain');
    expect((await request('/')).body).toContain('Hello Berth');
  }, 60_000);

  it('rewrites the URL with search-replace: serialized options stay valid with new lengths, and the site serves its new host', async () => {
    const demo = { home: `${oldUrl}/`, links: [`${oldUrl}/a`, { deep: `${oldUrl}/über-uns`, n: 3, on: true }], other: 'http://elsewhere.test' };
    await helper('option-set', { name: 'berth_serialized_demo', value: demo });
    // a serialized string stored as a string: WordPress serializes it again, so it is nested
    const nested = `a:1:{s:3:"url";${phpString(`${oldUrl}/nested`)}}`;
    await helper('option-set', { name: 'berth_nested_demo', value: nested });
    expect(await sql(`SELECT option_value FROM ${database.name}.wp_options WHERE option_name = 'berth_nested_demo'`)).toBe(`${phpString(nested)}\n`);

    const dry = await helper('search-replace', { old: oldUrl, new: newUrl, dry_run: true });
    expect(dry.rows_changed).toBeGreaterThan(0);
    expect((await helper('option-get', { name: 'home' })).value).toBe(oldUrl);

    const replaced = await timedStep('search-replace', () => helper('search-replace', { old: oldUrl, new: newUrl }));
    expect(replaced).toMatchObject({ dry_run: false, rows_changed: dry.rows_changed, cells_changed: dry.cells_changed, invalid_values: 0, skipped_values: 0 });
    expect(replaced.serialized_values).toBeGreaterThanOrEqual(3);
    expect(replaced.tables.map((t: { table: string }) => t.table)).toEqual(expect.arrayContaining(['wp_options', 'wp_posts', 'wp_postmeta']));

    // WordPress unserializes them: the lengths are right
    expect((await helper('option-get', { name: 'berth_serialized_demo' })).value).toEqual({
      home: `${newUrl}/`,
      links: [`${newUrl}/a`, { deep: `${newUrl}/über-uns`, n: 3, on: true }],
      other: 'http://elsewhere.test',
    });
    expect((await helper('option-get', { name: 'berth_nested_demo' })).value).toBe(`a:1:{s:3:"url";${phpString(`${newUrl}/nested`)}}`);
    const raw = await sql(`SELECT option_value FROM ${database.name}.wp_options WHERE option_name = 'berth_serialized_demo'`);
    expect(raw).toContain(phpString(`${newUrl}/über-uns`));
    expect(raw).not.toContain(prodHost);
    // WP_HOME and WP_SITEURL in wp-config.php still name the old URL (get_option answers them) until write-config
    expect(await sql(`SELECT option_value FROM ${database.name}.wp_options WHERE option_name IN ('home', 'siteurl')`)).toBe(`${newUrl}\n${newUrl}\n`);
    expect(await sql(`SELECT COUNT(*) FROM ${database.name}.wp_posts WHERE guid LIKE '%${prodHost}%' OR post_content LIKE '%${prodHost}%'`)).toBe('0\n');

    const config = await helper('write-config', {
      db_host: names.db,
      db_name: database.name,
      db_user: database.user,
      db_password: database.password,
      url: newUrl,
    });
    expect(config).toMatchObject({ created: false, salts: 'kept' });
    expect(await helper('option-get', { name: 'siteurl' })).toMatchObject({ value: newUrl });
    await writeEdgeSite([cloneHost]);
    // php-fpm's opcache looks at wp-config.php again only every 2 s (revalidate_freq): until then a page may name the old URL
    let page = await request('/', { host: cloneHost });
    for (const deadline = Date.now() + 10_000; !page.body.includes(`${newUrl}/`) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      page = await request('/', { host: cloneHost });
    }
    expect(page.status).toBe(200);
    expect(page.body).toContain('Hello Berth');
    expect(page.body).toContain(`${newUrl}/`);
    expect(page.body).not.toContain(prodHost);
    expect((await request('/', { host: prodHost })).status).toBe(404);
  }, 60_000);

  it('keeps serving the same files when the PHP version changes (container recreated)', async () => {
    // ops/lib/images.sh builds two PHP versions (php-8.2, php-8.4): a change needs both
    expect(images.php.length).toBeGreaterThanOrEqual(2);
    const next = images.php[images.php.length - 1]!;
    await timedStep(`PHP ${next.version}: recreate to first 200`, async () => {
      await docker.getContainer(names.php).remove({ force: true });
      await startPhp(next.image);
      // no edge reload: the new php-fpm listens on the same socket path the edge already names
      const page = await firstAnswer(cloneHost);
      expect(page.status).toBe(200);
      expect(page.body).toContain('Hello Berth');
    });
    expect(await helper('core-version')).toMatchObject({ php: next.version });
    expect(await helper('status')).toMatchObject({ installed: true, home: newUrl });
    expect((await helper('option-get', { name: 'berth_serialized_demo' })).value.links[0]).toBe(`${newUrl}/a`);
  }, 90_000);

  it("passes the search-replace unit cases (nested, multibyte, objects, references) in the image's PHP", async () => {
    fs.copyFileSync(path.join(import.meta.dirname, 'search-replace-cases.php'), path.join(dirs.work, 'search-replace-cases.php'));
    const out = await mustExec(
      names.php,
      ['php', `${WORDPRESS_RUNTIME.workDir}/search-replace-cases.php`, WORDPRESS_RUNTIME.helperPath],
      WORDPRESS_RUNTIME.siteUser,
    );
    const result = JSON.parse(out) as { passed: number; failures: unknown[] };
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(21);
  });

  it('answers every failure as one JSON error with a code and a non-zero exit', async () => {
    const unknown = await exec(names.php, ['php', WORDPRESS_RUNTIME.helperPath, 'no-such-command'], WORDPRESS_RUNTIME.siteUser);
    expect(unknown.exit_code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    const invalid = await exec(
      names.php,
      helperExec('install', { title: 'x', admin_user: 'bad name!', admin_email: 'a@example.com', url: newUrl }),
      WORDPRESS_RUNTIME.siteUser,
    );
    expect(invalid.exit_code).toBe(2);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', details: { field: 'admin_user' } } });
    await expect(helper('option-set', { name: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(helper('search-replace', { old: '', new: 'x' })).rejects.toBeInstanceOf(WordpressHelperFailed);
    // a wrong database password: WordPress's wp_die() becomes an error, not HTML
    await expect(helper('status', { path: '/nonexistent' })).rejects.toMatchObject({ code: 'NO_WORDPRESS' });
    const config = fs.readFileSync(path.join(dirs.files, 'wp-config.php'), 'utf8');
    await helper('write-config', { db_host: names.db, db_name: database.name, db_user: database.user, db_password: 'wrong', url: newUrl });
    const failed = await exec(names.php, helperExec('status'), WORDPRESS_RUNTIME.siteUser);
    expect(failed.exit_code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, error: { code: 'WORDPRESS_ERROR', message: expect.stringContaining('database') } });
    fs.writeFileSync(path.join(dirs.files, 'wp-config.php'), config);
    expect(await helper('status')).toMatchObject({ installed: true });
  }, 60_000);

  it('removes everything it made: database and user, containers, network, files', async () => {
    await sql(`DROP DATABASE IF EXISTS \`${database.name}\`; DROP USER IF EXISTS '${database.user}'@'%';`);
    expect(await sql(`SHOW DATABASES LIKE '${database.name}'`)).toBe('');
    expect(await sql(`SELECT COUNT(*) FROM mysql.user WHERE user = '${database.user}'`)).toBe('0\n');
    await removeEverything();
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.test=${label['berth.test']}`] } })).toEqual([]);
    expect(await docker.listNetworks({ filters: { label: [`berth.test=${label['berth.test']}`] } })).toEqual([]);
    expect(fs.existsSync(root)).toBe(false);
  }, 60_000);
});
