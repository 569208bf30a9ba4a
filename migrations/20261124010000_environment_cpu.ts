import type { Knex } from 'knex';

/**
 * A CPU share from the plan beside the memory cap: each environment's container may use this many
 * thousandths of a core (1000 = one core), taken from the team's plan when the environment is made
 * and kept on the environment like its memory cap, so the container's spec follows the row alone.
 */
const DEFAULT_CPU_MILLICORES = 1000;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_entitlements', (table) => {
    table.integer('environment_cpu_millicores').notNullable().defaultTo(DEFAULT_CPU_MILLICORES);
  });
  await knex.schema.alterTable('environments', (table) => {
    table.integer('cpu_limit_millicores').notNullable().defaultTo(DEFAULT_CPU_MILLICORES);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environments', (table) => table.dropColumn('cpu_limit_millicores'));
  await knex.schema.alterTable('team_entitlements', (table) => table.dropColumn('environment_cpu_millicores'));
}
