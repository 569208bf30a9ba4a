import { Environment, Node, Site, type Operation } from '../../shared/db/models.ts';
import type { WorkerDeps } from '../registry.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';

/** How long a node has for one command of a site step. */
export const COMMAND_TIMEOUT_SECONDS = 120;

/** The input every operation on an environment carries (shared/domains/sites plans it). */
export type EnvironmentInput = { environment_id: number; source_environment_id?: number };

/** The environment the operation works on (or its source), with its node; gone means there is nothing to do. */
export async function environmentOf(step: StepContext, field: 'environment_id' | 'source_environment_id' = 'environment_id'): Promise<{ environment: Environment; node: Node }> {
  const id = (step.operation.input as EnvironmentInput)[field];
  const environment = id === undefined ? undefined : await Environment.query(step.deps.db).findById(id);
  if (!environment) throw new StepFailed(field === 'environment_id' ? 'the environment was deleted meanwhile' : 'the source environment was deleted meanwhile', { permanent: true });
  const node = await Node.query(step.deps.db).findById(environment.node_id);
  if (!node) throw new StepFailed('the environment\'s node is gone', { permanent: true });
  return { environment, node };
}

/** The options of an agent command of this step (`part` tells several commands of one step apart). */
export function agentCommand(step: StepContext, name: string, nodeId: string, part?: string) {
  return { operation: step.operation, step: name, nodeId, timeoutSeconds: COMMAND_TIMEOUT_SECONDS, ...(part ? { part } : {}) };
}

/**
 * The environment takes the outcome of the operation that builds it; its site too while the site
 * is being created (a new site or a clone), never one that is active already (a new staging). A
 * deletion asked meanwhile (queued behind this operation) keeps its `deleting`.
 */
export async function markEnvironment(deps: WorkerDeps, operation: Operation, status: 'active' | 'failed'): Promise<void> {
  const { environment_id: environmentId } = operation.input as EnvironmentInput;
  await deps.db.transaction(async (trx) => {
    const environment = await Environment.query(trx).findById(environmentId).forUpdate();
    if (!environment) return;
    await Environment.query(trx).patch({ status, updated_at: new Date() }).where({ id: environment.id }).whereNot('status', 'deleting');
    await Site.query(trx).patch({ status, updated_at: new Date() }).where({ id: environment.site_id, status: 'creating' });
  });
}
