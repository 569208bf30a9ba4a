import type { Knex } from 'knex';

/**
 * Billing profiles (issue 15): who a team's invoices are made out to — legal name, address, country
 * (ISO 3166-1 alpha-2), an optional VAT or tax id — and where they are mailed. The country and VAT id
 * decide the tax (the EU reverse charge, see tax-rule.ts), which the draft records as `tax_note`.
 * `invoices.customer` is the profile as it was at finalization: a finalized invoice never changes,
 * whatever the profile becomes (null: finalized before profiles, or the team had none).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_profiles', (table) => {
    table.integer('team_id').primary().references('teams.id').onDelete('CASCADE');
    table.text('legal_name').notNullable();
    table.text('invoice_email'); // null: invoices go to the team's owners and billing members
    table.text('address_line1').notNullable();
    table.text('address_line2');
    table.text('postal_code').notNullable();
    table.text('city').notNullable();
    table.text('region');
    table.specificType('country', 'char(2)').notNullable();
    table.text('tax_id'); // normalized: upper case, no spaces; an EU country's is a VAT id with its prefix
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("ALTER TABLE billing_profiles ADD CONSTRAINT billing_profiles_country_format CHECK (country ~ '^[A-Z]{2}$')");
  await knex.schema.alterTable('invoices', (table) => {
    table.jsonb('customer'); // the bill-to details at finalization (BillingCustomer), never rewritten
    table.text('tax_note'); // e.g. the reverse-charge note, decided with the tax when the draft was made
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (table) => {
    table.dropColumn('tax_note');
    table.dropColumn('customer');
  });
  await knex.schema.dropTableIfExists('billing_profiles');
}
