import type { Knex } from 'knex';

/**
 * Issue 24: each API process keeps the /v1 callers it has verified in memory. These triggers say,
 * on commit, what a cached caller may depend on that changed (NOTIFY principal_changes, payload
 * `<kind>:<id>`), whoever wrote it (a route, a worker's sweep, an admin command, psql), so every
 * process drops the entries at once. Bookkeeping columns (last_seen_at, last_used_*) notify nothing.
 */
const CHANNEL = 'principal_changes';

const functions: Record<string, string> = {
  berth_principal_user_changed: `PERFORM pg_notify('${CHANNEL}', 'user:' || COALESCE(NEW.id, OLD.id));`,
  berth_principal_team_changed: `PERFORM pg_notify('${CHANNEL}', 'team:' || COALESCE(NEW.id, OLD.id));`,
  berth_principal_role_changed: `PERFORM pg_notify('${CHANNEL}', 'role:' || COALESCE(NEW.id, OLD.id));`,
  berth_principal_membership_changed: `
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('${CHANNEL}', 'user:' || OLD.user_id); END IF;
    IF TG_OP = 'UPDATE' AND NEW.user_id <> OLD.user_id THEN PERFORM pg_notify('${CHANNEL}', 'user:' || NEW.user_id); END IF;`,
  berth_principal_session_changed: `
    IF TG_OP = 'DELETE' OR NEW.revoked_at IS DISTINCT FROM OLD.revoked_at OR NEW.second_factor_pending IS DISTINCT FROM OLD.second_factor_pending
      OR NEW.user_id <> OLD.user_id OR NEW.team_id <> OLD.team_id THEN
      PERFORM pg_notify('${CHANNEL}', 'session:' || OLD.id);
    END IF;`,
  berth_principal_api_token_changed: `
    IF TG_OP = 'DELETE' OR NEW.revoked_at IS DISTINCT FROM OLD.revoked_at OR NEW.expires_at IS DISTINCT FROM OLD.expires_at
      OR NEW.permissions IS DISTINCT FROM OLD.permissions OR NEW.membership_id <> OLD.membership_id OR NEW.token_hash <> OLD.token_hash THEN
      PERFORM pg_notify('${CHANNEL}', 'api_token:' || OLD.id);
    END IF;`,
};

const triggers: Array<{ table: string; fn: string; events: string }> = [
  { table: 'users', fn: 'berth_principal_user_changed', events: 'UPDATE OR DELETE' },
  { table: 'teams', fn: 'berth_principal_team_changed', events: 'UPDATE OR DELETE' },
  { table: 'roles', fn: 'berth_principal_role_changed', events: 'UPDATE OR DELETE' },
  { table: 'memberships', fn: 'berth_principal_membership_changed', events: 'UPDATE OR DELETE' },
  { table: 'sessions', fn: 'berth_principal_session_changed', events: 'UPDATE OR DELETE' },
  { table: 'api_tokens', fn: 'berth_principal_api_token_changed', events: 'UPDATE OR DELETE' },
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, body] of Object.entries(functions)) {
    await knex.raw(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`);
  }
  for (const { table, fn, events } of triggers) {
    await knex.raw(`CREATE TRIGGER ${fn} AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, fn } of triggers) await knex.raw(`DROP TRIGGER IF EXISTS ${fn} ON ${table}`);
  for (const name of Object.keys(functions)) await knex.raw(`DROP FUNCTION IF EXISTS ${name}()`);
}
