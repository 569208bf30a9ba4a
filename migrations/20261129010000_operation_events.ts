import type { Knex } from 'knex';

/**
 * The event log browsers follow (GET /v1/operations/{id}/events, GET /v1/events): one row per
 * change of an operation, of one of its steps, and per log line, written by triggers so that every
 * write path (routes, runner, sweeper, agent reports) is caught. Each trigger also sends
 * `NOTIFY operation_events` (payload `<team id or empty>:<operation id>`), which only wakes the API
 * processes' readers: they read the rows (`id > last id`), so any API process serves any client.
 *
 * Ids are handed out in commit order, not insert order: a reader resuming after id N must never
 * find later a row below N that was still uncommitted when it read. A row gets a provisional id on
 * insert; a deferred trigger renumbers the transaction's rows at commit under a transaction-scoped
 * advisory lock, which is released only once the commit is visible. Only the commit of writing
 * transactions is serialised, never their work.
 *
 * Retention: 24 hours (workers/operations/sweep.processor.ts deletes older rows).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE operation_events (
      id bigserial PRIMARY KEY,
      team_id integer REFERENCES teams (id) ON DELETE CASCADE,
      operation_id uuid NOT NULL,
      type text NOT NULL CHECK (type IN ('operation', 'step', 'log')),
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX operation_events_team ON operation_events (team_id, id);
    CREATE INDEX operation_events_operation ON operation_events (operation_id, id);
    CREATE INDEX operation_events_created ON operation_events (created_at);

    CREATE FUNCTION operation_event_time(value timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS
      $$ SELECT to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

    CREATE FUNCTION record_operation_event(team integer, operation uuid, kind text, payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO operation_events (team_id, operation_id, type, data) VALUES (team, operation, kind, payload);
      PERFORM pg_notify('operation_events', coalesce(team::text, '') || ':' || operation::text);
    END $$;

    CREATE FUNCTION operations_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM record_operation_event(NEW.team_id, NEW.id, 'operation', jsonb_build_object(
        'id', NEW.id, 'kind', NEW.kind, 'status', NEW.status, 'progress', NEW.progress,
        'target', jsonb_build_object('type', NEW.target_type, 'id', NEW.target_id),
        'error', NEW.error,
        'started_at', operation_event_time(NEW.started_at), 'finished_at', operation_event_time(NEW.finished_at),
        'cancel_requested_at', operation_event_time(NEW.cancel_requested_at)));
      RETURN NULL;
    END $$;
    CREATE TRIGGER operations_event_insert AFTER INSERT ON operations FOR EACH ROW EXECUTE FUNCTION operations_event();
    CREATE TRIGGER operations_event_update AFTER UPDATE OF status, progress, error, result, started_at, finished_at, cancel_requested_at ON operations
      FOR EACH ROW WHEN (
        OLD.status IS DISTINCT FROM NEW.status OR OLD.progress IS DISTINCT FROM NEW.progress OR OLD.error IS DISTINCT FROM NEW.error
        OR OLD.result IS DISTINCT FROM NEW.result OR OLD.started_at IS DISTINCT FROM NEW.started_at
        OR OLD.finished_at IS DISTINCT FROM NEW.finished_at OR OLD.cancel_requested_at IS DISTINCT FROM NEW.cancel_requested_at)
      EXECUTE FUNCTION operations_event();

    CREATE FUNCTION operation_steps_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM record_operation_event((SELECT team_id FROM operations WHERE id = NEW.operation_id), NEW.operation_id, 'step', jsonb_build_object(
        'operation_id', NEW.operation_id, 'name', NEW.name, 'position', NEW.position, 'status', NEW.status, 'attempts', NEW.attempts,
        'started_at', operation_event_time(NEW.started_at), 'finished_at', operation_event_time(NEW.finished_at)));
      RETURN NULL;
    END $$;
    CREATE TRIGGER operation_steps_event AFTER UPDATE OF status ON operation_steps
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION operation_steps_event();

    CREATE FUNCTION operation_logs_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM record_operation_event((SELECT team_id FROM operations WHERE id = NEW.operation_id), NEW.operation_id, 'log', jsonb_build_object(
        'operation_id', NEW.operation_id, 'step', NEW.step, 'stream', NEW.stream, 'line', NEW.line, 'created_at', operation_event_time(NEW.created_at)));
      RETURN NULL;
    END $$;
    CREATE TRIGGER operation_logs_event AFTER INSERT ON operation_logs FOR EACH ROW EXECUTE FUNCTION operation_logs_event();

    -- At commit: the transaction's rows take their final ids, in the order they were written, after
    -- every transaction that committed before this one (the lock is held until the commit is visible).
    CREATE FUNCTION operation_events_number() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('operation_events'));
      UPDATE operation_events SET id = nextval('operation_events_id_seq') WHERE id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER operation_events_number AFTER INSERT ON operation_events
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION operation_events_number();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS operation_logs_event ON operation_logs;
    DROP TRIGGER IF EXISTS operation_steps_event ON operation_steps;
    DROP TRIGGER IF EXISTS operations_event_update ON operations;
    DROP TRIGGER IF EXISTS operations_event_insert ON operations;
    DROP TABLE IF EXISTS operation_events;
    DROP FUNCTION IF EXISTS operation_events_number(), operation_logs_event(), operation_steps_event(), operations_event(),
      record_operation_event(integer, uuid, text, jsonb), operation_event_time(timestamptz);
  `);
}
