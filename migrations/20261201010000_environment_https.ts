import type { Knex } from 'knex';

/**
 * HTTPS done right and password-protected environments (issue 23).
 * - `url_scheme`: the scheme WordPress's own URLs use now (home, siteurl, links in content). It moves
 *   to https only once a certificate covering the address is served and forcing is on; the edge
 *   redirects HTTP to HTTPS and sends HSTS only while it is https.
 * - `force_https`: the team's choice; null is the default (on once a certificate is active).
 * - `hsts_max_age_seconds`: null is the default (a year on production, none on staging/development).
 * - HTTP basic auth at the edge: a user name and its SHA-512-crypt hash (never the password).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environments', (table) => {
    table.text('url_scheme').notNullable().defaultTo('http');
    table.boolean('force_https');
    table.integer('hsts_max_age_seconds');
    table.text('password_protection_username');
    table.text('password_protection_hash');
  });
  await knex.raw(`ALTER TABLE environments ADD CONSTRAINT environments_url_scheme CHECK (url_scheme IN ('http', 'https'))`);
  await knex.raw(`ALTER TABLE environments ADD CONSTRAINT environments_hsts_range CHECK (hsts_max_age_seconds BETWEEN 0 AND 63072000)`);
  await knex.raw(
    `ALTER TABLE environments ADD CONSTRAINT environments_password_protection CHECK ((password_protection_username IS NULL) = (password_protection_hash IS NULL))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE environments DROP CONSTRAINT environments_password_protection');
  await knex.raw('ALTER TABLE environments DROP CONSTRAINT environments_hsts_range');
  await knex.raw('ALTER TABLE environments DROP CONSTRAINT environments_url_scheme');
  await knex.schema.alterTable('environments', (table) => {
    table.dropColumns('url_scheme', 'force_https', 'hsts_max_age_seconds', 'password_protection_username', 'password_protection_hash');
  });
}
