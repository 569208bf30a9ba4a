import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, OperationStep } from '../../../shared/db/models.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { accessTokenOf, createOwner, unique } from '../../helpers/factories.ts';
import { wordpressImages } from '../../helpers/runtime-peers.ts';
import { docker, operationOutcome, siteStackEnv, startSiteNode, type SiteNode } from '../../helpers/site-node.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

/**
 * The node's pool of WordPress trees copied ahead (SITE_WORDPRESS_POOL_SIZE, 1 here): the first
 * site copies WordPress itself and its operation prepares a tree; the next site takes that tree
 * with a rename (its files are the tree, moved, not shared) and prepares the next one. The
 * throwaway container that copied it is gone, and no site's container ever mounted the slot.
 */
const images = wordpressImages();
let stack: Stack;
let node: SiteNode;
let token = '';

beforeAll(async () => {
  stack = await startStack({ env: { ...siteStackEnv(), SITE_WORDPRESS_POOL_SIZE: '1' } });
  node = await startSiteNode(stack, 'wordpress-pool');
  const owner = await createOwner(stack.ctx.db);
  await stack.ctx.db('team_entitlements').insert({ team_id: owner.teamId, plan: 'pool', max_sites: 5, max_disk_bytes: 100 * 1024 ** 3 });
  token = await accessTokenOf(stack.client(), owner);
}, 120_000);

afterAll(async () => {
  await node?.remove();
  await stack?.stop();
}, 60_000);

/** A new site, waited for: its environment, its files step's checkpoint and its pool step's. */
async function createSite(title: string) {
  const reply = await stack.client().post(
    '/v1/sites',
    {
      name: unique('Pool'),
      region: node.region,
      php_version: images.php[0]!.version,
      wordpress: { title, admin_user: 'admin', admin_email: `${unique('admin')}@example.test` },
    },
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const operationId = reply.body.data.operation.id as string;
  const outcome = await operationOutcome(stack, token, operationId, 400_000);
  expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
  const steps = await OperationStep.query(stack.ctx.db).where({ operation_id: operationId });
  const environment = (await Environment.query(stack.ctx.db).findOne({ site_id: reply.body.data.site.id }))!;
  return {
    environment,
    files: steps.find((step) => step.name === 'files')!.result as { prepared_tree: number | null; empty_slots: number[] },
    pool: steps.find((step) => step.name === 'pool')!.result as { refilled: number[] },
  };
}

/** The node's prepared trees (one directory per PHP image, one slot each here). */
function preparedTrees(): string[] {
  const root = path.join(node.dataDir, 'wordpress-pool');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((image) => fs.readdirSync(path.join(root, image)).map((entry) => path.join(root, image, entry)));
}

describe('the WordPress pool of a node', () => {
  it("gives the next site the tree the previous site's operation copied ahead, moved (not shared), and copies the next one", async () => {
    const first = await createSite('Pool First');
    expect(first.files).toMatchObject({ prepared_tree: null, empty_slots: [1] });
    expect(first.pool).toEqual({ refilled: [1] });
    const [tree] = preparedTrees();
    expect(preparedTrees()).toHaveLength(1);
    expect(path.basename(tree!)).toBe('slot-1');
    const prepared = fs.statSync(path.join(tree!, 'wp-includes', 'version.php'));
    expect([prepared.uid, prepared.gid]).toEqual([33, 33]);
    // the tree holds WordPress's core alone: no site's configuration, nothing a site wrote
    expect(fs.existsSync(path.join(tree!, 'wp-config.php'))).toBe(false);

    const second = await createSite('Pool Second');
    expect(second.files).toMatchObject({ prepared_tree: 1, empty_slots: [] });
    expect(second.pool).toEqual({ refilled: [1] });
    // the very file of the tree is now the second site's (renamed, not copied), and the first site's files are its own
    const filesOf = (environment: Environment) => path.join(node.dataDir, environmentLayout(environment).filesDir);
    expect(fs.statSync(path.join(filesOf(second.environment), 'wp-includes', 'version.php')).ino).toBe(prepared.ino);
    expect(fs.statSync(path.join(filesOf(first.environment), 'wp-includes', 'version.php')).ino).not.toBe(prepared.ino);
    expect(fs.existsSync(path.join(filesOf(second.environment), 'wp-config.php'))).toBe(true);
    // a fresh tree waits in the slot for the next site
    expect(preparedTrees().map((entry) => path.basename(entry))).toEqual(['slot-1']);
    expect(fs.statSync(path.join(preparedTrees()[0]!, 'wp-includes', 'version.php')).ino).not.toBe(prepared.ino);

    // both sites serve their own title; the containers that copied the trees are gone
    for (const [environment, title] of [
      [first.environment, 'Pool First'],
      [second.environment, 'Pool Second'],
    ] as const) {
      const page = await node.throughEdge(`http://${environment.domain}/`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(title);
    }
    const fillers = await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=wordpress-pool'] } });
    expect(fillers).toEqual([]);
  }, 600_000);
});
