import type { EnvironmentLogFile } from './protocol.ts';

/**
 * Where an environment's logs are on its node, relative to the agent's data directory: the edge
 * writes access and error (edge/logs, its only writable mount), php-fpm writes php.log in the
 * environment's work directory (ops/images/php/www.conf). Here, not in shared/domains/nodes, because
 * the agent reads them and shares only the protocol with the control plane (node-layout.ts uses it).
 */
export const NODE_SITES_DIR = 'sites';
export const NODE_EDGE_LOGS_DIR = 'edge/logs';
export const environmentKeyPattern = /^env-(\d{1,9})$/;

export function environmentLogPaths(key: string): Record<EnvironmentLogFile, string> {
  return {
    access: `${NODE_EDGE_LOGS_DIR}/${key}.access.log`,
    error: `${NODE_EDGE_LOGS_DIR}/${key}.error.log`,
    php: `${NODE_SITES_DIR}/${key}/work/php.log`,
  };
}
