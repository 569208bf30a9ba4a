import type { Knex } from 'knex';

/**
 * Backups of environments (issue 12). Each node keeps one restic repository (encrypted, deduplicated)
 * whose password is Berth's, sealed here; a backup is one restic snapshot of an environment's files
 * and database dump, described by a row. Schedules fire backups per environment (5-field cron in a
 * time zone); a slot of a schedule makes at most one backup (unique schedule_id + slot_at), however
 * many scheduler ticks see it. The plan keeps N scheduled (daily) and M manual backups.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('backup_repositories', (table) => {
    table.uuid('node_id').primary().references('nodes.id').onDelete('CASCADE');
    table.text('password_sealed').notNullable();
    table.timestamp('initialized_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('backup_schedules', (table) => {
    table.bigIncrements('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    table.text('cron').notNullable();
    table.text('timezone').notNullable();
    table.boolean('enabled').notNullable().defaultTo(true);
    table.timestamp('next_run_at', { useTz: true }).notNullable();
    table.timestamp('last_slot_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['environment_id']);
  });
  // the scheduler's tick reads only what is due: O(due), whatever the number of schedules
  await knex.raw('CREATE INDEX backup_schedules_due ON backup_schedules (next_run_at) WHERE enabled');
  await knex.schema.createTable('backups', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('site_id').notNullable().references('sites.id').onDelete('CASCADE');
    table.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    table.uuid('node_id').notNullable();
    table.text('kind').notNullable(); // manual | scheduled | pre_restore | pre_push
    table.text('status').notNullable().defaultTo('pending'); // pending | running | succeeded | failed | expired
    table.text('note');
    // the address WordPress answered at when the snapshot was taken: a restore rewrites from it
    table.text('host');
    table.uuid('operation_id');
    table.bigInteger('schedule_id').references('backup_schedules.id').onDelete('SET NULL');
    table.timestamp('slot_at', { useTz: true });
    table.text('snapshot_id');
    table.bigInteger('size_bytes');
    table.bigInteger('added_bytes');
    table.integer('file_count');
    table.bigInteger('database_bytes');
    table.text('error');
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('finished_at', { useTz: true });
    table.unique(['schedule_id', 'slot_at']);
    table.index(['environment_id', 'created_at']);
  });
  await knex.raw("ALTER TABLE backups ADD CONSTRAINT backups_kind CHECK (kind IN ('manual', 'scheduled', 'pre_restore', 'pre_push'))");
  await knex.raw("ALTER TABLE backups ADD CONSTRAINT backups_status CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'expired'))");
  await knex.schema.alterTable('team_entitlements', (table) => {
    table.integer('backups_scheduled_keep').notNullable().defaultTo(14);
    table.integer('backups_manual_keep').notNullable().defaultTo(10);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_entitlements', (table) => {
    table.dropColumn('backups_manual_keep');
    table.dropColumn('backups_scheduled_keep');
  });
  await knex.schema.dropTableIfExists('backups');
  await knex.schema.dropTableIfExists('backup_schedules');
  await knex.schema.dropTableIfExists('backup_repositories');
}
