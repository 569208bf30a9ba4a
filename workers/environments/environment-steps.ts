import { setTimeout as sleep } from 'node:timers/promises';
import { LABELS } from '../../shared/agent-protocol/commands.ts';
import { unseal } from '../../shared/crypto/sealed.ts';
import { Environment, type Node } from '../../shared/db/models.ts';
import { readInventory } from '../../shared/domains/wordpress/inventory.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { agentCommand, environmentOf, type EnvironmentStep } from './environment-context.ts';
import { mariadbExec } from './mariadb.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { writeEdgeRoute } from '../edge/edge-route.ts';
import { describeProbe, probeEdge, probeTarget, type EdgeAnswer } from '../edge/edge-probe.ts';
import { edgeContainerPayload, environmentUrl, helperFile, mariadbContainerPayload, siteContainerPayload, siteHost } from './site-runtime.ts';
import { runHelper } from './wordpress-helper.ts';

const VERIFY_TIMEOUT_MS = 30_000;

/**
 * The steps that build and check one environment on its node, shared by every operation that makes
 * or changes one (site.create, environment.create, site.clone, environment.push, PHP changes...).
 * Each reads the environment from `input.environment_id` and is idempotent.
 */

/** How long a database step waits for a MariaDB that is still starting (a node's first: it initialises its data directory). */
const MARIADB_READY_SECONDS = 90;

/**
 * The node's network, edge proxy and MariaDB: made by the first site of the node, present afterwards.
 * With `awaitMariadb: false` the step returns once MariaDB's container runs, not once it answers:
 * the caller's database step waits for it (createDatabase does), so a new node's MariaDB
 * initialises while the site's container starts and copies WordPress.
 */
export async function ensureNodeServices(
  deps: WorkerDeps,
  step: StepContext,
  stepName: string,
  node: Node,
  options: { awaitMariadb?: boolean } = {},
): Promise<Record<string, string>> {
  const layout = nodeLayout(node.id);
  const command = agentCommand(step, stepName, node.id);
  await runAgentCommand(deps, { ...command, part: 'network', kind: 'network.ensure', payload: { name: layout.network, labels: { [LABELS.role]: 'network' } } });
  const [edge, mariadb] = await Promise.all([
    runAgentCommand(deps, { ...command, part: 'edge', kind: 'container.ensure', payload: edgeContainerPayload(deps.config, node) }),
    runAgentCommand(deps, { ...command, part: 'mariadb', kind: 'container.ensure', payload: mariadbContainerPayload(deps.config, node) }),
  ]);
  const awaitMariadb = options.awaitMariadb ?? true;
  if (awaitMariadb) {
    await runAgentCommand(deps, {
      ...command,
      part: 'mariadb-ready',
      kind: 'container.exec',
      payload: { name: layout.mariadbContainer, cmd: WORDPRESS_RUNTIME.mariadbReadyCommand(MARIADB_READY_SECONDS) },
    });
  }
  await step.log(
    `edge ${layout.edgeContainer} ${edge.created ? 'created' : 'present'} on port ${node.edge_http_port}; MariaDB ${layout.mariadbContainer} ${mariadb.created ? 'created' : 'present'}${awaitMariadb ? ' and ready' : ''}`,
  );
  return { network: layout.network, edge: layout.edgeContainer, mariadb: layout.mariadbContainer };
}

/** The node's services for an environment step; MariaDB's readiness is left to the database step, which waits for it. */
export async function prepareNodeServices(step: EnvironmentStep): Promise<unknown> {
  const { node } = await environmentOf(step);
  return ensureNodeServices(step.deps, step, 'node_services', node, { awaitMariadb: false });
}

