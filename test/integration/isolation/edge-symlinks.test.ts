import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { execIn } from '../../helpers/site-node.ts';
import { startTwoSites, type TwoSites } from '../../helpers/two-sites.ts';

/**
 * The edge mounts every site's files (read-only) and all of them belong to www-data, so a tenant
 * who writes a symbolic link into its own tree must not get the edge to serve what the link points
 * at: another tenant's files, a directory of theirs, or the edge's own /etc/passwd. The attack is
 * made as a tenant can: links written as www-data inside site A's container.
 */
let sites: TwoSites;
const secret = `tenant-b-secret-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  sites = await startTwoSites('edge-symlinks');
}, 600_000);

afterAll(async () => {
  await sites?.stop();
}, 60_000);

const asSiteUser = (container: string, script: string) => execIn(container, ['sh', '-euc', script], {}, WORDPRESS_RUNTIME.siteUser);

describe('the edge never serves across tenants', () => {
  it("answers 403 or 404 for links out of a site (to another site's file, directory or PHP, or the edge's /etc/passwd) while the site itself answers 200", async () => {
    const { a, b, node } = sites;
    const bRoot = environmentLayout(b.environment).edgeFilesRoot; // B's files as the edge sees them
    const bKey = environmentLayout(b.environment).key;
    await asSiteUser(
      b.container,
      `
      printf '%s\\n' '${secret}' > secret.txt
      printf '<?php echo "%s";\\n' '${secret}' > secret.php
      printf 'body{} /* %s */\\n' '${secret}' > secret.css
      chmod 0644 secret.txt secret.php secret.css`,
    );
    // B serves its own files
    expect((await node.throughEdge(`http://${b.domain}/secret.txt`)).body).toContain(secret);

    await asSiteUser(
      a.container,
      `
      printf 'tenant a static\\n' > own.txt
      ln -sfn ${bRoot}/secret.txt leak-absolute.txt
      ln -sfn ../../${bKey}/files/secret.txt leak-relative.txt
      ln -sfn ${bRoot} b-tree
      ln -sfn ../../${bKey}/files b-tree-relative
      ln -sfn /etc/passwd passwd.txt
      ln -sfn ${bRoot}/secret.php leak.php
      ln -sfn ${bRoot}/secret.css leak.css
      ln -sfn own.txt own-link.txt`,
    );

    const attempts = [
      '/leak-absolute.txt',
      '/leak-relative.txt',
      '/b-tree/secret.txt',
      '/b-tree-relative/secret.txt',
      '/b-tree/secret.php',
      '/b-tree/',
      '/b-tree/secret.css',
      '/passwd.txt',
      '/leak.php',
      '/leak.css',
      '/own-link.txt',
    ];
    for (const attempt of attempts) {
      const answer = await node.throughEdge(`http://${a.domain}${attempt}`);
      expect([403, 404], `${attempt}: ${answer.status} ${answer.body.slice(0, 200)}`).toContain(answer.status);
      expect(answer.body, attempt).not.toContain(secret);
      expect(answer.body, attempt).not.toMatch(/root:.*:0:0:/);
    }

    // the site itself is untouched: a static file, its front page and a PHP page
    const own = await node.throughEdge(`http://${a.domain}/own.txt`);
    expect(own).toMatchObject({ status: 200, body: 'tenant a static\n' });
    const front = await node.throughEdge(`http://${a.domain}/`);
    expect(front.status).toBe(200);
    expect(front.body).toContain('Tenant A');
    expect((await node.throughEdge(`http://${a.domain}/wp-login.php`)).status).toBe(200);
    expect((await node.throughEdge(`http://${a.domain}/wp-includes/css/dashicons.min.css`)).status).toBe(200);
  });

  it('gives PHP in site A no view of site B: its container mounts only its own tree', async () => {
    const { a, b } = sites;
    const bRoot = environmentLayout(b.environment).edgeFilesRoot;
    const bKey = environmentLayout(b.environment).key;
    // what a link that got past the edge would name, resolved where PHP runs: nothing there
    const seen = await asSiteUser(
      a.container,
      `for p in ${bRoot}/secret.txt ${WORDPRESS_RUNTIME.docroot}/../../${bKey}/files/secret.txt ${WORDPRESS_RUNTIME.docroot}/leak-relative.txt; do [ -e "$p" ] && echo "found $p" || echo "absent $p"; done`,
    );
    expect(seen).not.toContain('found');
    expect(
      (
        await execIn(
          a.container,
          ['php', '-r', `echo @file_get_contents("${WORDPRESS_RUNTIME.docroot}/leak-absolute.txt") === false ? "unreadable" : "read";`],
          {},
          WORDPRESS_RUNTIME.siteUser,
        )
      ).trim(),
    ).toBe('unreadable');
  });
});
