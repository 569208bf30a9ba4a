import { Environment } from '../../shared/db/models.ts';
import { bearer } from './client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from './factories.ts';
import { wordpressImages } from './runtime-peers.ts';
import { operationSucceeded, siteStackEnv, startSiteNode, type SiteNode } from './site-node.ts';
import { startStack, type Stack } from './stack.ts';

/** A team whose plan an operator set, with one active WordPress site on a real node, made through the API. */
export type SiteOnNode = {
  stack: Stack;
  node: SiteNode;
  owner: TestUser;
  token: string;
  bearer(token?: string): { headers: { authorization: string } };
  /** The outcome of an operation the owner started (answered 202) that must succeed. */
  succeeded(reply: { status: number; body: any }): Promise<Record<string, any>>;
  siteId: number;
  slug: string;
  production: Environment;
  stop(): Promise<void>;
};

/** A site's environment of that kind, as its row. */
export async function environmentOf(stack: Stack, siteId: number, kind: string): Promise<Environment> {
  const environment = await Environment.query(stack.ctx.db).findOne({ site_id: siteId, kind });
  if (!environment) throw new Error(`site ${siteId} has no ${kind} environment`);
  return environment;
}

/**
 * The stack (with the site images and `env` on top), a node named `name`, an owner whose plan is
 * `plan` (over a generous default), and a site whose creation succeeded.
 */
export async function startSiteOnNode(
  name: string,
  options: {
    env?: Record<string, string>;
    agentEnv?: Record<string, string>;
    https?: boolean;
    edgePort?: number;
    plan?: Record<string, unknown>;
    title?: string;
  } = {},
): Promise<SiteOnNode> {
  const stack = await startStack({ env: { ...siteStackEnv(), ...options.env } });
  let node: SiteNode | undefined;
  try {
    node = await startSiteNode(stack, name, { agentEnv: options.agentEnv, https: options.https, edgePort: options.edgePort });
    const owner = await createOwner(stack.ctx.db);
    await stack.ctx.db('team_entitlements').insert({ team_id: owner.teamId, plan: 'agency', max_sites: 10, max_disk_bytes: 100 * 1024 ** 3, ...options.plan });
    const token = await accessTokenOf(stack.client(), owner);
    const bearerFor = (as = token) => bearer(as);
    const title = options.title ?? `Site of ${name}`;
    const reply = await stack.client().post(
      '/v1/sites',
      {
        name: unique(name),
        region: node.region,
        php_version: wordpressImages().php[0]!.version,
        wordpress: { title, admin_user: 'admin', admin_email: 'admin@example.test' },
      },
      bearer(token),
    );
    await operationSucceeded(stack, token, reply);
    const siteId = reply.body.data.site.id as number;
    const production = await environmentOf(stack, siteId, 'production');
    const started = node;
    return {
      stack,
      node,
      owner,
      token,
      bearer: bearerFor,
      siteId,
      slug: reply.body.data.site.slug,
      production,
      succeeded: (answer) => operationSucceeded(stack, token, answer),
      // the stack first: its workers finish the jobs in progress while the node still answers them
      async stop() {
        await stack.stop();
        await started.remove();
      },
    };
  } catch (error) {
    await node?.remove();
    await stack.stop();
    throw error;
  }
}
