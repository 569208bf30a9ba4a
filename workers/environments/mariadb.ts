/**
 * `mariadb` as root through the socket of the node's MariaDB container. The SQL goes through the
 * exec's environment, not argv: a password in it is not in the command line a failure message quotes.
 */
export function mariadbExec(sql: string): { cmd: string[]; env: Record<string, string> } {
  return { cmd: ['sh', '-c', 'printf %s "$BERTH_SQL" | mariadb --default-character-set=utf8mb4 -N -B'], env: { BERTH_SQL: sql } };
}
