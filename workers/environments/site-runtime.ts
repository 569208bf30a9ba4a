import net from 'node:net';
import { LABELS, type CommandPayload } from '../../shared/agent-protocol/commands.ts';
import type { Config } from '../../shared/config/config.ts';
import { unseal } from '../../shared/crypto/sealed.ts';
import type { Db } from '../../shared/db/knex.ts';
import { Certificate, type Environment, type Node } from '../../shared/db/models.ts';
import { renderEdgeSite } from '../../shared/wordpress/edge-site.ts';
import { edgeProbeToken, httpsState } from '../../shared/domains/edge/edge-settings.ts';
import { WORDPRESS_RUNTIME, wordpressHelperSource } from '../../shared/wordpress/runtime.ts';
import { StepFailed } from '../operations/runbook.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';

/**
 * What a node runs for its sites, derived from the control plane's rows alone: the same rows give
 * the same specs (and the same spec hash), so creating, changing and reconciling agree, and
 * `container.ensure` recreates a container only when its spec really changed.
 */

/**
 * Processes and threads one site container may hold at once (its cgroup's pids.max): php-fpm's pool
 * (8 children), the helper and what WordPress spawns fit many times over; a fork bomb stops here
 * instead of filling the node's process table.
 */
export const SITE_PIDS_LIMIT = 512;
/** The node's own services: bounded too, so nothing in them can starve the node of processes. */
const NODE_SERVICE_PIDS_LIMIT = 1024;

/**
 * The CPU of a container in thousandths of a core, applied twice: as a ceiling (NanoCpus, a CFS
 * quota: a site never takes more than its plan, even from an idle node) and as a weight (CpuShares,
 * 1024 per core: when the node is oversold and busy, sites share it in proportion to their plans).
 */
export function cpuLimits(millicores: number): Pick<CommandPayload<'container.ensure'>, 'nano_cpus' | 'cpu_shares'> {
  return { nano_cpus: millicores * 1_000_000, cpu_shares: Math.max(2, Math.round((millicores * 1024) / 1000)) };
}

/** Every capability dropped but the ones named, and no way to gain any back (setuid binaries, file capabilities). */
function confined(
  capabilities: string[],
  pidsLimit: number,
): Pick<CommandPayload<'container.ensure'>, 'pids_limit' | 'no_new_privileges' | 'cap_drop' | 'cap_add'> {
  return { pids_limit: pidsLimit, no_new_privileges: true, cap_drop: ['ALL'], cap_add: capabilities };
}

/** The edge binds the node's public address when it is an IP of this host's, else every address. */
function edgeBindAddress(node: Node): string {
  return net.isIP(node.public_address ?? '') ? node.public_address! : '0.0.0.0';
}

export function edgeContainerPayload(config: Config, node: Node): CommandPayload<'container.ensure'> {
  const layout = nodeLayout(node.id);
  return {
    name: layout.edgeContainer,
    image: config.sites.edgeImage,
    labels: { [LABELS.role]: 'edge' },
    network: layout.network,
    ports: [
      { container: 80, host: node.edge_http_port, host_ip: edgeBindAddress(node) },
      ...(node.edge_https_port ? [{ container: 443, host: node.edge_https_port, host_ip: edgeBindAddress(node) }] : []),
    ],
    mounts: [
      { type: 'bind', source: layout.sitesDir, target: WORDPRESS_RUNTIME.edgeFilesRoot, read_only: true },
      { type: 'bind', source: layout.edgeSitesDir, target: WORDPRESS_RUNTIME.edgeSitesDir, read_only: true },
      ...(node.edge_https_port ? [{ type: 'bind' as const, source: layout.edgeCertsDir, target: WORDPRESS_RUNTIME.edgeCertsDir, read_only: true }] : []),
      { type: 'bind', source: layout.edgeAcmeDir, target: WORDPRESS_RUNTIME.edgeAcmeDir, read_only: true },
      { type: 'bind', source: layout.edgeLogsDir, target: WORDPRESS_RUNTIME.edgeLogsDir },
    ],
    ...confined(WORDPRESS_RUNTIME.edgeCapabilities, NODE_SERVICE_PIDS_LIMIT),
  };
}

