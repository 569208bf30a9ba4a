import type { Knex } from 'knex';

/**
 * Dunning (issue 15): each open invoice past its due date gets one attempt per day of
 * BILLING_DUNNING_SCHEDULE_DAYS — a retried charge (Stripe) or a reminder (manual) — and one mail
 * per attempt. The row is claimed before the charge or the mail, and (invoice_id, attempt) is unique,
 * so two sweeps at once make one attempt. Days the sweep missed get no row: only the latest due
 * attempt is made (no burst of mails after an outage), so attempt numbers may skip.
 */
const OUTCOMES = ['reminded', 'charge_succeeded', 'charge_failed', 'charge_pending'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invoice_dunning_attempts', (table) => {
    table.increments('id');
    table.integer('invoice_id').notNullable().references('invoices.id').onDelete('CASCADE');
    table.integer('attempt').notNullable(); // 1-based position in the schedule
    table.timestamp('scheduled_for', { useTz: true }).notNullable(); // due date + the schedule's day
    table.timestamp('attempted_at', { useTz: true }).notNullable(); // when a sweep claimed it
    table.text('outcome').checkIn([...OUTCOMES]); // null: claimed, the provider's answer not recorded (yet)
    table.text('failure_reason'); // the provider's words (a decline message), never a key or client secret
    table.timestamp('mailed_at', { useTz: true }); // set once its mail went out, so a repeated job sends nothing
    table.unique(['invoice_id', 'attempt']);
  });
  await knex.raw('ALTER TABLE invoice_dunning_attempts ADD CONSTRAINT invoice_dunning_attempts_attempt_positive CHECK (attempt >= 1)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('invoice_dunning_attempts');
}