/** The environment's database and user, once the node's MariaDB answers (waited for in the same exec). */
export async function createDatabase(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const password = unseal(step.deps.secretKey, environment.db_password_sealed);
  // names come from the environment row (wp_<hex>); the password is base64url: nothing to escape
  const sql =
    `CREATE DATABASE IF NOT EXISTS \`${environment.db_name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; ` +
    `CREATE USER IF NOT EXISTS '${environment.db_user}'@'%' IDENTIFIED BY '${password}'; ` +
    `ALTER USER '${environment.db_user}'@'%' IDENTIFIED BY '${password}'; ` +
    `GRANT ALL PRIVILEGES ON \`${environment.db_name}\`.* TO '${environment.db_user}'@'%';`;
  await runAgentCommand(step.deps, {
    ...agentCommand(step, 'database', node.id),
    kind: 'container.exec',
    payload: { name: nodeLayout(node.id).mariadbContainer, ...mariadbExec(sql, { awaitReadySeconds: MARIADB_READY_SECONDS }) },
  });
  await step.log(`database ${environment.db_name} and user ${environment.db_user} ready`);
  return { db_name: environment.db_name, db_user: environment.db_user };
}

/** The environment's files and work directories, and the PHP helper its container mounts. */
export async function prepareFiles(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const layout = environmentLayout(environment);
  const command = agentCommand(step, 'files', node.id);
  // three independent commands: the node runs them side by side
  await Promise.all([
    runAgentCommand(step.deps, { ...command, part: 'files', kind: 'directory.ensure', payload: { path: layout.filesDir } }),
    runAgentCommand(step.deps, { ...command, part: 'work', kind: 'directory.ensure', payload: { path: layout.workDir } }),
    runAgentCommand(step.deps, { ...command, part: 'helper', kind: 'files.put', payload: { files: [helperFile(node.id)] } }),
  ]);
  return { files: layout.filesDir };
}

/**
 * PHP-FPM for the environment's PHP version (`input.php_version` when the operation changes it: the
 * spec changes, so the agent recreates the container; files and database stay). Its entrypoint
 * seeds WordPress into files that have none.
 */
export async function ensureContainer(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const phpVersion = step.input.php_version ?? environment.php_version;
  const payload = siteContainerPayload(step.deps.config, environment, phpVersion);
  const layout = environmentLayout(environment);
  const command = agentCommand(step, 'container', node.id);
  const ensured = await runAgentCommand(step.deps, { ...command, part: 'ensure', kind: 'container.ensure', payload });
  // One exec for both (each exec costs the engine a process start): the work directory becomes the
  // site user's (the helper writes answers and reads uploads there; the agent made it as its own),
  // then the seed waits for the entrypoint's copy of WordPress.
  const seeded = await runAgentCommand(step.deps, {
    ...command,
    part: 'owner-seed',
    kind: 'container.exec',
    payload: {
      name: layout.container,
      cmd: [
        'sh',
        '-c',
        `chown ${WORDPRESS_RUNTIME.siteUid}:${WORDPRESS_RUNTIME.siteGid} ${WORDPRESS_RUNTIME.workDir} && exec ${WORDPRESS_RUNTIME.seedCommand.join(' ')}`,
      ],
    },
  });
  if (phpVersion !== environment.php_version) {
    await Environment.query(step.deps.db).patch({ php_version: phpVersion, updated_at: new Date() }).where({ id: environment.id });
  }
  const state = ensured.recreated ? 'recreated' : ensured.created ? 'created' : 'present';
  await step.log(`container ${layout.container} (PHP ${phpVersion}) ${state}; files ${/"seeded":true/.test(seeded.stdout) ? 'seeded' : 'kept'}`);
  return { container: layout.container, image: payload.image, php_version: phpVersion, recreated: ensured.recreated };
}

/** wp-config.php for this environment: its database and its address (salts kept when there is one). */
export async function writeConfig(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  return writeWordpressConfig(step, 'configure', environment, node);
}

