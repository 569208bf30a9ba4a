import type { Knex } from 'knex';

/**
 * Billing (issue 15, first slice). Plans are the catalogue operators manage: a price per interval in
 * integer minor units and the entitlements a team gets while subscribed (the same columns as
 * `team_entitlements`, which the subscription writes when it becomes active). One subscription per
 * team, in Stripe's states. Invoices go draft → open → paid | void | uncollectible; the number is
 * assigned at finalization from a per-year counter row locked by the finalizing transaction, so
 * numbers have no gaps and no duplicates.
 */
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'] as const;
const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (table) => {
    table.increments('id');
    table.text('code').notNullable().unique(); // what teams choose and team_entitlements.plan shows
    table.text('name').notNullable();
    table.bigInteger('price_minor').notNullable().checkPositive(); // per interval, before tax
    table.specificType('currency', 'char(3)').notNullable();
    table.text('interval').notNullable().checkIn(['month', 'year']);
    table.integer('max_sites').notNullable();
    table.bigInteger('max_disk_bytes').notNullable();
    table.bigInteger('environment_memory_bytes').notNullable();
    table.integer('environment_cpu_millicores').notNullable();
    table.integer('backups_scheduled_keep').notNullable();
    table.integer('backups_manual_keep').notNullable();
    table.boolean('active').notNullable().defaultTo(true); // inactive: no new subscriptions, existing ones keep it
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("ALTER TABLE plans ADD CONSTRAINT plans_currency_upper CHECK (currency ~ '^[A-Z]{3}$')");
  await knex.raw("ALTER TABLE plans ADD CONSTRAINT plans_code_format CHECK (code ~ '^[a-z0-9][a-z0-9_-]{1,48}[a-z0-9]$')");

  await knex('plans').insert([
    {
      code: 'starter',
      name: 'Starter',
      price_minor: 1500,
      currency: 'EUR',
      interval: 'month',
      max_sites: 1,
      max_disk_bytes: 10 * GiB,
      environment_memory_bytes: 512 * MiB,
      environment_cpu_millicores: 1000,
      backups_scheduled_keep: 14,
      backups_manual_keep: 10,
    },
    {
      code: 'business',
      name: 'Business',
      price_minor: 4900,
      currency: 'EUR',
      interval: 'month',
      max_sites: 5,
      max_disk_bytes: 50 * GiB,
      environment_memory_bytes: 1024 * MiB,
      environment_cpu_millicores: 2000,
      backups_scheduled_keep: 30,
      backups_manual_keep: 20,
    },
    {
      code: 'agency',
      name: 'Agency',
      price_minor: 14900,
      currency: 'EUR',
      interval: 'month',
      max_sites: 25,
      max_disk_bytes: 250 * GiB,
      environment_memory_bytes: 2048 * MiB,
      environment_cpu_millicores: 4000,
      backups_scheduled_keep: 60,
      backups_manual_keep: 30,
    },
    {
      code: 'agency-yearly',
      name: 'Agency (yearly)',
      price_minor: 149000,
      currency: 'EUR',
      interval: 'year',
      max_sites: 25,
      max_disk_bytes: 250 * GiB,
      environment_memory_bytes: 2048 * MiB,
      environment_cpu_millicores: 4000,
      backups_scheduled_keep: 60,
      backups_manual_keep: 30,
    },
  ]);

  await knex.schema.createTable('subscriptions', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().unique().references('teams.id').onDelete('CASCADE'); // one per team, reused when the team subscribes again
    table.integer('plan_id').notNullable().references('plans.id'); // RESTRICT: a plan in use is deactivated, not deleted
    table.integer('pending_plan_id').references('plans.id'); // a downgrade, taking effect when the period renews
    table
      .text('status')
      .notNullable()
      .checkIn([...SUBSCRIPTION_STATUSES]);
    table.text('provider').notNullable(); // the PaymentProvider that collects its invoices (manual | stripe)
    table.text('provider_ref'); // the provider's id for it (Stripe's sub_...), null for manual
    table.timestamp('current_period_start', { useTz: true }).notNullable();
    table.timestamp('current_period_end', { useTz: true }).notNullable();
    table.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    table.timestamp('canceled_at', { useTz: true }); // when cancellation was asked for
    table.timestamp('ended_at', { useTz: true }); // when it stopped giving entitlements
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['current_period_end']); // the period sweep
  });

  await knex.schema.createTable('invoices', (table) => {
    table.increments('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('subscription_id').references('subscriptions.id').onDelete('SET NULL');
    table
      .text('status')
      .notNullable()
      .defaultTo('draft')
      .checkIn([...INVOICE_STATUSES]);
    table.text('number').unique(); // null while draft; <prefix>-<year>-<6 digits> from finalization on
    table.specificType('currency', 'char(3)').notNullable();
    table.bigInteger('subtotal_minor').notNullable().defaultTo(0);
    table.bigInteger('tax_minor').notNullable().defaultTo(0);
    table.bigInteger('total_minor').notNullable().defaultTo(0);
    table.timestamp('period_start', { useTz: true });
    table.timestamp('period_end', { useTz: true });
    table.text('provider').notNullable();
    table.text('provider_ref');
    table.text('payment_reference'); // what the operator noted when marking it paid (bank transfer id...)
    table.timestamp('finalized_at', { useTz: true });
    table.timestamp('due_at', { useTz: true });
    table.timestamp('paid_at', { useTz: true });
    table.timestamp('voided_at', { useTz: true });
    table.timestamp('marked_uncollectible_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['team_id', 'id']);
    table.index(['subscription_id']);
  });
  // A finalized invoice always has its number; a draft never has one.
  await knex.raw("ALTER TABLE invoices ADD CONSTRAINT invoices_number_when_final CHECK ((status = 'draft') = (number IS NULL))");
  await knex.raw('ALTER TABLE invoices ADD CONSTRAINT invoices_total_adds_up CHECK (total_minor = subtotal_minor + tax_minor)');

  await knex.schema.createTable('invoice_lines', (table) => {
    table.increments('id');
    table.integer('invoice_id').notNullable().references('invoices.id').onDelete('CASCADE');
    table.integer('position').notNullable();
    table.text('kind').notNullable().checkIn(['item', 'tax']);
    table.text('description').notNullable();
    table.integer('quantity').notNullable().defaultTo(1);
    table.bigInteger('unit_amount_minor').notNullable();
    table.bigInteger('amount_minor').notNullable();
    table.integer('tax_rate_bps'); // tax lines: the rate in basis points (2000 = 20 %)
    table.bigInteger('taxable_minor'); // tax lines: the amount the rate applies to
    table.unique(['invoice_id', 'position']);
  });

  // One row per year; the finalizing transaction increments it (row lock), so a rollback gives the number back.
  await knex.schema.createTable('invoice_number_counters', (table) => {
    table.integer('year').primary();
    table.integer('last_number').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('invoice_number_counters');
  await knex.schema.dropTableIfExists('invoice_lines');
  await knex.schema.dropTableIfExists('invoices');
  await knex.schema.dropTableIfExists('subscriptions');
  await knex.schema.dropTableIfExists('plans');
}
