import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { LABELS } from '../../shared/agent-protocol/commands.ts';
import { unseal } from '../../shared/crypto/sealed.ts';
import { Environment, Node, Site, type Operation } from '../../shared/db/models.ts';
import { SITE_CREATE_KIND, SITE_CREATE_STEPS } from '../../shared/domains/sites/site-plans.ts';
import { renderEdgeSite } from '../../shared/wordpress/edge-site.ts';
import { WORDPRESS_RUNTIME, wordpressHelperSource } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type RunbookStep, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { mariadbExec } from './mariadb.ts';
import { environmentLayout, nodeLayout } from './node-layout.ts';
import { runHelper } from './wordpress-helper.ts';

const COMMAND_TIMEOUT_SECONDS = 120;
const VERIFY_TIMEOUT_MS = 30_000;

type CreateInput = { environment_id: number; title: string; admin_user: string; admin_email: string; locale: string };

async function environmentOf(step: StepContext): Promise<{ environment: Environment; node: Node; input: CreateInput }> {
  const input = step.operation.input as CreateInput;
  const environment = await Environment.query(step.deps.db).findById(input.environment_id);
  if (!environment) throw new StepFailed('the environment was deleted while it was being created', { permanent: true });
  const node = await Node.query(step.deps.db).findById(environment.node_id);
  if (!node) throw new StepFailed('the environment\'s node is gone', { permanent: true });
  return { environment, node, input };
}

function agent(step: StepContext, name: string, nodeId: string) {
  return { operation: step.operation, step: name, nodeId, timeoutSeconds: COMMAND_TIMEOUT_SECONDS };
}

/** The edge binds the node's public address when it is an IP of this host's, else every address. */
function edgeBindAddress(node: Node): string {
  return net.isIP(node.public_address ?? '') ? node.public_address! : '0.0.0.0';
}

