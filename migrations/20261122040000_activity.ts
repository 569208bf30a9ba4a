import type { Knex } from 'knex';

/**
 * The team's audit trail (`GET /v1/activity`): one row per mutating /v1 request and per auth event.
 * Append-only, enforced by Postgres itself: a statement trigger refuses every UPDATE, DELETE and
 * TRUNCATE, so no bug in the application (nor a hand-typed query) can rewrite history. Only the
 * table's owner can get around it, deliberately (ALTER TABLE ... DISABLE TRIGGER in a migration),
 * which is where a future retention policy would live.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('activity', (table) => {
    table.bigIncrements('id');
    // RESTRICT, not CASCADE: a cascade would have to DELETE entries, which the trigger refuses, so
    // deleting a team would fail anyway, with a confusing message. Teams cannot be deleted yet; when
    // they can, that feature decides what happens to its trail (kept, or purged by a migration-like
    // privileged step), and this foreign key makes sure it cannot be forgotten.
    table.integer('team_id').notNullable().references('teams.id').onDelete('RESTRICT');
    // No foreign key to users: ON DELETE SET NULL would UPDATE entries (refused), and CASCADE would
    // delete them. The id stays as it was; name and e-mail are snapshots taken when the entry is written.
    table.integer('actor_user_id');
    table.text('actor_name');
    table.text('actor_email');
    table.integer('actor_api_token_id'); // no foreign key, for the same reason: tokens come and go
    table.text('actor_via').notNullable().checkIn(['session', 'api_token', 'credentials', 'system']);
    table.text('action').notNullable();
    table.text('target_type').notNullable();
    table.text('target_id');
    table.text('outcome').notNullable().checkIn(['success', 'denied', 'failed']);
    table.smallint('status'); // the HTTP status answered; null for auth events recorded by the change itself
    table.text('ip');
    table.text('user_agent');
    table.text('request_id');
    table.jsonb('metadata').notNullable().defaultTo('{}'); // small, never a secret
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Every query is one team's, newest first; each filter gets its own (team, filter, time) index.
  await knex.raw('CREATE INDEX activity_team_created ON activity (team_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX activity_team_actor ON activity (team_id, actor_user_id, created_at DESC)');
  // text_pattern_ops so `action LIKE 'member.%'` (a `member.*` filter) uses the index too.
  await knex.raw('CREATE INDEX activity_team_action ON activity (team_id, action text_pattern_ops, created_at DESC)');
  await knex.raw('CREATE INDEX activity_team_target ON activity (team_id, target_type, target_id, created_at DESC)');

  await knex.raw(`
    CREATE FUNCTION activity_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'activity is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$`);
  // FOR EACH STATEMENT: refused even when the statement would match no row.
  await knex.raw(
    'CREATE TRIGGER activity_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON activity FOR EACH STATEMENT EXECUTE FUNCTION activity_is_append_only()',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('activity');
  await knex.raw('DROP FUNCTION IF EXISTS activity_is_append_only()');
}
