import { unseal } from '../../shared/crypto/sealed.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { agentCommand, environmentOf, type EnvironmentStep } from './environment-context.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { scratchDatabasesSql, swapTablesSql } from './table-swap.ts';
import { siteHost } from './site-runtime.ts';
import { addressPairs } from '../edge/url-scheme.ts';
import { runHelper } from './wordpress-helper.ts';

/**
 * Copying one environment onto another on the same node (a new staging, a clone, a push): files,
 * database, then the source's address rewritten to the target's. The source is `input.source_environment_id`;
 * a push that leaves out the files or the database (`input.files` / `input.database` false) skips those steps.
 */

/** Each environment's own wp-config.php (its database, its address) is never copied over. */
const KEPT_BY_TARGET = ['wp-config.php'];

function skipped(step: EnvironmentStep, what: 'files' | 'database'): boolean {
  return step.input[what] === false;
}

/** The source's files mirrored into the target's, in place (its container keeps its mount). */
export async function copyFiles(step: EnvironmentStep): Promise<unknown> {
  if (skipped(step, 'files')) return { skipped: true };
  const { environment: target, node } = await environmentOf(step);
  const { environment: source } = await environmentOf(step, 'source_environment_id');
  const synced = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'copy_files', node.id),
    kind: 'directory.sync',
    payload: { source: environmentLayout(source).filesDir, target: environmentLayout(target).filesDir, exclude: KEPT_BY_TARGET, delete: true },
  });
  await step.log(
    `files of ${source.domain} copied: ${synced.copied} written, ${synced.skipped} unchanged, ${synced.deleted} removed (${synced.bytes_copied} bytes)`,
  );
  return synced;
}

/**
 * The source's database dumped (one consistent snapshot, the site keeps running) into a fresh
 * database beside the target's, whose tables then replace the target's in one atomic RENAME
 * (table-swap.ts): the target's site never sees half a database, and a retry starts over from the
 * dump. Triggers are not copied (RENAME cannot move them between databases; WordPress does not use them).
 *
 * Table names are the tenant's (any character, a backtick included), so only the tenants' own
 * MariaDB users touch them: the source's user dumps, the target's user loads the dump and swaps.
 * Root only makes and drops the two scratch databases and grants the target's user on them, with
 * names that are ours (checked by `ownIdentifier`). The SQL arrives in the exec's environment.
 */
const COPY_DATABASE_SCRIPT = String.raw`
set -euo pipefail
as_root() { mariadb --default-character-set=utf8mb4 -N -B -e "$1"; }
as_target() { MYSQL_PWD="$TARGET_PASSWORD" mariadb --default-character-set=utf8mb4 -N -B -u "$TARGET_USER" "$@"; }
as_root "$PREPARE_SQL"
MYSQL_PWD="$SOURCE_PASSWORD" mariadb-dump -u "$SOURCE_USER" --single-transaction --quick --skip-lock-tables --no-tablespaces --skip-triggers --default-character-set=utf8mb4 "$SOURCE_DB" \
  | as_target "$TARGET_DB"_in
tables=$(as_target -e "$SWAP_SQL" | tail -n 1)
as_root "$DROP_SQL"
echo "{\"tables\":$tables}"
`;

/** Database and user names are made by Berth (wp_<hex>); anything else is refused before it reaches SQL as root. */
function ownIdentifier(value: string, what: string): string {
  if (!/^[A-Za-z0-9_]{1,60}$/.test(value)) throw new Error(`refusing to copy: the ${what} "${value}" is not a name Berth makes`);
  return value;
}

export async function copyDatabase(step: EnvironmentStep): Promise<unknown> {
  if (skipped(step, 'database')) return { skipped: true };
  const { environment: target, node } = await environmentOf(step);
  const { environment: source } = await environmentOf(step, 'source_environment_id');
  const run = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'copy_database', node.id),
    kind: 'container.exec',
    payload: {
      name: nodeLayout(node.id).mariadbContainer,
      cmd: ['bash', '-c', COPY_DATABASE_SCRIPT],
      // passwords travel in the exec's environment (forgotten when the command ends), never in argv
      env: {
        SOURCE_DB: ownIdentifier(source.db_name, 'source database'),
        SOURCE_USER: ownIdentifier(source.db_user, 'source user'),
        SOURCE_PASSWORD: unseal(step.deps.secretKey, source.db_password_sealed),
        TARGET_DB: ownIdentifier(target.db_name, 'target database'),
        TARGET_USER: ownIdentifier(target.db_user, 'target user'),
        TARGET_PASSWORD: unseal(step.deps.secretKey, target.db_password_sealed),
        PREPARE_SQL: scratchDatabasesSql('prepare', target.db_name, target.db_user),
        SWAP_SQL: swapTablesSql(target.db_name, `${target.db_name}_in`, `${target.db_name}_out`),
        DROP_SQL: scratchDatabasesSql('drop', target.db_name, target.db_user),
      },
    },
  });
  const tables = Number((JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { tables?: number }).tables ?? 0);
  await step.log(`database of ${source.domain} copied: ${tables} tables`);
  return { tables };
}

/**
 * Every mention of the source's address in the target's database (`//production-x.example` in
 * links, options, serialized widgets, JSON) becomes the target's: the helper's search-replace keeps
 * PHP-serialized data valid.
 */
export async function rewriteUrls(step: EnvironmentStep): Promise<unknown> {
  if (skipped(step, 'database')) return { skipped: true };
  const { environment: target } = await environmentOf(step);
  const { environment: source } = await environmentOf(step, 'source_environment_id');
  const [from, to] = [siteHost(source), siteHost(target)];
  const replaced = await runHelper(step, 'rewrite_urls', target, 'search-replace', {
    pairs: addressPairs(from, to, { from: source.url_scheme, to: target.url_scheme }),
    json_escaped: true,
  });
  await step.log(
    `${from} → ${to}: ${String(replaced.cells_changed)} values in ${String(replaced.rows_changed)} rows (${String(replaced.serialized_values)} serialized)`,
  );
  return {
    from,
    to,
    rows_changed: replaced.rows_changed,
    cells_changed: replaced.cells_changed,
    serialized_values: replaced.serialized_values,
    skipped_values: replaced.skipped_values,
    invalid_values: replaced.invalid_values,
  };
}