const steps: Record<string, RunbookStep['run']> = {
  /** The node's edge proxy and MariaDB: made by the first site of the node, present afterwards. */
  async node_services(step) {
    const { node } = await environmentOf(step);
    const layout = nodeLayout(node.id);
    const { sites } = step.deps.config;
    const command = agent(step, 'node_services', node.id);
    await runAgentCommand(step.deps, { ...command, part: 'network', kind: 'network.ensure', payload: { name: layout.network, labels: { [LABELS.role]: 'network' } } });
    const [edge, mariadb] = await Promise.all([
      runAgentCommand(step.deps, {
        ...command, part: 'edge', kind: 'container.ensure',
        payload: {
          name: layout.edgeContainer, image: sites.edgeImage, labels: { [LABELS.role]: 'edge' }, network: layout.network,
          ports: [{ container: 80, host: node.edge_http_port, host_ip: edgeBindAddress(node) }],
          mounts: [
            { type: 'bind', source: layout.sitesDir, target: WORDPRESS_RUNTIME.edgeFilesRoot, read_only: true },
            { type: 'bind', source: layout.edgeSitesDir, target: WORDPRESS_RUNTIME.edgeSitesDir, read_only: true },
          ],
        },
      }),
      runAgentCommand(step.deps, {
        ...command, part: 'mariadb', kind: 'container.ensure',
        payload: {
          name: layout.mariadbContainer, image: sites.mariadbImage, labels: { [LABELS.role]: 'mariadb' }, network: layout.network,
          mounts: [{ type: 'bind', source: layout.mariadbDataDir, target: WORDPRESS_RUNTIME.mariadbDataDir }],
        },
      }),
    ]);
    await runAgentCommand(step.deps, { ...command, part: 'mariadb-ready', kind: 'container.exec', payload: { name: layout.mariadbContainer, cmd: WORDPRESS_RUNTIME.mariadbReadyCommand(90) } });
    await step.log(`edge ${layout.edgeContainer} ${edge.created ? 'created' : 'present'} on port ${node.edge_http_port}; MariaDB ${layout.mariadbContainer} ${mariadb.created ? 'created' : 'present'} and ready`);
    return { network: layout.network, edge: layout.edgeContainer, mariadb: layout.mariadbContainer };
  },

  async database(step) {
    const { environment, node } = await environmentOf(step);
    const password = unseal(step.deps.secretKey, environment.db_password_sealed);
    // names come from the environment row (wp_<hex>); the password is base64url: nothing to escape
    const sql =
      `CREATE DATABASE IF NOT EXISTS \`${environment.db_name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; ` +
      `CREATE USER IF NOT EXISTS '${environment.db_user}'@'%' IDENTIFIED BY '${password}'; ` +
      `ALTER USER '${environment.db_user}'@'%' IDENTIFIED BY '${password}'; ` +
      `GRANT ALL PRIVILEGES ON \`${environment.db_name}\`.* TO '${environment.db_user}'@'%';`;
    await runAgentCommand(step.deps, { ...agent(step, 'database', node.id), kind: 'container.exec', payload: { name: nodeLayout(node.id).mariadbContainer, ...mariadbExec(sql) } });
    await step.log(`database ${environment.db_name} and user ${environment.db_user} ready`);
    return { db_name: environment.db_name, db_user: environment.db_user };
  },

  /** The environment's files and work directories, and the PHP helper its container mounts. */
  async files(step) {
    const { environment, node } = await environmentOf(step);
    const layout = environmentLayout(environment);
    const command = agent(step, 'files', node.id);
    await runAgentCommand(step.deps, { ...command, part: 'files', kind: 'directory.ensure', payload: { path: layout.filesDir } });
    await runAgentCommand(step.deps, { ...command, part: 'work', kind: 'directory.ensure', payload: { path: layout.workDir } });
    await runAgentCommand(step.deps, {
      ...command, part: 'helper', kind: 'files.put',
      payload: { files: [{ path: `${nodeLayout(node.id).helperDir}/berth-helper.php`, content_base64: wordpressHelperSource().toString('base64'), mode: 0o644 }] },
    });
    return { files: layout.filesDir };
  },

  /** PHP-FPM for the environment's PHP version; its entrypoint seeds WordPress into the files. */
  async container(step) {
    const { environment, node } = await environmentOf(step);
    const image = step.deps.config.sites.phpImages[environment.php_version];
    if (!image) throw new StepFailed(`PHP ${environment.php_version} has no image configured (SITE_PHP_IMAGES)`, { permanent: true });
    const layout = environmentLayout(environment);
    const command = agent(step, 'container', node.id);
    const ensured = await runAgentCommand(step.deps, {
      ...command, part: 'ensure', kind: 'container.ensure',
      payload: {
        name: layout.container, image, network: nodeLayout(node.id).network,
        labels: { [LABELS.role]: 'site', [LABELS.site]: String(environment.site_id), [LABELS.environment]: String(environment.id) },
        mounts: [
          { type: 'bind', source: layout.filesDir, target: WORDPRESS_RUNTIME.docroot },
          { type: 'bind', source: nodeLayout(node.id).helperDir, target: WORDPRESS_RUNTIME.helperDir, read_only: true },
          { type: 'bind', source: layout.workDir, target: WORDPRESS_RUNTIME.workDir },
        ],
      },
    });
    // the work directory is the site user's (the helper writes answers and reads uploads there); the agent made it as its own
    await runAgentCommand(step.deps, { ...command, part: 'work-owner', kind: 'container.exec', payload: { name: layout.container, cmd: ['chown', `${WORDPRESS_RUNTIME.siteUid}:${WORDPRESS_RUNTIME.siteGid}`, WORDPRESS_RUNTIME.workDir] } });
    const seeded = await runAgentCommand(step.deps, { ...command, part: 'seed', kind: 'container.exec', payload: { name: layout.container, cmd: WORDPRESS_RUNTIME.seedCommand } });
    await step.log(`container ${layout.container} (PHP ${environment.php_version}) ${ensured.created ? 'created' : 'present'}; files ${/"seeded":true/.test(seeded.stdout) ? 'seeded' : 'kept'}`);
    return { container: layout.container, image };
  },

  async configure(step) {
    const { environment, node } = await environmentOf(step);
    const config = await runHelper(step, 'configure', environment, 'write-config', {
      db_host: nodeLayout(node.id).mariadbContainer,
      db_name: environment.db_name,
      db_user: environment.db_user,
      db_password: unseal(step.deps.secretKey, environment.db_password_sealed),
      url: `http://${environment.domain}`,
    });
    return { created: config.created, salts: config.salts };
  },

  /** WordPress installed; the admin's one-time password link goes straight to their mailbox, nowhere else. */
  async install(step) {
    const { environment, input } = await environmentOf(step);
    const url = `http://${environment.domain}`;
    const installed = await runHelper(step, 'install', environment, 'install', { title: input.title, admin_user: input.admin_user, admin_email: input.admin_email, locale: input.locale, url }, { secretOutput: true });
    const link = (installed.password_link as { url: string }).url;
    await step.deps.mailer.send({
      to: input.admin_email,
      subject: `Your WordPress site ${input.title} is ready: set your password`,
      text: `Your site ${url}/ is being set up. Set the password of its administrator ${input.admin_user} within 24 hours:\n\n${link}\n\nThen sign in at ${url}/wp-admin/.`,
      html: `<p>Your site <a href="${url}/">${url}/</a> is being set up.</p><p>Set the password of its administrator <b>${escapeHtml(input.admin_user)}</b> within 24 hours: <a href="${link}">set the password</a>.</p>`,
    });
    await step.log(`WordPress ${String(installed.version)} ${installed.created ? 'installed' : 'already installed'}; the password link was mailed to ${input.admin_email}`);
    return { created: installed.created, admin_user: installed.admin_user, url: installed.url, locale: installed.locale, version: installed.version, password_link_mailed_to: input.admin_email };
  },

  async route(step) {
    const { environment, node } = await environmentOf(step);
    const layout = environmentLayout(environment);
    const config = renderEdgeSite({ hosts: [environment.domain], filesRoot: layout.edgeFilesRoot, upstream: layout.container });
    const command = agent(step, 'route', node.id);
    await runAgentCommand(step.deps, { ...command, part: 'config', kind: 'files.put', payload: { files: [{ path: layout.edgeSiteFile, content_base64: Buffer.from(config).toString('base64') }] } });
    await runAgentCommand(step.deps, { ...command, part: 'reload', kind: 'container.exec', payload: { name: nodeLayout(node.id).edgeContainer, cmd: WORDPRESS_RUNTIME.edgeReloadCommand } });
    return { hosts: [environment.domain], config: layout.edgeSiteFile };
  },

  /** The front page through the edge, as a visitor gets it: 200 with the title. Then the site is active. */
  async verify(step) {
    const { environment, node, input } = await environmentOf(step);
    const address = node.public_address ?? node.ssh_host;
    const deadline = Date.now() + VERIFY_TIMEOUT_MS;
    let answer: { status: number; body: string } | { error: string };
    for (;;) {
      answer = await getThroughEdge(address, node.edge_http_port, environment.domain).catch((error: Error) => ({ error: error.message }));
      const settled = 'status' in answer && answer.status !== 502 && answer.status !== 504;
      if (settled || Date.now() > deadline) break;
      await sleep(250);
    }
    if (!('status' in answer)) throw new StepFailed(`http://${address}:${node.edge_http_port}/ (Host: ${environment.domain}) did not answer: ${answer.error}`);
    if (answer.status !== 200) throw new StepFailed(`http://${address}:${node.edge_http_port}/ (Host: ${environment.domain}) answered ${answer.status}, not 200`);
    if (!answer.body.includes(escapeHtml(input.title))) throw new StepFailed(`http://${address}:${node.edge_http_port}/ (Host: ${environment.domain}) answered 200 without the title ${JSON.stringify(input.title)}: ${answer.body.slice(0, 200)}`);
    await markSite(step.deps, step.operation, 'active');
    await step.log(`http://${environment.domain}/ answers 200 with its title`);
    return { url: `http://${environment.domain}/`, status: answer.status };
  },
};

