import type { Knex } from 'knex';

/**
 * Webhook delivery started by the committing transaction (issue 24): a new event, or a delivery
 * asked for by hand (redeliver, test event), sends NOTIFY `berth_webhook_work`, which Postgres
 * delivers to the listening workers when, and only when, the transaction commits. The workers then
 * dispatch at once; their poll (WEBHOOK_DISPATCH_INTERVAL) stays as the safety net. Statement-level
 * with a transition table: one notification per statement that inserted rows (Postgres folds the
 * same notification within one transaction), none for an `emitEvent` that inserted nothing. The
 * dispatcher's own deliveries (not `manual`) notify nothing: it leases them in the same run. The
 * channel name is WEBHOOK_WORK_CHANNEL in shared/domains/webhooks/work-channel.ts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION webhook_work_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'webhook_events' THEN
        IF EXISTS (SELECT 1 FROM inserted) THEN PERFORM pg_notify('berth_webhook_work', ''); END IF;
      ELSIF EXISTS (SELECT 1 FROM inserted WHERE manual) THEN
        PERFORM pg_notify('berth_webhook_work', '');
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER webhook_events_work AFTER INSERT ON webhook_events
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_work_notify()`);
  await knex.raw(`CREATE TRIGGER webhook_deliveries_work AFTER INSERT ON webhook_deliveries
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_work_notify()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS webhook_deliveries_work ON webhook_deliveries');
  await knex.raw('DROP TRIGGER IF EXISTS webhook_events_work ON webhook_events');
  await knex.raw('DROP FUNCTION IF EXISTS webhook_work_notify()');
}
