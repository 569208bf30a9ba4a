import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { execChecked, operationOutcome, type SiteNode } from '../../helpers/site-node.ts';
import { environmentOf, type SiteOnNode, startSiteOnNode } from '../../helpers/site-on-node.ts';
import type { Stack } from '../../helpers/stack.ts';

/**
 * Data a tenant controls inside its own site, which Berth's workers read.
 * - Table names (any plugin can create tables): a backtick ends an identifier that is not quoted
 *   properly, and the rest becomes SQL. The database copy behind staging and push must carry such
 *   tables over with their exact names and rows, and no privilege may change anywhere.
 * - The helper's answers: the helper runs in the tenant's PHP, where a must-use plugin can print
 *   after it. A malformed inventory is refused (the operation fails at that step), never stored.
 */
let site: SiteOnNode;
let stack: Stack;
let node: SiteNode;
let token = '';
let siteId = 0;

/** Table names a hostile plugin could create, with a row each that must arrive. */
const hostileTables = (user: string) => [
  // (MariaDB refuses a name that ends in a space, so the comment is a #)
  `x\`; GRANT ALL PRIVILEGES ON *.* TO '${user}'@'%'; #`,
  'tick`tock',
  'wp_options` TO `mysql`.`wp_options',
];
const quoted = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/**
 * PHP run in the site's container as its user: reads the database credentials from wp-config.php
 * (without loading WordPress), creates each table of $TABLES (a JSON list) with one row, and says
 * which MariaDB account did it.
 */
const CREATE_AS_TENANT = `
  $config = file_get_contents('${WORDPRESS_RUNTIME.docroot}/wp-config.php');
  eval('?>' . str_replace("require_once ABSPATH . 'wp-settings.php';", '', $config));
  $db = new mysqli(DB_HOST, DB_USER, DB_PASSWORD, DB_NAME);
  foreach (json_decode(getenv('TABLES'), true) as $i => $name) {
    $table = '\`' . str_replace('\`', '\`\`', $name) . '\`';
    $db->query("CREATE TABLE $table (id INT PRIMARY KEY, note TEXT)") || exit("create $name: $db->error");
    $db->query('INSERT INTO ' . $table . ' VALUES (' . ($i + 1) . ", 'row of $i')") || exit("insert $name: $db->error");
  }
  echo 'created as ' . $db->query('SELECT CURRENT_USER()')->fetch_row()[0];
`;

