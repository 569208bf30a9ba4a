import type { Knex } from 'knex';

/**
 * Second factors and login risk: TOTP with backup codes, trusted devices and their e-mailed
 * challenges, suspicious-login alerts, concurrent-login requests, and the account throttle.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.text('totp_secret_sealed'); // AES-GCM sealed with SECRET_KEY; set once /totp/verify accepts a code
    table.text('totp_pending_secret_sealed'); // from /totp/setup until verified
    table.timestamp('totp_enabled_at', { useTz: true });
    table.bigInteger('totp_last_used_step'); // a code is accepted once per 30-second step
    table.integer('failed_auth_count').notNullable().defaultTo(0);
    table.timestamp('locked_until', { useTz: true });
  });

  await knex.schema.createTable('totp_backup_codes', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.text('code_hash').notNullable();
    table.boolean('pending').notNullable().defaultTo(true); // issued by /totp/setup, live once verified
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['user_id']);
  });

  await knex.schema.alterTable('sessions', (table) => {
    table.boolean('second_factor_pending').notNullable().defaultTo(false);
  });

  await knex.schema.alterTable('login_activity', (table) => {
    table.text('country'); // derived from the IP the server saw, never from the client's geo
    table.text('network'); // the IP's /24 (IPv4) or /48 (IPv6)
    table.double('latitude');
    table.double('longitude');
  });

  await knex.schema.createTable('trusted_devices', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.text('device_fingerprint').notNullable();
    table.text('device_label').notNullable();
    table.text('user_agent');
    table.text('first_ip');
    table.text('last_ip');
    table.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('trusted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('revoked_at', { useTz: true });
    table.index(['user_id']);
  });
  await knex.raw('CREATE UNIQUE INDEX trusted_devices_live_fingerprint ON trusted_devices (user_id, device_fingerprint) WHERE revoked_at IS NULL');

  await knex.schema.createTable('device_challenges', (table) => {
    table.increments('id');
    table.integer('pre_auth_token_id').notNullable().references('pre_auth_tokens.id').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.text('device_fingerprint').notNullable();
    table.text('code_hash'); // set by the mail job when it sends the code
    table.integer('failed_attempts').notNullable().defaultTo(0);
    table.text('ip');
    table.text('user_agent');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('approved_at', { useTz: true });
    table.timestamp('replaced_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['pre_auth_token_id']);
  });

  await knex.schema.createTable('login_alerts', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.integer('pre_auth_token_id').references('pre_auth_tokens.id').onDelete('SET NULL');
    table.text('token_hash').unique(); // set by the mail job when it sends the alert
    table.specificType('reasons', 'text[]').notNullable();
    table.text('ip');
    table.text('country');
    table.text('network');
    table.text('user_agent');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.text('decision').checkIn(['approved', 'denied']);
    table.timestamp('decided_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['user_id']);
  });

  await knex.schema.createTable('concurrent_login_requests', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.integer('pre_auth_token_id').notNullable().unique().references('pre_auth_tokens.id').onDelete('CASCADE');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('token_hash').notNullable().unique();
    table.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'approved', 'denied']);
    table.text('device_fingerprint');
    table.text('ip');
    table.text('user_agent');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('decided_at', { useTz: true });
    table.uuid('decided_by_session_id').references('sessions.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['concurrent_login_requests', 'login_alerts', 'device_challenges', 'trusted_devices', 'totp_backup_codes']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('login_activity', (table) => table.dropColumns('country', 'network', 'latitude', 'longitude'));
  await knex.schema.alterTable('sessions', (table) => table.dropColumn('second_factor_pending'));
  await knex.schema.alterTable('users', (table) =>
    table.dropColumns('totp_secret_sealed', 'totp_pending_secret_sealed', 'totp_enabled_at', 'totp_last_used_step', 'failed_auth_count', 'locked_until'),
  );
}
