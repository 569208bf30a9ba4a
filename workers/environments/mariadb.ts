import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';

/**
 * `mariadb` as root through the socket of the node's MariaDB container. The SQL goes through the
 * exec's environment, not argv: a password in it is not in the command line a failure message quotes.
 * With `awaitReadySeconds` the same exec first waits for the server to answer (one exec instead of
 * two; a server already up answers its first ping at once).
 */
export function mariadbExec(sql: string, options: { awaitReadySeconds?: number } = {}): { cmd: string[]; env: Record<string, string> } {
  const run = 'printf %s "$BERTH_SQL" | mariadb --default-character-set=utf8mb4 -N -B';
  const ready = options.awaitReadySeconds === undefined ? '' : `${WORDPRESS_RUNTIME.mariadbReadyCommand(options.awaitReadySeconds).join(' ')} && `;
  return { cmd: ['sh', '-c', `${ready}${run}`], env: { BERTH_SQL: sql } };
}
