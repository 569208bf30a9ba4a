import type { Knex } from 'knex';

/**
 * Add-ons (issue 15): extras a subscribed team buys by the unit on top of its plan (one more site,
 * 50 GiB more disk...). Operators manage the catalogue like plans; each unit adds its increments to
 * the team's `team_entitlements`. A subscription holds each add-on once with a quantity; a decrease
 * waits for the renewal in `pending_quantity` (0: removed then), as a plan downgrade does.
 */
const GiB = 1024 ** 3;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('addons', (table) => {
    table.increments('id');
    table.text('code').notNullable().unique();
    table.text('name').notNullable();
    table.bigInteger('price_minor').notNullable().checkPositive(); // per unit and interval, before tax
    table.specificType('currency', 'char(3)').notNullable();
    table.text('interval').notNullable().checkIn(['month', 'year']);
    table.integer('extra_sites').notNullable().defaultTo(0);
    table.bigInteger('extra_disk_bytes').notNullable().defaultTo(0);
    table.integer('extra_backups_manual_keep').notNullable().defaultTo(0);
    table.integer('extra_backups_scheduled_keep').notNullable().defaultTo(0);
    table.boolean('active').notNullable().defaultTo(true); // inactive: not sold any more, those who have it keep it
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("ALTER TABLE addons ADD CONSTRAINT addons_currency_upper CHECK (currency ~ '^[A-Z]{3}$')");
  await knex.raw("ALTER TABLE addons ADD CONSTRAINT addons_code_format CHECK (code ~ '^[a-z0-9][a-z0-9_-]{1,48}[a-z0-9]$')");
  // A unit that adds nothing would be billed for nothing.
  await knex.raw(`ALTER TABLE addons ADD CONSTRAINT addons_adds_something CHECK (
    extra_sites >= 0 AND extra_disk_bytes >= 0 AND extra_backups_manual_keep >= 0 AND extra_backups_scheduled_keep >= 0
    AND extra_sites + extra_disk_bytes + extra_backups_manual_keep + extra_backups_scheduled_keep > 0)`);

  await knex('addons').insert([
    { code: 'extra-site', name: 'Extra site', price_minor: 500, currency: 'EUR', interval: 'month', extra_sites: 1 },
    { code: 'extra-disk-50', name: 'Extra 50 GiB disk', price_minor: 1000, currency: 'EUR', interval: 'month', extra_disk_bytes: 50 * GiB },
    { code: 'extra-site-yearly', name: 'Extra site (yearly)', price_minor: 5000, currency: 'EUR', interval: 'year', extra_sites: 1 },
    { code: 'extra-disk-50-yearly', name: 'Extra 50 GiB disk (yearly)', price_minor: 10000, currency: 'EUR', interval: 'year', extra_disk_bytes: 50 * GiB },
  ]);

  await knex.schema.createTable('subscription_addons', (table) => {
    table.increments('id');
    table.integer('subscription_id').notNullable().references('subscriptions.id').onDelete('CASCADE');
    table.integer('addon_id').notNullable().references('addons.id'); // RESTRICT: an add-on in use is deactivated, not deleted
    table.integer('quantity').notNullable();
    table.integer('pending_quantity'); // a decrease chosen during the period: the quantity the renewal keeps (0: none)
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['subscription_id', 'addon_id']);
    table.index(['addon_id']);
  });
  await knex.raw('ALTER TABLE subscription_addons ADD CONSTRAINT subscription_addons_quantity CHECK (quantity BETWEEN 1 AND 100)');
  // Only decreases wait: an increase applies (and is invoiced) at once.
  await knex.raw(
    'ALTER TABLE subscription_addons ADD CONSTRAINT subscription_addons_pending_decrease CHECK (pending_quantity IS NULL OR (pending_quantity >= 0 AND pending_quantity < quantity))',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('subscription_addons');
  await knex.schema.dropTableIfExists('addons');
}
