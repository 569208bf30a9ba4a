import { runAgentCommand } from '../agent/run-command.ts';
import type { StepContext } from '../operations/runbook.ts';
import { agentCommand, environmentOf } from './environment-context.ts';
import { environmentLayout, nodeLayout } from './node-layout.ts';
import { runHelper } from './wordpress-helper.ts';

/**
 * Copying one environment onto another on the same node (a new staging, a clone, a push): files,
 * database, then the source's address rewritten to the target's. The source is `input.source_environment_id`;
 * a push that leaves out the files or the database (`input.files` / `input.database` false) skips those steps.
 */

/** Each environment's own wp-config.php (its database, its address) is never copied over. */
const KEPT_BY_TARGET = ['wp-config.php'];

function skipped(step: StepContext, what: 'files' | 'database'): boolean {
  return step.operation.input[what] === false;
}

/** The source's files mirrored into the target's, in place (its container keeps its mount). */
export async function copy_files(step: StepContext): Promise<unknown> {
  if (skipped(step, 'files')) return { skipped: true };
  const { environment: target, node } = await environmentOf(step);
  const { environment: source } = await environmentOf(step, 'source_environment_id');
  const synced = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'copy_files', node.id),
    kind: 'directory.sync',
    payload: { source: environmentLayout(source).filesDir, target: environmentLayout(target).filesDir, exclude: KEPT_BY_TARGET, delete: true },
  });
  await step.log(`files of ${source.domain} copied: ${synced.copied} written, ${synced.skipped} unchanged, ${synced.deleted} removed (${synced.bytes_copied} bytes)`);
  return synced;
}

/**
 * The source's database dumped (one consistent snapshot, the site keeps running) into a fresh
 * database beside the target's, whose tables then replace the target's in one atomic RENAME: the
 * target's site never sees half a database, and a retry starts over from the dump. Triggers are not
 * copied (RENAME cannot move them between databases; WordPress does not use them).
 */
const COPY_DATABASE_SCRIPT = String.raw`
set -euo pipefail
incoming="$TARGET_DB"_in; outgoing="$TARGET_DB"_out
sql() { mariadb --default-character-set=utf8mb4 -N -B -e "$1"; }
sql "DROP DATABASE IF EXISTS \`$incoming\`; DROP DATABASE IF EXISTS \`$outgoing\`;
     CREATE DATABASE \`$incoming\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
     CREATE DATABASE \`$outgoing\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;"
mariadb-dump --single-transaction --quick --skip-lock-tables --skip-triggers --default-character-set=utf8mb4 "$SOURCE_DB" \
  | mariadb --default-character-set=utf8mb4 "$incoming"
moves() { sql "SELECT CONCAT('\`', table_schema, '\`.\`', table_name, '\` TO \`$2\`.\`', table_name, '\`') FROM information_schema.tables WHERE table_schema = '$1' ORDER BY table_name"; }
renames=$( { moves "$TARGET_DB" "$outgoing"; moves "$incoming" "$TARGET_DB"; } | paste -sd, -)
tables=$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$incoming'")
[ -z "$renames" ] || sql "RENAME TABLE $renames"
sql "DROP DATABASE \`$incoming\`; DROP DATABASE \`$outgoing\`;"
echo "{\"tables\":$tables}"
`;

export async function copy_database(step: StepContext): Promise<unknown> {
  if (skipped(step, 'database')) return { skipped: true };
  const { environment: target, node } = await environmentOf(step);
  const { environment: source } = await environmentOf(step, 'source_environment_id');
  const run = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'copy_database', node.id),
    kind: 'container.exec',
    payload: { name: nodeLayout(node.id).mariadbContainer, cmd: ['bash', '-c', COPY_DATABASE_SCRIPT], env: { SOURCE_DB: source.db_name, TARGET_DB: target.db_name } },
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
export async function rewrite_urls(step: StepContext): Promise<unknown> {
  if (skipped(step, 'database')) return { skipped: true };
  const { environment: target } = await environmentOf(step);
  const { environment: source } = await environmentOf(step, 'source_environment_id');
  const replaced = await runHelper(step, 'rewrite_urls', target, 'search-replace', { old: `//${source.domain}`, new: `//${target.domain}`, json_escaped: true });
  await step.log(`${source.domain} → ${target.domain}: ${String(replaced.cells_changed)} values in ${String(replaced.rows_changed)} rows (${String(replaced.serialized_values)} serialized)`);
  return { from: source.domain, to: target.domain, rows_changed: replaced.rows_changed, cells_changed: replaced.cells_changed, serialized_values: replaced.serialized_values, skipped_values: replaced.skipped_values, invalid_values: replaced.invalid_values };
}