export function mariadbContainerPayload(config: Config, node: Node): CommandPayload<'container.ensure'> {
  const layout = nodeLayout(node.id);
  return {
    name: layout.mariadbContainer,
    image: config.sites.mariadbImage,
    labels: { [LABELS.role]: 'mariadb' },
    network: layout.network,
    // the sites hold its address in /etc/hosts: a new image or setting must not move it
    keep_address: true,
    mounts: [{ type: 'bind', source: layout.mariadbDataDir, target: WORDPRESS_RUNTIME.mariadbDataDir }],
    ...confined(WORDPRESS_RUNTIME.mariadbCapabilities, NODE_SERVICE_PIDS_LIMIT),
  };
}

/** The image of a PHP version; a version without one fails the step for good. */
export function phpImage(config: Config, phpVersion: string): string {
  const image = config.sites.phpImages[phpVersion];
  if (!image) throw new StepFailed(`PHP ${phpVersion} has no image configured (SITE_PHP_IMAGES)`, { permanent: true });
  return image;
}

/**
 * The environment's PHP-FPM container: its files, the helper (read-only), its work directory, and
 * the directory of its FastCGI socket, which only the edge shares. It is on the node's network for
 * MariaDB; its php-fpm listens on no port, so no other site can reach it. Its memory and CPU come
 * from the plan (kept on the environment); its processes, capabilities and privileges are bounded.
 */
export function siteContainerPayload(config: Config, environment: Environment, phpVersion = environment.php_version): CommandPayload<'container.ensure'> {
  const layout = environmentLayout(environment);
  const node = nodeLayout(environment.node_id);
  return {
    name: layout.container,
    image: phpImage(config, phpVersion),
    network: node.network,
    // MariaDB by /etc/hosts, not the engine's DNS: a lookup that stalls is a site that says "Error establishing a database connection"
    hosts: [node.mariadbContainer],
    labels: { [LABELS.role]: 'site', [LABELS.site]: String(environment.site_id), [LABELS.environment]: String(environment.id) },
    mounts: [
      { type: 'bind', source: layout.filesDir, target: WORDPRESS_RUNTIME.docroot },
      { type: 'bind', source: node.helperDir, target: WORDPRESS_RUNTIME.helperDir, read_only: true },
      { type: 'bind', source: layout.workDir, target: WORDPRESS_RUNTIME.workDir },
      { type: 'bind', source: layout.runDir, target: WORDPRESS_RUNTIME.fpmSocketDir },
    ],
    memory_bytes: Number(environment.memory_limit_bytes),
    ...cpuLimits(environment.cpu_limit_millicores),
    ...confined(WORDPRESS_RUNTIME.siteCapabilities, SITE_PIDS_LIMIT),
  };
}

/** What an environment's edge route is made of besides the environment's row. */
export type EdgeRouteInputs = {
  /** Its verified custom domains (redirected to the primary). */
  domains: readonly string[];
  /** The certificate the edge serves it with (installed, or being installed by this operation); none: HTTP only. */
  certificate: Certificate | undefined;
  secretKey: Buffer;
};

/**
 * The edge's configuration for the environment (its default address, its verified domains, HTTPS
 * with the redirect and HSTS while WordPress's URLs are https, basic auth) and its htpasswd file
 * (empty when the environment is not protected).
 */
