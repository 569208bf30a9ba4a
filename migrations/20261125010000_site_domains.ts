import type { Knex } from 'knex';

/**
 * Custom domains of environments (issue 13): a domain is served by the node's edge for its
 * environment once the team has shown it controls the name (a TXT record with the domain's token,
 * or a zone the team hosts here). A name belongs to one environment across all teams.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_domains', (table) => {
    table.bigIncrements('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('site_id').notNullable().references('sites.id').onDelete('CASCADE');
    table.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    table.text('name').notNullable().unique();
    table.text('status').notNullable().defaultTo('pending'); // pending | verified
    table.text('verification_token').notNullable();
    table.text('verified_by'); // txt | hosted_zone
    table.timestamp('verified_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['environment_id']);
  });
  // the address WordPress answers at (home and site URL); null: the environment's default address
  await knex.schema.alterTable('environments', (table) => {
    table.text('primary_domain');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environments', (table) => table.dropColumn('primary_domain'));
  await knex.schema.dropTable('site_domains');
}
