import type { Knex } from 'knex';

/**
 * Users, teams, roles and memberships; the tokens and sessions of the sign-in flow. Every token is
 * stored as its SHA-256 only. Sessions are refresh-token families: a session row per sign-in, its
 * refresh tokens chained by rotation.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (table) => {
    table.increments('id');
    table.text('email').notNullable().unique(); // lower-cased, NFKC-normalised
    table.text('name').notNullable();
    table.text('password_hash').notNullable();
    table.timestamp('email_verified_at', { useTz: true });
    table.timestamp('password_changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamps(true, true);
  });

  await knex.schema.createTable('teams', (table) => {
    table.increments('id');
    table.text('name').notNullable();
    table.text('slug').notNullable().unique();
    table.jsonb('settings').notNullable().defaultTo('{}');
    table.timestamps(true, true);
  });

  await knex.schema.createTable('roles', (table) => {
    table.increments('id');
    table.integer('team_id').references('teams.id').onDelete('CASCADE'); // null: built-in, shared by every team
    table.text('name').notNullable();
    table.specificType('permissions', 'text[]').notNullable().defaultTo('{}');
    table.text('description').notNullable().defaultTo('');
    table.timestamps(true, true);
    table.unique(['team_id', 'name']);
  });
  await knex.raw('CREATE UNIQUE INDEX roles_builtin_name ON roles (name) WHERE team_id IS NULL');
  await knex('roles').insert([
    { name: 'owner', permissions: ['*'], description: 'Everything, including billing and the team itself' },
    {
      name: 'admin',
      permissions: [
        'teams:read',
        'teams:update',
        'members:*',
        'invites:*',
        'roles:*',
        'sites:*',
        'wordpress:*',
        'backups:*',
        'domains:*',
        'sftp:*',
        'webhooks:*',
        'activity:read',
        'api_tokens:*',
        'operations:*',
      ],
      description: 'Everything but billing and deleting the team',
    },
    {
      name: 'developer',
      permissions: ['teams:read', 'members:read', 'sites:*', 'wordpress:*', 'backups:*', 'domains:*', 'sftp:*', 'activity:read', 'operations:read'],
      description: 'Builds and runs sites',
    },
    { name: 'billing', permissions: ['teams:read', 'members:read', 'billing:*', 'activity:read'], description: 'Plans, invoices and payment methods' },
    {
      name: 'viewer',
      permissions: ['teams:read', 'members:read', 'sites:read', 'wordpress:read', 'backups:read', 'domains:read', 'activity:read', 'operations:read'],
      description: 'Reads everything, changes nothing',
    },
  ]);

  await knex.schema.createTable('memberships', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.integer('role_id').notNullable().references('roles.id');
    table.text('status').notNullable().defaultTo('ACTIVE').checkIn(['ACTIVE', 'SUSPENDED']);
    table.timestamps(true, true);
    table.unique(['team_id', 'user_id']);
    table.index(['user_id']);
  });

  await knex.schema.createTable('invites', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('role_id').notNullable().references('roles.id');
    table.text('email').notNullable();
    table.text('token_hash').unique(); // set when the invite e-mail is sent; a resend replaces it
    table.integer('invited_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('accepted_at', { useTz: true });
    table.integer('accepted_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('revoked_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['team_id']);
  });

  await knex.schema.createTable('user_tokens', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.text('purpose').notNullable().checkIn(['email_verification', 'password_reset']);
    table.text('token_hash').notNullable().unique();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['user_id', 'purpose']);
  });

  await knex.schema.createTable('pre_auth_tokens', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.text('token_hash').notNullable().unique();
    table.boolean('remember_me').notNullable().defaultTo(false);
    table.text('ip');
    table.text('user_agent');
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('consumed_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['user_id']);
  });

  await knex.schema.createTable('sessions', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('pre_auth_token_id').references('pre_auth_tokens.id').onDelete('SET NULL');
    table.boolean('remember_me').notNullable();
    table.text('ip'); // as the server saw it
    table.text('user_agent');
    table.text('device_fingerprint');
    table.jsonb('client_info').notNullable().defaultTo('{}'); // what the client said (session_info), informational
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('revoked_at', { useTz: true });
    table.text('revoked_reason');
    table.index(['user_id']);
  });

  await knex.schema.createTable('refresh_tokens', (table) => {
    table.increments('id');
    table.uuid('session_id').notNullable().references('sessions.id').onDelete('CASCADE');
    table.text('token_hash').notNullable().unique();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('rotated_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['session_id']);
  });

  await knex.schema.createTable('login_activity', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    table.uuid('session_id').references('sessions.id').onDelete('SET NULL');
    table.text('event_type').notNullable().checkIn(['login', 'refresh']);
    table.text('ip');
    table.text('user_agent');
    table.text('device_fingerprint');
    table.jsonb('geo');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['login_activity', 'refresh_tokens', 'sessions', 'pre_auth_tokens', 'user_tokens', 'invites', 'memberships', 'roles', 'teams', 'users']) {
    await knex.schema.dropTableIfExists(table);
  }
}