/** Every account's privileges, and the tables of the server's own schema: what an injection would change. */
async function privileges(): Promise<string[]> {
  const accounts = await node.sql("SELECT CONCAT(user, '@', host) FROM mysql.global_priv ORDER BY user, host");
  const grants = await Promise.all(
    accounts.map(async (account) => {
      const [user, host] = account.split('@');
      return (await node.sql(`SHOW GRANTS FOR '${user}'@'${host}'`)).map((line) => line.replace(/IDENTIFIED BY PASSWORD '[^']*'/, '')).join('\n');
    }),
  );
  return [...grants, ...(await node.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'mysql' ORDER BY table_name"))];
}

async function tablesOf(database: string): Promise<string[]> {
  return node.sql(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${database}' ORDER BY table_name`);
}

beforeAll(async () => {
  site = await startSiteOnNode('isolation-sql', { title: 'Sql' });
  ({ stack, node, token, siteId } = site);
}, 400_000);

afterAll(async () => {
  await site?.stop();
}, 60_000);

describe('tenant-named tables through staging and push', () => {
  it("copies tables named with backticks and SQL exactly, as the tenants' own users, and changes no privilege", async () => {
    const production = await environmentOf(stack, siteId, 'production');
    const hostile = hostileTables(production.db_user);
    // made by the tenant's own PHP, as its own MariaDB user (wp-config.php's credentials), as a plugin would
    const made = await execChecked(
      environmentLayout(production).container,
      ['php', '-r', CREATE_AS_TENANT],
      { TABLES: JSON.stringify(hostile) },
      WORDPRESS_RUNTIME.siteUser,
    );
    expect(made.trim()).toBe(`created as ${production.db_user}@%`);
    expect(await tablesOf(production.db_name)).toEqual(expect.arrayContaining(hostile));
    const before = await privileges();

    await site.succeeded(await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, site.bearer()));
    const staging = await environmentOf(stack, siteId, 'staging');
    expect(await tablesOf(staging.db_name)).toEqual(await tablesOf(production.db_name));
    for (const [index, name] of hostile.entries()) {
      expect(await node.sql(`SELECT id, note FROM ${quoted(staging.db_name)}.${quoted(name)}`), name).toEqual([`${index + 1}\trow of ${index}`]);
    }
    // the staging user holds its own database only: nothing on *.*, nothing left on the scratch databases
    const stagingGrants = await node.sql(`SHOW GRANTS FOR '${staging.db_user}'@'%'`);
    expect(stagingGrants.filter((line) => !line.startsWith('GRANT USAGE ON *.*'))).toEqual([
      `GRANT ALL PRIVILEGES ON \`${staging.db_name}\`.* TO \`${staging.db_user}\`@\`%\``,
    ]);
    expect((await privileges()).filter((line) => !line.includes(staging.db_user))).toEqual(before);

    // a push replaces production's tables (hostile names on both sides of the RENAME)
    await node.sql(`INSERT INTO ${quoted(staging.db_name)}.${quoted(hostile[1]!)} VALUES (99, 'from staging')`);
    await site.succeeded(
      await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production', files: false, database: true }, site.bearer()),
    );
    expect(await node.sql(`SELECT id FROM ${quoted(production.db_name)}.${quoted(hostile[1]!)} ORDER BY id`)).toEqual(['2', '99']);
    expect(await tablesOf(production.db_name)).toEqual(await tablesOf(staging.db_name));
    expect((await privileges()).filter((line) => !line.includes(staging.db_user))).toEqual(before);
    expect(await node.sql(`SHOW DATABASES LIKE '${production.db_name}\\_%'`)).toEqual([]);
  }, 400_000);
});

describe("the helper's answers", () => {
  it("refuses an inventory the site's own PHP forged out of shape, and keeps the last good one", async () => {
    const production = await environmentOf(stack, siteId, 'production');
    const before = await stack.client().get(`/v1/sites/${siteId}/environments/production/wordpress`, site.bearer());
    expect(before.status).toBe(200);
    // printed after the helper's own answer, so it is the last line a worker reads
    const muPlugins = path.join(node.dataDir, environmentLayout(production).filesDir, 'wp-content/mu-plugins');
    fs.mkdirSync(muPlugins, { recursive: true });
    const forged = JSON.stringify({ ok: true, data: { version: 'x'.repeat(5000), plugins: 'all of them' } });
    fs.writeFileSync(path.join(muPlugins, 'forge.php'), `<?php register_shutdown_function(function () { echo "\\n" . ${JSON.stringify(forged)} . "\\n"; });\n`);
    fs.chownSync(path.join(muPlugins, 'forge.php'), 33, 33);

    const reply = await stack.client().post(`/v1/sites/${siteId}/environments/production/wordpress/refresh`, undefined, site.bearer());
    expect(reply.status).toBe(202);
    const outcome = await operationOutcome(stack, token, reply.body.data.operation.id);
    expect(outcome).toMatchObject({ status: 'failed', error: { step: 'inventory' } });
    expect(outcome.error.message, JSON.stringify(outcome.error)).toMatch(/inventory is not valid \(version: /);
    const after = await stack.client().get(`/v1/sites/${siteId}/environments/production/wordpress`, site.bearer());
    expect(after.status).toBe(200);
    expect(after.body.data).toEqual(before.body.data);
    fs.rmSync(path.join(muPlugins, 'forge.php'));
  }, 200_000);
});
