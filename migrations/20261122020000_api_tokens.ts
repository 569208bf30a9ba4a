import type { Knex } from 'knex';

/**
 * API tokens of the general API: long-lived bearer secrets a member creates for scripts and CI. A
 * token belongs to its creator's membership (CASCADE), so it dies with that membership and a
 * re-invited person starts without it. Only the SHA-256 of the secret is stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('membership_id').notNullable().references('memberships.id').onDelete('CASCADE');
    table.integer('created_by_user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.text('name').notNullable();
    table.text('prefix').notNullable(); // the marker and the first characters of the secret, shown in lists
    table.text('token_hash').notNullable().unique(); // SHA-256 of the whole secret (256 random bits)
    table.specificType('permissions', 'text[]').notNullable();
    table.timestamp('expires_at', { useTz: true }); // null: never expires
    table.timestamp('last_used_at', { useTz: true });
    table.text('last_used_ip');
    table.timestamp('revoked_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['team_id', 'created_at']);
    table.index(['membership_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_tokens');
}
