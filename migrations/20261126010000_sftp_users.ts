import type { Knex } from 'knex';

/**
 * SFTP users of environments (issue 14): served by the agent on the environment's node, jailed to
 * its WordPress files. A username is unique across the platform and never reused (a revoked user
 * keeps its row), so the agent's tombstone of a revoked name stays true for good. Nodes report the
 * port their SFTP server listens on and its host key (heartbeat), which the API shows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sftp_users', (table) => {
    table.bigIncrements('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('site_id').notNullable().references('sites.id').onDelete('CASCADE');
    table.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    table.text('username').notNullable().unique();
    table.text('password_hash'); // argon2id (PHC string); null: public keys only
    // [{ key: 'ssh-ed25519 AAAA... comment', type, fingerprint: 'SHA256:...', comment }]
    table.jsonb('public_keys').notNullable().defaultTo('[]');
    table.text('status').notNullable().defaultTo('provisioning'); // provisioning | active | revoked | failed
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('revoked_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['environment_id']);
  });
  await knex.schema.alterTable('nodes', (table) => {
    table.integer('sftp_port'); // null until the agent reports its SFTP server listening
    table.text('sftp_host_key'); // OpenSSH public key line of the server's host key
    table.text('sftp_host_key_fingerprint'); // SHA256:<base64, unpadded>, as ssh-keygen -l prints it
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nodes', (table) => {
    table.dropColumn('sftp_port');
    table.dropColumn('sftp_host_key');
    table.dropColumn('sftp_host_key_fingerprint');
  });
  await knex.schema.dropTable('sftp_users');
}
