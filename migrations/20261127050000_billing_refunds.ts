import type { Knex } from 'knex';

/**
 * Refunds and disputes (issue 15). A paid invoice is credited, in full or in part, by credit notes:
 * numbered gapless per year in their own series (`<prefix>-CN-<year>-<6 digits>`, from their own
 * counter row, locked by the issuing transaction), never more in sum than the invoice's total
 * (`invoices.amount_credited_minor`, kept under the invoice's row lock). The invoice stays `paid`, as
 * at Stripe. A credit note's money goes back through the invoice's provider (Stripe: a Refund, its
 * id in `provider_ref`) or by the operator's bank transfer (`not_applicable`). Stripe's disputes of
 * an invoice's payment are recorded as Stripe reports them; a lost one adds its amount to
 * `invoices.amount_lost_minor` (entitlements are not touched: that is the operator's call).
 */
const REFUND_STATUSES = ['pending', 'refunded', 'failed', 'not_applicable'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('credit_note_number_counters', (table) => {
    table.integer('year').primary();
    table.integer('last_number').notNullable();
  });
  await knex.schema.alterTable('invoices', (table) => {
    table.bigInteger('amount_credited_minor').notNullable().defaultTo(0); // sum of its credit notes, tax included
    table.bigInteger('amount_lost_minor').notNullable().defaultTo(0); // sum of its lost disputes
  });
  await knex.raw(
    'ALTER TABLE invoices ADD CONSTRAINT invoices_credited_within_total CHECK (amount_credited_minor >= 0 AND amount_credited_minor <= total_minor)',
  );
  await knex.schema.createTable('credit_notes', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('invoice_id').notNullable().references('invoices.id').onDelete('CASCADE');
    table.text('number').notNullable().unique();
    table.text('status').notNullable().defaultTo('issued').checkIn(['issued']);
    table.specificType('currency', 'char(3)').notNullable();
    table.bigInteger('amount_minor').notNullable(); // tax included
    table.bigInteger('tax_minor').notNullable(); // its part of the invoice's tax
    table.text('reason').notNullable();
    table
      .text('refund_status')
      .notNullable()
      .checkIn([...REFUND_STATUSES]);
    table.text('provider_ref'); // Stripe's re_ id
    table.text('refund_failure'); // the provider's words, never a key
    table.timestamp('refunded_at', { useTz: true });
    table.integer('issued_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['invoice_id']);
    table.index(['team_id', 'id']);
  });
  await knex.raw('ALTER TABLE credit_notes ADD CONSTRAINT credit_notes_amounts CHECK (amount_minor > 0 AND tax_minor >= 0 AND tax_minor <= amount_minor)');
  await knex.schema.createTable('invoice_disputes', (table) => {
    table.increments('id');
    table.integer('invoice_id').notNullable().references('invoices.id').onDelete('CASCADE');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('stripe_dispute_id').notNullable().unique();
    table.specificType('currency', 'char(3)').notNullable();
    table.bigInteger('amount_minor').notNullable();
    table.text('reason').notNullable(); // Stripe's: fraudulent, product_not_received...
    table.text('status').notNullable(); // Stripe's: needs_response, under_review, won, lost...
    table.timestamp('closed_at', { useTz: true });
    table.timestamp('lost_at', { useTz: true }); // set once, when Stripe closed it lost
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['invoice_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('invoice_disputes');
  await knex.schema.dropTableIfExists('credit_notes');
  await knex.raw('ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_credited_within_total');
  await knex.schema.alterTable('invoices', (table) => {
    table.dropColumn('amount_lost_minor');
    table.dropColumn('amount_credited_minor');
  });
  await knex.schema.dropTableIfExists('credit_note_number_counters');
}
