import type { Knex } from 'knex';

/**
 * Sites and their environments (production, staging, development), each environment on one node
 * with its own container, database and files; and the entitlements a team's plan gives (until
 * billing exists, operators set them). A database password is sealed with SECRET_KEY: the node's
 * MariaDB needs it, nobody reads it back through the API.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('team_entitlements', (table) => {
    table.integer('team_id').primary().references('teams.id').onDelete('CASCADE');
    table.text('plan').notNullable();
    table.integer('max_sites').notNullable();
    table.bigInteger('max_disk_bytes').notNullable();
    table.timestamps(true, true);
  });

  await knex.schema.alterTable('nodes', (table) => {
    // Where the node's edge proxy listens (80 on a real node; tests give each node its own port).
    table.integer('edge_http_port').notNullable().defaultTo(80);
  });

  await knex.schema.createTable('sites', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('name').notNullable();
    table.text('slug').notNullable().unique(); // in every environment's default domain, so unique platform-wide
    table.text('region').notNullable();
    table.text('status').notNullable().defaultTo('creating').checkIn(['creating', 'active', 'failed', 'deleting']);
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamps(true, true);
    table.index(['team_id']);
  });

  await knex.schema.createTable('environments', (table) => {
    table.increments('id');
    table.integer('site_id').notNullable().references('sites.id').onDelete('CASCADE');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('kind').notNullable().checkIn(['production', 'staging', 'development']);
    table.uuid('node_id').notNullable().references('nodes.id'); // RESTRICT: a node with environments cannot be deleted
    table.text('php_version').notNullable();
    table.text('domain').notNullable().unique();
    table.text('status').notNullable().defaultTo('creating').checkIn(['creating', 'active', 'failed', 'deleting']);
    table.text('db_name').notNullable().unique();
    table.text('db_user').notNullable().unique();
    table.text('db_password_sealed').notNullable();
    table.text('table_prefix').notNullable().defaultTo('wp_');
    table.bigInteger('disk_quota_bytes').notNullable();
    table.timestamps(true, true);
    table.unique(['site_id', 'kind']);
    table.index(['node_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('environments');
  await knex.schema.dropTableIfExists('sites');
  await knex.schema.alterTable('nodes', (table) => table.dropColumn('edge_http_port'));
  await knex.schema.dropTableIfExists('team_entitlements');
}
