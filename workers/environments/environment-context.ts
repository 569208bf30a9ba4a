import { Environment, Node, Site } from '../../shared/db/models.ts';
import type { WorkerDeps } from '../registry.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';

/** How long a node has for one command of a site step. */
export const COMMAND_TIMEOUT_SECONDS = 120;

/**
 * What the shared environment steps read of an operation's input: every operation on an
 * environment names it; a copy names its source, a PHP change its version, a creation its title,
 * a push whether it copies files and database. Each kind's declared input has these fields or
 * lacks the optional ones, so any of those kinds can run these steps.
 */
export type EnvironmentStepInput = {
  environment_id: number;
  source_environment_id?: number | undefined;
  php_version?: string | undefined;
  title?: string | undefined;
  files?: boolean | undefined;
  database?: boolean | undefined;
};
export type EnvironmentStep = StepContext<EnvironmentStepInput>;

/** The environment the operation works on (or its source), with its node; gone means there is nothing to do. */
export async function environmentOf(
  step: StepContext<Pick<EnvironmentStepInput, 'environment_id' | 'source_environment_id'>>,
  field: 'environment_id' | 'source_environment_id' = 'environment_id',
): Promise<{ environment: Environment; node: Node }> {
  return environmentAndNode(step.deps, step.input[field], field === 'environment_id' ? 'the environment' : 'the source environment');
}

/** An environment and its node by id (a failure hook has no step); gone means there is nothing to do. */
export async function environmentAndNode(
  deps: WorkerDeps,
  id: number | undefined,
  what = 'the environment',
): Promise<{ environment: Environment; node: Node }> {
  const environment = id === undefined ? undefined : await Environment.query(deps.db).findById(id);
  if (!environment) throw new StepFailed(`${what} was deleted meanwhile`, { permanent: true });
  const node = await Node.query(deps.db).findById(environment.node_id);
  if (!node) throw new StepFailed("the environment's node is gone", { permanent: true });
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
export async function markEnvironment(deps: WorkerDeps, environmentId: number, status: 'active' | 'failed'): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const environment = await Environment.query(trx).findById(environmentId).forUpdate();
    if (!environment) return;
    await Environment.query(trx).patch({ status, updated_at: new Date() }).where({ id: environment.id }).whereNot('status', 'deleting');
    await Site.query(trx).patch({ status, updated_at: new Date() }).where({ id: environment.site_id, status: 'creating' });
  });
}
