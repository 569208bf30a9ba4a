import type { CommandPayload } from '../../shared/agent-protocol/commands.ts';
import type { Environment } from '../../shared/db/models.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { EDGE_PURGE_COMMAND, EDGE_WORKER_USER } from '../../shared/wordpress/edge-cache.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { agentCommand, environmentOf } from '../environments/environment-context.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';

/** `berth-edge-purge` in the node's edge, as nginx's user (who owns the cache files): the environment's pages, all or `paths`. */
export function edgePurgePayload(environment: Pick<Environment, 'id' | 'node_id'>, paths: readonly string[] = []): CommandPayload<'container.exec'> {
  return {
    name: nodeLayout(environment.node_id).edgeContainer,
    user: EDGE_WORKER_USER,
    cmd: [...EDGE_PURGE_COMMAND, environmentLayout(environment).key, ...paths],
    env: {},
    ok_exit_codes: [0],
  };
}

type PurgeInput = { environment_id: number; paths?: string[] | undefined };

/**
 * `purge_cache`, the one step every operation that changes what an environment's pages show ends
 * with (pushes, copies, restores, PHP, plugin and theme changes, certificates, domains) and the
 * whole of `environment.cache_purge`: the environment's cached pages removed at its node's edge,
 * all of them or `input.paths`. An environment whose cache is off has nothing to purge: no command.
 */
export async function purgePageCache(step: StepContext<PurgeInput>): Promise<unknown> {
  const { environment } = await environmentOf(step);
  if (!environment.page_cache) {
    await step.log('page cache off: nothing to purge');
    return { skipped: 'page cache off' };
  }
  return purgeAtEdge(step);
}

/**
 * The purge itself, cache on or off: after a change of the cache's settings (`environment.edge`),
 * pages stored under the old settings must go even when the cache was just turned off, or turning
 * it on again could serve them.
 */
export async function purgeAtEdge(step: StepContext<PurgeInput>): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const paths = step.input.paths ?? [];
  const answer = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'purge_cache', node.id),
    kind: 'container.exec',
    payload: edgePurgePayload(environment, paths),
  });
  const removed = Number((/"removed":(\d+)/.exec(answer.stdout) ?? [])[1]);
  if (!Number.isInteger(removed)) throw new StepFailed(`the edge's purge answered ${JSON.stringify(answer.stdout.slice(0, 200))}`);
  await step.log(`${removed} cached page(s) removed${paths.length > 0 ? ` for ${paths.length} path(s)` : ''}`);
  return { removed, paths: paths.length > 0 ? paths : 'all' };
}
