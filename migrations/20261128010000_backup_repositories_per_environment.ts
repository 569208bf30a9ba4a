import type { Knex } from 'knex';

/**
 * One restic repository per environment (issue 19): its password opens that environment's snapshots
 * and no other's. Until now each node had one repository (backup_repositories), whose password opened
 * every team's snapshots on the node. Backups already in it are marked `repository = 'node'`; each
 * environment's next backup copies them into its own repository (restic copy), points their rows at
 * the copies and forgets them in the node's; once no backup of the node is left there, the node's
 * repository is pruned and its record removed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('environment_backup_repositories', (table) => {
    table.integer('environment_id').primary().references('environments.id').onDelete('CASCADE');
    table.uuid('node_id').notNullable();
    table.text('password_sealed').notNullable();
    table.timestamp('initialized_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('backups', (table) => {
    table.text('repository').notNullable().defaultTo('environment');
  });
  await knex('backups').update({ repository: 'node' });
  await knex.raw("ALTER TABLE backups ADD CONSTRAINT backups_repository CHECK (repository IN ('environment', 'node'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE backups DROP CONSTRAINT IF EXISTS backups_repository');
  await knex.schema.alterTable('backups', (table) => table.dropColumn('repository'));
  await knex.schema.dropTableIfExists('environment_backup_repositories');
}
