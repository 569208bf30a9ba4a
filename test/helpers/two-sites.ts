import { expect } from 'vitest';
import { Environment } from '../../shared/db/models.ts';
import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import { bearer } from './client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from './factories.ts';
import { wordpressImages } from './runtime-peers.ts';
import { operationSucceeded, siteStackEnv, startSiteNode, type SiteNode } from './site-node.ts';
import { startStack, type Stack } from './stack.ts';

/**
 * Two tenants' sites on one real node, for the isolation tests: each an active WordPress answering
 * through the node's edge, made through the API by a team whose plan an operator set.
 */
export type TenantSite = { id: number; domain: string; environment: Environment; container: string; filesDir: string };

export type TwoSites = {
  stack: Stack;
  node: SiteNode;
  /** The operator's and the two owners' access tokens, and their bearer options. */
  token(who: 'operator' | 'a' | 'b'): string;
  bearer(who: 'operator' | 'a' | 'b'): { headers: { authorization: string } };
  owners: { a: TestUser; b: TestUser };
  a: TenantSite;
  b: TenantSite;
  stop(): Promise<void>;
};

/** `plan` is the PUT body of the teams' entitlements (both teams get the same). */
export async function startTwoSites(name: string, plan: Record<string, unknown> = {}): Promise<TwoSites> {
  const stack = await startStack({ env: siteStackEnv() });
  let node: SiteNode | undefined;
  try {
    node = await startSiteNode(stack, name);
    return await makeTwoSites(stack, node, plan);
  } catch (error) {
    // the test file's afterAll never sees what failed to start: leave no labelled container behind
    await node?.remove();
    await stack.stop();
    throw error;
  }
}

async function makeTwoSites(stack: Stack, node: SiteNode, plan: Record<string, unknown>): Promise<TwoSites> {
  const operator = await createOwner(stack.ctx.db);
  await stack.ctx.db('users').where({ id: operator.userId }).update({ platform_role: 'operator' });
  const owners = { a: await createOwner(stack.ctx.db), b: await createOwner(stack.ctx.db) };
  const tokens = {
    operator: await accessTokenOf(stack.client(), operator),
    a: await accessTokenOf(stack.client(), owners.a),
    b: await accessTokenOf(stack.client(), owners.b),
  };
  const bearerOf = (who: keyof typeof tokens) => bearer(tokens[who]);
  for (const owner of Object.values(owners)) {
    const set = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, {
      json: { plan: 'isolation', max_sites: 2, max_disk_bytes: 10 * 1024 ** 3, ...plan },
      ...bearerOf('operator'),
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
  const php = wordpressImages().php[0]!.version;
  // both at once: the node's services are made once, the two sites' steps interleave
  const posted = await Promise.all(
    (['a', 'b'] as const).map((who) =>
      stack.client().post(
        '/v1/sites',
        {
          name: unique(`Tenant ${who}`),
          region: node.region,
          php_version: php,
          wordpress: { title: `Tenant ${who.toUpperCase()}`, admin_user: 'admin', admin_email: `${unique(who)}@example.test` },
        },
        bearerOf(who),
      ),
    ),
  );
  const sites = await Promise.all(
    posted.map(async (reply, index) => {
      await operationSucceeded(stack, tokens[index === 0 ? 'a' : 'b'], reply, { timeoutMs: 400_000 });
      const environment = (await Environment.query(stack.ctx.db).findOne({ site_id: reply.body.data.site.id }))!;
      const layout = environmentLayout(environment);
      return { id: environment.site_id, domain: environment.domain, environment, container: layout.container, filesDir: layout.filesDir };
    }),
  );
  return {
    stack,
    node,
    token: (who) => tokens[who],
    bearer: bearerOf,
    owners,
    a: sites[0]!,
    b: sites[1]!,
    // the stack first: its workers finish the jobs in progress while the node still answers them
    async stop() {
      await stack.stop();
      await node.remove();
    },
  };
}
