import type { Knex } from 'knex';

/**
 * The hosting fleet: operators (staff, above teams), nodes and the commands their agents run.
 * A node's SSH credentials are needed only to enroll it: kept sealed (SECRET_KEY) until enrollment
 * succeeds, then erased. The agent's public key is its identity from then on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.text('platform_role').checkIn(['operator']); // null: a customer; operators manage the fleet
  });

  await knex.schema.createTable('nodes', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('name').notNullable().unique();
    table.text('region').notNullable();
    table.text('public_address').notNullable(); // where sites on it are reached (IP or host name)
    table.text('ssh_host').notNullable();
    table.integer('ssh_port').notNullable().defaultTo(22);
    table.text('ssh_user').notNullable();
    table.text('ssh_credentials_sealed'); // {private_key | password}, sealed; null once enrolled
    table.text('ssh_host_key_sha256'); // pinned on first connection
    // enrolling -> online; offline is derived from last_heartbeat_at; draining and disabled are set by operators
    table.text('status').notNullable().defaultTo('enrolling').checkIn(['enrolling', 'online', 'draining', 'disabled', 'failed']);
    table.text('enrollment_token_hash').unique();
    table.timestamp('enrollment_expires_at', { useTz: true });
    table.jsonb('public_key'); // the agent's Ed25519 JWK
    table.text('agent_version');
    table.integer('protocol_version');
    table.jsonb('facts'); // hostname, os, arch, docker
    table.jsonb('metrics');
    table.jsonb('capacity').notNullable().defaultTo('{}'); // {max_sites, disk_bytes}
    table.timestamp('last_heartbeat_at', { useTz: true });
    table.timestamp('enrolled_at', { useTz: true });
    table.timestamp('disabled_at', { useTz: true });
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamps(true, true);
    table.index(['region', 'status']);
  });

  await knex.schema.createTable('agent_commands', (table) => {
    table.text('id').primary(); // <operation id>:<step>, deterministic so a redelivery is recognised
    table.uuid('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    table.uuid('operation_id').references('operations.id').onDelete('CASCADE');
    table.text('kind').notNullable();
    table.jsonb('payload').notNullable();
    table.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'delivered', 'succeeded', 'failed']);
    table.integer('deliveries').notNullable().defaultTo(0);
    table.timestamp('lease_until', { useTz: true }); // delivered and not heard of by then: delivered again
    table.timestamp('deadline_at', { useTz: true }).notNullable();
    table.jsonb('result');
    table.jsonb('error'); // {message, exit_code, stderr_tail, permanent}
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('delivered_at', { useTz: true });
    table.timestamp('finished_at', { useTz: true });
    table.index(['node_id', 'status', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('agent_commands');
  await knex.schema.dropTableIfExists('nodes');
  await knex.schema.alterTable('users', (table) => table.dropColumn('platform_role'));
}
