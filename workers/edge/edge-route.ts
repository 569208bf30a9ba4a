import { Certificate, type Environment, type Node, type Operation } from '../../shared/db/models.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { COMMAND_TIMEOUT_SECONDS } from '../environments/environment-context.ts';
import { edgeRouteFiles } from '../environments/site-runtime.ts';
import type { WorkerDeps } from '../registry.ts';

/**
 * The certificate the edge serves an environment with: the newest installed one, on a node that
 * serves HTTPS. Only installed ones: a route naming certificate files not yet on the node would fail
 * the edge's reload for every site there (a certificate operation passes its own once written).
 */
export async function servedCertificate(
  deps: Pick<WorkerDeps, 'db'>,
  node: Pick<Node, 'edge_https_port'>,
  environmentId: number,
): Promise<Certificate | undefined> {
  if (!node.edge_https_port) return undefined;
  return Certificate.query(deps.db).where({ environment_id: environmentId, status: 'installed' }).orderBy('updated_at', 'desc').first();
}

/**
 * Writes the environment's edge route (and htpasswd) as its rows say now and reloads the edge.
 * `certificate`: the one to serve; by default the installed one. `part` names the commands apart
 * when a step writes the route more than once.
 */
export async function writeEdgeRoute(
  deps: WorkerDeps,
  at: { operation: Pick<Operation, 'id'>; step: string; part?: string },
  environment: Environment,
  node: Node,
  certificate?: Certificate | null,
): Promise<{ files: string[]; https: boolean; domains: readonly string[] }> {
  const domains = (await verifiedDomains(deps.db, [environment.id])).get(environment.id) ?? [];
  const served = certificate === null ? undefined : (certificate ?? (await servedCertificate(deps, node, environment.id)));
  const files = edgeRouteFiles(environment, { domains, certificate: served, secretKey: deps.secretKey });
  const command = { operation: at.operation, step: at.step, nodeId: node.id, timeoutSeconds: COMMAND_TIMEOUT_SECONDS };
  const part = at.part ? `${at.part}-` : '';
  await runAgentCommand(deps, { ...command, part: `${part}config`, kind: 'files.put', payload: { files } });
  await runAgentCommand(deps, {
    ...command,
    part: `${part}reload`,
    kind: 'container.exec',
    payload: { name: nodeLayout(node.id).edgeContainer, cmd: WORDPRESS_RUNTIME.edgeReloadCommand },
  });
  return { files: files.map((file) => file.path), https: served !== undefined, domains };
}
