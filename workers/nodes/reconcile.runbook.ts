import { Environment, Node } from '../../shared/db/models.ts';
import { NODE_RECONCILE_KIND, NODE_RECONCILE_STEPS } from '../../shared/domains/sites/site-plans.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type RunbookStep, type StepContext } from '../operations/runbook.ts';
import { agentCommand } from '../sites/environment-context.ts';
import { ensureNodeServices } from '../sites/environment-steps.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { certificateFiles, edgeRouteFile, environmentsWithTls, helperFile, siteContainerPayload } from '../sites/site-runtime.ts';

async function nodeOf(step: StepContext): Promise<Node> {
  const node = await Node.query(step.deps.db).findById(String(step.operation.input.node_id));
  if (!node) throw new StepFailed('the node was deleted meanwhile', { permanent: true });
  return node;
}

/** Environments whose runtime the node must have: active ones (one being created or deleted belongs to its operation). */
async function liveEnvironments(step: StepContext, node: Node): Promise<Environment[]> {
  return Environment.query(step.deps.db).where({ node_id: node.id }).where({ status: 'active' }).orderBy('id');
}

const steps: Record<string, RunbookStep['run']> = {
  async node_services(step) {
    return ensureNodeServices(step.deps, step, 'node_services', await nodeOf(step));
  },

  /**
   * Each live environment's container from its row (the same spec leaves a running container alone,
   * a missing one is created, a stopped one started) and its edge route; the helper the containers
   * mount; one edge reload at the end. Files and databases are the node's disk: not recreated here.
   */
  async environments(step) {
    const node = await nodeOf(step);
    const environments = await liveEnvironments(step, node);
    const command = agentCommand(step, 'environments', node.id);
    await runAgentCommand(step.deps, {
      ...command, part: 'helper', kind: 'files.put',
      payload: { files: [helperFile(node.id)] },
    });
    const repaired: string[] = [];
    for (const environment of environments) {
      const ensured = await runAgentCommand(step.deps, { ...command, part: `env-${environment.id}-container`, kind: 'container.ensure', payload: siteContainerPayload(step.deps.config, environment) });
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
      if (certificateFilesOf.length > 0) await runAgentCommand(step.deps, { ...command, part: 'certificates', kind: 'files.put', payload: { files: certificateFilesOf } });
      const routes = environments.map((environment) => edgeRouteFile(environment, domains.get(environment.id), certificates.has(environment.id)));
      await runAgentCommand(step.deps, { ...command, part: 'routes', kind: 'files.put', payload: { files: routes } });
      await runAgentCommand(step.deps, { ...command, part: 'reload', kind: 'container.exec', payload: { name: nodeLayout(node.id).edgeContainer, cmd: WORDPRESS_RUNTIME.edgeReloadCommand } });
    }
    await step.log(`${environments.length} environments checked${repaired.length > 0 ? `; ${repaired.join('; ')}` : ', nothing was missing'}; edge routes written`);
    return { environments: environments.length, repaired };
  },
};

/** `node.reconcile`: planned when a node's agent starts (shared/domains/nodes/reconcile.ts). */
export const reconcileRunbook: Runbook = {
  kind: NODE_RECONCILE_KIND,
  steps: NODE_RECONCILE_STEPS.map((plan) => ({ ...plan, run: steps[plan.name]! })),
  result: (results) => results.environments,
};
