import type { Knex } from 'knex';

/**
 * DNS zones a team hosts with Berth (issue 13). The zone's records live at the DNS provider
 * (PowerDNS), which serves them; this row says which team owns the zone. A zone name is unique
 * across teams: one name is served from one place.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dns_zones', (table) => {
    table.bigIncrements('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('name').notNullable().unique();
    table.text('provider').notNullable();
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['team_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dns_zones');
}
