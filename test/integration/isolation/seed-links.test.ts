import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { wordpressImages } from '../../helpers/runtime-peers.ts';
import { docker } from '../../helpers/site-node.ts';

/**
 * A site container's entrypoint copies WordPress into the site's tree as the container's root
 * whenever wp-includes/version.php is missing, and the tree is the tenant's: its PHP (www-data) can
 * delete that file and plant links, then wait for the next restart. Through a link to /etc, a root
 * copy writes WordPress's files into the container's /etc. The seed must write as www-data only.
 */
const images = wordpressImages();
const label = `berth.test-seed=${randomBytes(4).toString('hex')}`;
const trees: string[] = [];

/** The seed run by the image's own script with the site container's real confinement; its exit code and what it wrote to /etc. */
async function seedInto(image: string, tree: string): Promise<{ exit: number; plantedInEtc: number; log: string }> {
  const script = 'berth-wordpress-seed /var/www/html; echo "seed=$?"; echo "planted=$(ls /etc | grep -c "\\.php$")"';
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ['sh', '-c', script],
    Labels: { [label.split('=')[0]!]: label.split('=')[1]! },
    HostConfig: {
      Mounts: [{ Type: 'bind', Source: tree, Target: '/var/www/html' }],
      CapDrop: ['ALL'],
      CapAdd: WORDPRESS_RUNTIME.siteCapabilities,
      SecurityOpt: ['no-new-privileges'],
    },
  });
  try {
    await container.start();
    await container.wait();
    const log = (await container.logs({ stdout: true, stderr: true })).toString();
    return { exit: Number(/seed=(\d+)/.exec(log)?.[1] ?? -1), plantedInEtc: Number(/planted=(\d+)/.exec(log)?.[1] ?? -1), log };
  } finally {
    await container.remove({ force: true });
  }
}

function tenantTree(): string {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-seed-'));
  fs.chownSync(tree, WORDPRESS_RUNTIME.siteUid, WORDPRESS_RUNTIME.siteGid);
  trees.push(tree);
  return tree;
}

afterAll(() => {
  for (const tree of trees) fs.rmSync(tree, { recursive: true, force: true });
});

describe.each(images.php)('the WordPress seed of PHP $version', ({ image }) => {
  it('fills an empty tree as www-data', async () => {
    const tree = tenantTree();
    const seeded = await seedInto(image, tree);
    expect(seeded.exit, seeded.log).toBe(0);
    const version = fs.statSync(path.join(tree, 'wp-includes/version.php'));
    expect([version.uid, version.gid]).toEqual([WORDPRESS_RUNTIME.siteUid, WORDPRESS_RUNTIME.siteGid]);
    expect(fs.statSync(path.join(tree, 'wp-admin/about.php')).uid).toBe(WORDPRESS_RUNTIME.siteUid);
  }, 60_000);

  it('writes nothing through a link the tenant planted (wp-admin -> /etc)', async () => {
    const tree = tenantTree();
    fs.symlinkSync('/etc', path.join(tree, 'wp-admin'));
    fs.lchownSync(path.join(tree, 'wp-admin'), WORDPRESS_RUNTIME.siteUid, WORDPRESS_RUNTIME.siteGid);
    const seeded = await seedInto(image, tree);
    expect(seeded.plantedInEtc, seeded.log).toBe(0);
    // the tenant broke its own site (the seed fails and says so); nothing of the container's changed
    expect(seeded.exit, seeded.log).not.toBe(0);
  }, 60_000);
});
