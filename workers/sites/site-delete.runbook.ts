import { Environment, Site, type Operation } from '../../shared/db/models.ts';
import { SITE_DELETE_KIND, SITE_DELETE_STEPS } from '../../shared/domains/sites/site-plans.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type RunbookStep, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { mariadbExec } from './mariadb.ts';
import { environmentLayout, nodeLayout } from './node-layout.ts';

const COMMAND_TIMEOUT_SECONDS = 120;

type DeleteInput = { site_id: number; environment_ids: number[] };

/** The environments still to remove (all of them until the last step deletes the rows). */
async function environmentsOf(step: StepContext): Promise<Environment[]> {
  const input = step.operation.input as DeleteInput;
  return Environment.query(step.deps.db).whereIn('id', input.environment_ids).orderBy('id');
}

function agent(step: StepContext, name: string, environment: Environment, part: string) {
  return { operation: step.operation, step: name, part: `env-${environment.id}-${part}`, nodeId: environment.node_id, timeoutSeconds: COMMAND_TIMEOUT_SECONDS };
}

/** A node service the site would use but that was never made (site.create failed early): nothing to undo there. */
function neverMade(error: unknown): boolean {
  return error instanceof StepFailed && /^no container named /.test(error.message);
}

const steps: Record<string, RunbookStep['run']> = {
  async route(step) {
    for (const environment of await environmentsOf(step)) {
      const layout = environmentLayout(environment);
      const removed = await runAgentCommand(step.deps, { ...agent(step, 'route', environment, 'config'), kind: 'directory.remove', payload: { path: layout.edgeSiteFile } });
      try {
        await runAgentCommand(step.deps, { ...agent(step, 'route', environment, 'reload'), kind: 'container.exec', payload: { name: nodeLayout(environment.node_id).edgeContainer, cmd: WORDPRESS_RUNTIME.edgeReloadCommand } });
      } catch (error) {
        if (!neverMade(error)) throw error;
      }
      await step.log(`${environment.domain}: edge route ${removed.removed ? 'removed' : 'absent'}`);
    }
    return null;
  },

  async container(step) {
    for (const environment of await environmentsOf(step)) {
      const layout = environmentLayout(environment);
      const removed = await runAgentCommand(step.deps, { ...agent(step, 'container', environment, 'remove'), kind: 'container.remove', payload: { name: layout.container } });
      await step.log(`${environment.domain}: container ${layout.container} ${removed.removed ? 'removed' : 'absent'}`);
    }
    return null;
  },

  async database(step) {
    for (const environment of await environmentsOf(step)) {
      const sql = `DROP DATABASE IF EXISTS \`${environment.db_name}\`; DROP USER IF EXISTS '${environment.db_user}'@'%';`;
      try {
        await runAgentCommand(step.deps, { ...agent(step, 'database', environment, 'drop'), kind: 'container.exec', payload: { name: nodeLayout(environment.node_id).mariadbContainer, ...mariadbExec(sql) } });
      } catch (error) {
        if (!neverMade(error)) throw error;
      }
      await step.log(`${environment.domain}: database ${environment.db_name} and user ${environment.db_user} dropped`);
    }
    return null;
  },

  async files(step) {
    for (const environment of await environmentsOf(step)) {
      const { filesDir } = environmentLayout(environment);
      const directory = filesDir.slice(0, filesDir.lastIndexOf('/'));
      const removed = await runAgentCommand(step.deps, { ...agent(step, 'files', environment, 'remove'), kind: 'directory.remove', payload: { path: directory } });
      await step.log(`${environment.domain}: files ${removed.removed ? 'removed' : 'absent'}`);
    }
    return null;
  },

  /** The rows go last: until then a failed deletion can be asked again and finds what is left. */
  async records(step) {
    const { site_id: siteId } = step.operation.input as DeleteInput;
    const deleted = await Site.query(step.deps.db).deleteById(siteId);
    return { site_id: siteId, deleted: deleted > 0 };
  },
};

/** A deletion that failed leaves the site `failed`: its owner sees it and can delete it again. */
async function markFailed(deps: WorkerDeps, operation: Operation): Promise<void> {
  const { site_id: siteId } = operation.input as DeleteInput;
  await Site.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).where({ id: siteId });
  await Environment.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).where({ site_id: siteId });
}

/** `site.delete` (DELETE /v1/sites/{id}): everything site.create made on the node, then the rows. */
export const siteDeleteRunbook: Runbook = {
  kind: SITE_DELETE_KIND,
  steps: SITE_DELETE_STEPS.map((plan) => ({ ...plan, run: steps[plan.name]! })),
  result: (results) => results.records,
  onFailed: markFailed,
};
