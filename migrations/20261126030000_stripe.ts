import type { Knex } from 'knex';

/**
 * The Stripe provider (issue 15). A team's Stripe customer is made once and kept here, so every
 * invoice of the team is paid by the same customer. Each webhook event is recorded by its id in the
 * transaction that acts on it, so Stripe's retries and replays act once. A failed payment attempt is
 * noted on the invoice (the dunning sweep still decides what the subscription becomes).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stripe_customers', (table) => {
    table.integer('team_id').primary().references('teams.id').onDelete('CASCADE');
    table.text('customer_id').notNullable().unique();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('stripe_events', (table) => {
    table.text('id').primary(); // Stripe's evt_ id: a replay conflicts here
    table.text('type').notNullable();
    table.text('outcome').notNullable(); // what Berth did: paid, payment_failed, ignored
    table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('invoices', (table) => {
    table.timestamp('payment_failed_at', { useTz: true });
    table.text('payment_failure'); // the provider's message for the last failed attempt
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (table) => {
    table.dropColumn('payment_failure');
    table.dropColumn('payment_failed_at');
  });
  await knex.schema.dropTableIfExists('stripe_events');
  await knex.schema.dropTableIfExists('stripe_customers');
}
