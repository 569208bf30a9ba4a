import type { Environment } from '../../db/models.ts';
import { NODE_EDGE_LOGS_DIR, NODE_SITES_DIR, environmentLogPaths } from '../../agent-protocol/log-files.ts';
import { nodeNetworkName } from './runtime-names.ts';
import { edgeSiteFileName } from '../../wordpress/edge-site.ts';
import { WORDPRESS_RUNTIME } from '../../wordpress/runtime.ts';

/**
 * Where a node keeps its sites: container names (carrying the node id, like nodeNetworkName, since
 * several nodes may share one engine) and paths relative to the agent's data directory.
 */
export function nodeLayout(nodeId: string) {
  const prefix = nodeNetworkName(nodeId);
  return {
    network: prefix,
    edgeContainer: `${prefix}-edge`,
    mariadbContainer: `${prefix}-mariadb`,
    /** Every environment's files live below it; the edge mounts it read-only at edgeFilesRoot. */
    sitesDir: NODE_SITES_DIR,
    edgeSitesDir: 'edge/sites',
    /** Certificates and keys the edge serves HTTPS with (read-only to it), one pair per environment. */
    edgeCertsDir: 'edge/certs',
    /** ACME HTTP-01 answers (`.well-known/acme-challenge/<token>`), served by the edge for every site (read-only to it). */
    edgeAcmeDir: 'edge/acme',
    /** The environments' access and error logs, written by the edge (its only writable mount), read and shipped by the agent. */
    edgeLogsDir: NODE_EDGE_LOGS_DIR,
    mariadbDataDir: 'mariadb/data',
    helperDir: 'wordpress-helper',
  };
}

export function environmentLayout(environment: Pick<Environment, 'id' | 'node_id'>) {
  const node = nodeLayout(environment.node_id);
  const key = `env-${environment.id}`;
  return {
    key,
    container: `${node.network}-${key}`,
    filesDir: `${node.sitesDir}/${key}/files`,
    workDir: `${node.sitesDir}/${key}/work`,
    /** php-fpm's socket directory: mounted by this environment's container and (within sitesDir) the edge, no other. */
    runDir: `${node.sitesDir}/${key}/run`,
    /** The files as the edge container sees them. */
    edgeFilesRoot: `${WORDPRESS_RUNTIME.edgeFilesRoot}/${key}/files`,
    edgeFastcgiSocket: `${WORDPRESS_RUNTIME.edgeFilesRoot}/${key}/run/${WORDPRESS_RUNTIME.fpmSocketName}`,
    edgeSiteFile: `${node.edgeSitesDir}/${edgeSiteFileName(key)}`,
    /** Basic-auth users of a protected environment (user:hash), beside its site file; nginx includes only *.conf. */
    htpasswdFile: `${node.edgeSitesDir}/${key}.htpasswd`,
    edgeHtpasswdFile: `${WORDPRESS_RUNTIME.edgeSitesDir}/${key}.htpasswd`,
    certificateFile: `${node.edgeCertsDir}/${key}.crt`,
    certificateKeyFile: `${node.edgeCertsDir}/${key}.key`,
    edgeCertificateFile: `${WORDPRESS_RUNTIME.edgeCertsDir}/${key}.crt`,
    edgeCertificateKeyFile: `${WORDPRESS_RUNTIME.edgeCertsDir}/${key}.key`,
    /** Its logs on the node (the agent reads them) and as the edge writes them; php.log is php-fpm's (www.conf), in the work directory. */
    logFiles: environmentLogPaths(key),
    edgeLogFiles: { access: `${WORDPRESS_RUNTIME.edgeLogsDir}/${key}.access.log`, error: `${WORDPRESS_RUNTIME.edgeLogsDir}/${key}.error.log` },
  };
}
