import { Environment, Node, SftpUser } from '../../shared/db/models.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import { agentCommand } from '../environments/environment-context.ts';
import { ensureNodeServices } from '../environments/environment-steps.ts';
import { nodeEntryOf } from '../sftp/node-entry.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { certificateFiles, edgeRouteFiles, environmentsWithTls, helperFile, siteContainerPayload } from '../environments/site-runtime.ts';

type ReconcileStep = StepContext<OperationInput<'node.reconcile'>>;

async function nodeOf(step: ReconcileStep): Promise<Node> {
  const node = await Node.query(step.deps.db).findById(step.input.node_id);
  if (!node) throw new StepFailed('the node was deleted meanwhile', { permanent: true });
  return node;
}

/** Environments whose runtime the node must have: active ones (one being created or deleted belongs to its operation). */
async function liveEnvironments(step: ReconcileStep, node: Node): Promise<Environment[]> {
  return Environment.query(step.deps.db).where({ node_id: node.id }).where({ status: 'active' }).orderBy('id');
}

/** The reconciliation's steps, in their order. */
const reconciliation = {
  async ensureServices(step: ReconcileStep): Promise<unknown> {
    return ensureNodeServices(step.deps, step, 'node_services', await nodeOf(step));
  },

  /**
   * Each live environment's container from its row (the same spec leaves a running container alone,
   * a missing one is created, a stopped one started) and its edge route; the helper the containers
   * mount; one edge reload at the end. Files and databases are the node's disk: not recreated here.
   */
  async restoreEnvironments(step: ReconcileStep): Promise<unknown> {
    const node = await nodeOf(step);
    const environments = await liveEnvironments(step, node);
    const command = agentCommand(step, 'environments', node.id);
    await runAgentCommand(step.deps, {
      ...command,
      part: 'helper',
      kind: 'files.put',
      payload: { files: [helperFile(node.id)] },
    });
    const repaired: string[] = [];
    for (const environment of environments) {
      const ensured = await runAgentCommand(step.deps, {
        ...command,
        part: `env-${environment.id}-container`,
        kind: 'container.ensure',
        payload: siteContainerPayload(step.deps.config, environment),
      });
      if (ensured.created) repaired.push(`${environment.domain}: container recreated`);
    }
    if (environments.length > 0) {
      const ids = environments.map((environment) => environment.id);
      const domains = await verifiedDomains(step.deps.db, ids);
      const certificates = await environmentsWithTls(step.deps.db, node, ids);
      // the certificates first: a route naming a missing certificate would fail the edge's reload for every site
      const certificateFilesOf = environments.flatMap((environment) => {
        const certificate = certificates.get(environment.id);
        return certificate ? certificateFiles(step.deps.secretKey, environment, certificate) : [];
      });
      if (certificateFilesOf.length > 0)
        await runAgentCommand(step.deps, { ...command, part: 'certificates', kind: 'files.put', payload: { files: certificateFilesOf } });
      const routes = environments.flatMap((environment) =>
        edgeRouteFiles(environment, {
          domains: domains.get(environment.id) ?? [],
          certificate: certificates.get(environment.id),
          secretKey: step.deps.secretKey,
        }),
      );
      await runAgentCommand(step.deps, { ...command, part: 'routes', kind: 'files.put', payload: { files: routes } });
      await runAgentCommand(step.deps, {
        ...command,
        part: 'reload',
        kind: 'container.exec',
        payload: { name: nodeLayout(node.id).edgeContainer, cmd: WORDPRESS_RUNTIME.edgeReloadCommand },
      });
    }
    await step.log(
      `${environments.length} environments checked${repaired.length > 0 ? `; ${repaired.join('; ')}` : ', nothing was missing'}; edge routes written`,
    );
    return { environments: environments.length, repaired };
  },

  /**
   * The node's SFTP users from the records, whole: an agent that lost its user file serves them
   * again, and a user revoked while the node was away (its command lapsed) is removed. Users still
   * being provisioned are left to their own operations.
   */
  async syncSftpUsers(step: ReconcileStep): Promise<unknown> {
    const node = await nodeOf(step);
    if (node.sftp_port === null) {
      await step.log('the node runs no SFTP server: nothing to reconcile');
      return { skipped: 'no SFTP server' };
    }
    const rows = (await SftpUser.query(step.deps.db)
      .join('environments', 'environments.id', 'sftp_users.environment_id')
      .where('environments.node_id', node.id)
      .orderBy('sftp_users.id')
      .select('sftp_users.*', 'environments.node_id as node_id')) as Array<SftpUser & { node_id: string }>;
    const served = rows.filter((user) => user.status === 'active');
    const result = await runAgentCommand(step.deps, {
      ...agentCommand(step, 'sftp_users', node.id),
      kind: 'sftp.users.sync',
      payload: {
        users: served.map((user) => nodeEntryOf(user, { id: user.environment_id, node_id: user.node_id })),
        revoked: rows.filter((user) => user.status === 'revoked').map(({ id, username }) => ({ id, username })),
        keep_ids: rows.filter((user) => user.status === 'provisioning').map((user) => user.id),
      },
    });
    await step.log(
      `${result.written} SFTP users served, ${result.removed} removed${result.refused.length > 0 ? `, refused as revoked before: ${result.refused.join(', ')}` : ''}`,
    );
    return result;
  },
};

/** `node.reconcile`: planned when a node's agent starts (shared/domains/nodes/reconcile.ts). */
export const reconcileRunbook: Runbook<'node.reconcile'> = {
  steps: { node_services: reconciliation.ensureServices, environments: reconciliation.restoreEnvironments, sftp_users: reconciliation.syncSftpUsers },
  result: (results) => results.environments,
};
