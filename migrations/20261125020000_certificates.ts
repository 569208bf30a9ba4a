import type { Knex } from 'knex';

/**
 * TLS certificates of environments (issue 13), served by the node's edge on its HTTPS port. One
 * certificate per environment (a new one replaces it); its private key sealed with SECRET_KEY. A
 * node serves HTTPS once an operator gives it `edge_https_port`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodes', (table) => {
    table.integer('edge_https_port');
  });
  await knex.schema.createTable('certificates', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('environment_id').notNullable().unique().references('environments.id').onDelete('CASCADE');
    table.jsonb('names').notNullable();
    table.text('source').notNullable(); // uploaded | acme
    table.text('status').notNullable().defaultTo('pending'); // pending | installed | failed
    table.text('certificate_pem').notNullable();
    table.text('key_sealed').notNullable();
    table.text('issuer').notNullable();
    table.text('fingerprint_sha256').notNullable();
    table.timestamp('not_before', { useTz: true }).notNullable();
    table.timestamp('not_after', { useTz: true }).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // one ACME account per CA directory for the whole platform; its key sealed
  await knex.schema.createTable('acme_accounts', (table) => {
    table.text('directory_url').primary();
    table.text('key_sealed').notNullable();
    table.text('account_url');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('acme_accounts');
  await knex.schema.dropTable('certificates');
  await knex.schema.alterTable('nodes', (table) => table.dropColumn('edge_https_port'));
}