/** wp-config.php written from the step named `stepName`, with the URL in `scheme` (by default the one recorded). */
export async function writeWordpressConfig(
  step: StepContext,
  stepName: string,
  environment: Environment,
  node: Node,
  scheme: 'http' | 'https' = environment.url_scheme,
): Promise<{ created: unknown; salts: unknown }> {
  const config = await runHelper(step, stepName, environment, 'write-config', {
    db_host: nodeLayout(node.id).mariadbContainer,
    db_name: environment.db_name,
    db_user: environment.db_user,
    db_password: unseal(step.deps.secretKey, environment.db_password_sealed),
    url: environmentUrl(environment, scheme),
    table_prefix: environment.table_prefix,
  });
  return { created: config.created, salts: config.salts };
}

/** The edge serves the environment's domain from its container (with its certificate, redirect and password as its rows say). */
export async function routeEdge(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const written = await writeEdgeRoute(step.deps, { operation: step.operation, step: 'route' }, environment, node);
  return {
    primary: siteHost(environment),
    https: written.https,
    url_scheme: environment.url_scheme,
    hosts: [...new Set([siteHost(environment), environment.domain, ...written.domains])],
    config: written.files[0],
  };
}

/** What WordPress now runs (core, PHP, plugins, themes), recorded so the API shows it without asking the node. */
export async function recordInventory(step: EnvironmentStep): Promise<unknown> {
  const { environment } = await environmentOf(step);
  return recordInventoryAnswer(step, environment, await runHelper(step, 'inventory', environment, 'inventory', {}));
}

/** The helper's inventory answer (from an `inventory` run, or read by the `install` run) checked and recorded. */
export async function recordInventoryAnswer(step: EnvironmentStep, environment: Environment, answer: unknown): Promise<unknown> {
  const read = readInventory(answer);
  // the site's own PHP can shape what the helper prints: a malformed answer is refused, not stored
  if ('problem' in read) throw new StepFailed(`the site's WordPress inventory is not valid (${read.problem}); nothing was recorded`, { permanent: true });
  const found = read.inventory;
  await Environment.query(step.deps.db)
    .patch({ wordpress: found as never, wordpress_checked_at: new Date() })
    .where({ id: environment.id });
  await step.log(
    `WordPress ${found.version} on PHP ${found.php_version}: ${found.plugins.length} plugins (${found.plugins.filter((plugin) => plugin.active).length} active), theme ${found.theme}`,
  );
  return {
    version: found.version,
    php_version: found.php_version,
    blogname: found.blogname,
    plugins: found.plugins.length,
    themes: found.themes.length,
    theme: found.theme,
  };
}

/**
 * The front page through the edge, as a visitor gets it: 200 with the site's title (the one the
 * inventory read, else the one the site was created with). 502 and 504 are waited out for a while:
 * a recreated container needs a moment before php-fpm answers.
 */
export async function verifyFrontPage(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const title = (step.results.inventory as { blogname?: string } | undefined)?.blogname ?? environment.wordpress?.blogname ?? step.input.title ?? '';
  const host = siteHost(environment);
  const target = probeTarget(node, environment.url_scheme);
  const where = describeProbe(target, host);
  const deadline = Date.now() + VERIFY_TIMEOUT_MS;
  let answer: EdgeAnswer | { error: string };
  for (;;) {
    answer = await probeEdge(target, { host, environment, secretKey: step.deps.secretKey }).catch((error: Error) => ({ error: error.message }));
    const settled = 'status' in answer && answer.status !== 502 && answer.status !== 504;
    if (settled || Date.now() > deadline) break;
    await sleep(250);
  }
  if (!('status' in answer)) throw new StepFailed(`${where} did not answer: ${answer.error}`);
  if (answer.status !== 200) throw new StepFailed(`${where} answered ${answer.status}, not 200`);
  if (title !== '' && !answer.body.includes(escapeHtml(title)))
    throw new StepFailed(`${where} answered 200 without the title ${JSON.stringify(title)}: ${answer.body.slice(0, 200)}`);
  await step.log(`${environmentUrl(environment)}/ answers 200${title ? ' with its title' : ''}`);
  return { url: `${environmentUrl(environment)}/`, status: answer.status };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
