import type { Knex } from 'knex';

/**
 * Resource limits from the plan: each environment's container gets a memory cap (cgroup), taken from
 * the team's plan when the environment is made and kept on the environment, so the container's
 * spec (and so whether the agent recreates it) follows the environment's row alone.
 */
const DEFAULT_MEMORY_BYTES = 512 * 1024 * 1024;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_entitlements', (table) => {
    table.bigInteger('environment_memory_bytes').notNullable().defaultTo(DEFAULT_MEMORY_BYTES);
  });
  await knex.schema.alterTable('environments', (table) => {
    table.bigInteger('memory_limit_bytes').notNullable().defaultTo(DEFAULT_MEMORY_BYTES);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environments', (table) => table.dropColumn('memory_limit_bytes'));
  await knex.schema.alterTable('team_entitlements', (table) => table.dropColumn('environment_memory_bytes'));
}
