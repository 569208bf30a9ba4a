import type { Knex } from 'knex';

/**
 * Environments beyond production, copies between them, and WordPress management:
 * - an operation may hold several serial keys (a push holds its source and its target environment;
 *   a site's deletion every environment of the site); it waits for every older unfinished
 *   operation sharing any of them;
 * - what WordPress an environment runs (core, PHP, plugins, themes), as last read by a worker, so
 *   the API answers without waiting on a node;
 * - the start time of a node's agent: a new one triggers the reconciliation of what the node hosts;
 * - where a cloned site came from.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operations', (table) => {
    table.specificType('serial_keys', 'text[]').notNullable().defaultTo('{}');
  });
  await knex.raw('UPDATE operations SET serial_keys = ARRAY[serial_key] WHERE serial_key IS NOT NULL');
  await knex.raw('DROP INDEX IF EXISTS operations_serial');
  await knex.schema.alterTable('operations', (table) => table.dropColumn('serial_key'));
  await knex.raw("CREATE INDEX operations_serial_keys ON operations USING gin (serial_keys) WHERE status IN ('queued', 'running')");

  await knex.schema.alterTable('environments', (table) => {
    table.jsonb('wordpress'); // {version, db_version, php_version, blogname, home, siteurl, locale, theme, plugins, themes}
    table.timestamp('wordpress_checked_at', { useTz: true });
  });

  await knex.schema.alterTable('nodes', (table) => {
    table.timestamp('agent_started_at', { useTz: true });
  });

  await knex.schema.alterTable('sites', (table) => {
    table.integer('cloned_from_site_id').references('sites.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sites', (table) => table.dropColumn('cloned_from_site_id'));
  await knex.schema.alterTable('nodes', (table) => table.dropColumn('agent_started_at'));
  await knex.schema.alterTable('environments', (table) => {
    table.dropColumn('wordpress');
    table.dropColumn('wordpress_checked_at');
  });
  await knex.schema.alterTable('operations', (table) => table.text('serial_key'));
  await knex.raw('UPDATE operations SET serial_key = serial_keys[1]');
  await knex.raw('DROP INDEX IF EXISTS operations_serial_keys');
  await knex.schema.alterTable('operations', (table) => table.dropColumn('serial_keys'));
  await knex.raw("CREATE INDEX operations_serial ON operations (serial_key, created_at) WHERE serial_key IS NOT NULL AND status IN ('queued', 'running')");
}