export function edgeRouteFiles(environment: Environment, inputs: EdgeRouteInputs): CommandPayload<'files.put'>['files'] {
  const layout = environmentLayout(environment);
  const primary = siteHost(environment);
  // the site at its primary address and its default one (WordPress sends the latter on); any other domain redirected to the primary
  const hosts = primary === environment.domain ? [primary] : [primary, environment.domain];
  const redirectHosts = inputs.domains.filter((domain) => !hosts.includes(domain));
  const https = httpsState(environment, inputs.certificate);
  const protectedBy = environment.password_protection_username && environment.password_protection_hash;
  const config = renderEdgeSite({
    key: layout.key,
    hosts,
    redirectHosts,
    filesRoot: layout.edgeFilesRoot,
    fastcgiSocket: layout.edgeFastcgiSocket,
    acmeChallengeRoot: WORDPRESS_RUNTIME.edgeAcmeDir,
    ...(inputs.certificate ? { tls: { certificate: layout.edgeCertificateFile, key: layout.edgeCertificateKeyFile, names: inputs.certificate.names } } : {}),
    // the redirect follows WordPress's own URLs: it starts once they are https and stops before they go back
    forceHttps: inputs.certificate !== undefined && https.certificate_covers && environment.url_scheme === 'https',
    hstsMaxAgeSeconds: https.hsts_max_age_seconds,
    ...(protectedBy ? { basicAuth: { userFile: layout.edgeHtpasswdFile } } : {}),
    probeToken: edgeProbeToken(inputs.secretKey, environment.id),
    ...(environment.page_cache ? { cache: { exclusions: environment.cache_exclusions } } : {}),
    logs: layout.edgeLogFiles,
  });
  const htpasswd = protectedBy ? `${environment.password_protection_username}:${environment.password_protection_hash}\n` : '';
  return [
    { path: layout.edgeSiteFile, content_base64: Buffer.from(config).toString('base64') },
    { path: layout.htpasswdFile, content_base64: Buffer.from(htpasswd).toString('base64'), mode: 0o644 },
  ];
}

/** The PHP helper, where every site container of the node mounts it (read-only). */
export function helperFile(nodeId: string): CommandPayload<'files.put'>['files'][number] {
  return { path: `${nodeLayout(nodeId).helperDir}/berth-helper.php`, content_base64: wordpressHelperSource().toString('base64'), mode: 0o644 };
}

/** The host WordPress answers at: the environment's primary domain, or its default address. */
export function siteHost(environment: Pick<Environment, 'domain' | 'primary_domain'>): string {
  return environment.primary_domain ?? environment.domain;
}

/** The address a visitor uses: the environment's primary host, in the scheme WordPress's URLs use now. */
export function environmentUrl(environment: Pick<Environment, 'domain' | 'primary_domain' | 'url_scheme'>, scheme = environment.url_scheme): string {
  return `${scheme}://${siteHost(environment)}`;
}

/** The environment's certificate chain and key where the edge reads them; the key marked secret (dropped from the stored command). */
export function certificateFiles(secretKey: Buffer, environment: Environment, certificate: Certificate): CommandPayload<'files.put'>['files'] {
  const layout = environmentLayout(environment);
  return [
    { path: layout.certificateFile, content_base64: Buffer.from(certificate.certificate_pem).toString('base64'), mode: 0o644 },
    { path: layout.certificateKeyFile, content_base64: Buffer.from(unseal(secretKey, certificate.key_sealed)).toString('base64'), mode: 0o600, secret: true },
  ];
}

/**
 * The environments (of these) with an installed certificate, on a node that serves HTTPS. Only
 * installed ones: a route naming certificate files not yet on the node would fail the edge's reload
 * for every site there (a certificate operation's own route step adds its certificate once written).
 */
export async function environmentsWithTls(db: Db, node: Pick<Node, 'edge_https_port'>, environmentIds: number[]): Promise<Map<number, Certificate>> {
  if (!node.edge_https_port || environmentIds.length === 0) return new Map();
  const rows = await Certificate.query(db).whereIn('environment_id', environmentIds).where({ status: 'installed' });
  return new Map(rows.map((row) => [row.environment_id, row]));
}
