import type { Knex } from 'knex';

/**
 * A backup's retention forgets what the plan no longer keeps but leaves the repository's unused data
 * where it is (issue 24: a prune on every backup cost seconds); the maintenance sweep prunes each
 * repository later, at most once per BACKUP_PRUNE_INTERVAL_SECONDS. `forgotten_at`: the first forget
 * since the last prune (null: nothing to prune); `pruned_at`: the last prune. `quick_key_at`: when
 * a node-local repository's calibrated scrypt key was replaced by a quick one (restic-quick-key.ts),
 * so each restic run opens it in a millisecond instead of half a second or more.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environment_backup_repositories', (table) => {
    table.timestamp('forgotten_at', { useTz: true });
    table.timestamp('pruned_at', { useTz: true });
    table.timestamp('quick_key_at', { useTz: true });
    table.index(['forgotten_at'], 'environment_backup_repositories_forgotten_at', { predicate: knex.whereNotNull('forgotten_at') });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environment_backup_repositories', (table) => {
    table.dropIndex(['forgotten_at'], 'environment_backup_repositories_forgotten_at');
    table.dropColumn('forgotten_at');
    table.dropColumn('pruned_at');
    table.dropColumn('quick_key_at');
  });
}