function getThroughEdge(address: string, port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ agent: false, host: address, port, path: '/', headers: { host }, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('timed out after 10 s')));
    request.on('error', reject);
  });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The environment and its site take the operation's outcome. */
async function markSite(deps: WorkerDeps, operation: Operation, status: 'active' | 'failed'): Promise<void> {
  const { environment_id: environmentId } = operation.input as CreateInput;
  await deps.db.transaction(async (trx) => {
    const environment = await Environment.query(trx).findById(environmentId).forUpdate();
    if (!environment) return;
    // a deletion asked meanwhile (queued behind this operation) keeps its `deleting`
    await Environment.query(trx).patch({ status, updated_at: new Date() }).where({ id: environment.id }).whereNot('status', 'deleting');
    await Site.query(trx).patch({ status, updated_at: new Date() }).where({ id: environment.site_id }).whereNot('status', 'deleting');
  });
}

/** `site.create` (POST /v1/sites): the environment built on its node, step by step, until its front page answers. */
export const siteCreateRunbook: Runbook = {
  kind: SITE_CREATE_KIND,
  steps: SITE_CREATE_STEPS.map((plan) => ({ ...plan, run: steps[plan.name]! })),
  result: (results) => ({ ...(results.verify as Record<string, unknown>), install: results.install }),
  onFailed: (deps, operation) => markSite(deps, operation, 'failed'),
};
