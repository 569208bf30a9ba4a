/**
 * One RENAME TABLE that moves every table of `database` into `outgoing` and every table of
 * `incoming` into `database`: the site never sees half a database. Run as the target's own MariaDB
 * user (granted on the two scratch databases), never as root, since the table names are the
 * tenant's: they are quoted inside the server (backticks doubled) and the statement is prepared
 * there, so no table name passes through a shell or a client's output. Only while `incoming` holds
 * tables: a retry after the swap finds it empty and changes nothing. Prints the number moved in.
 *
 * The database names are Berth's own (`wp_<hex>`, with `_in` / `_out`), checked here before they
 * reach SQL.
 */
export function swapTablesSql(database: string, incoming: string, outgoing: string): string {
  for (const name of [database, incoming, outgoing]) {
    if (!/^[A-Za-z0-9_]{1,64}$/.test(name)) throw new Error(`refusing to swap tables: "${name}" is not a database name Berth makes`);
  }
  const quotedTable = "REPLACE(table_name, '`', '``')";
  return `
SET SESSION group_concat_max_len = 16777216;
SELECT COUNT(*) INTO @incoming FROM information_schema.tables WHERE table_schema = '${incoming}';
SELECT GROUP_CONCAT(move ORDER BY step, name SEPARATOR ', ') INTO @moves FROM (
  SELECT 1 AS step, table_name AS name, CONCAT('\`${database}\`.\`', ${quotedTable}, '\` TO \`${outgoing}\`.\`', ${quotedTable}, '\`') AS move
    FROM information_schema.tables WHERE table_schema = '${database}'
  UNION ALL
  SELECT 2, table_name, CONCAT('\`${incoming}\`.\`', ${quotedTable}, '\` TO \`${database}\`.\`', ${quotedTable}, '\`')
    FROM information_schema.tables WHERE table_schema = '${incoming}'
) AS moves;
SET @rename = IF(@incoming = 0 OR @moves IS NULL, 'DO 0', CONCAT('RENAME TABLE ', @moves));
PREPARE swap_tables FROM @rename;
EXECUTE swap_tables;
DEALLOCATE PREPARE swap_tables;
SELECT @incoming;`;
}

/**
 * Root's part around a swap, on names Berth made: the two scratch databases made afresh with the
 * target's user granted on them (`prepare`), or dropped with the grants revoked (`drop`).
 */
export function scratchDatabasesSql(action: 'prepare' | 'drop', database: string, user: string): string {
  for (const name of [database, user]) {
    if (!/^[A-Za-z0-9_]{1,60}$/.test(name)) throw new Error(`refusing scratch databases: "${name}" is not a name Berth makes`);
  }
  const scratch = ['_in', '_out'].map((suffix) => `\`${database}${suffix}\``);
  if (action === 'prepare') {
    return scratch
      .map(
        (name) =>
          `DROP DATABASE IF EXISTS ${name}; CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; GRANT ALL PRIVILEGES ON ${name}.* TO '${user}'@'%';`,
      )
      .join(' ');
  }
  // the drops first: a REVOKE of a grant already gone fails (there is no REVOKE IF EXISTS), and the client stops at a failure
  return [
    ...scratch.map((name) => `DROP DATABASE IF EXISTS ${name};`),
    ...scratch.map((name) => `REVOKE ALL PRIVILEGES ON ${name}.* FROM '${user}'@'%';`),
  ].join(' ');
}
