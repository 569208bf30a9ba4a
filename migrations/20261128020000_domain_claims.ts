import type { Knex } from 'knex';

/**
 * Domain claims that cannot squat a name (issue 19). A name was unique across every claim, so a
 * pending claim, never verified, kept the zone's real owner out forever. Now only a verified claim
 * holds a name (one per name); pending claims of several teams live side by side, each with its own
 * TXT token and a deadline (`verify_by`). The first to prove control wins; the others become
 * `superseded`, and a pending claim past its deadline is `lapsed`. A team holds one live (pending or
 * verified) claim on a name. Pending claims made before this migration get 72 h from now.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('site_domains', (table) => {
    table.timestamp('verify_by', { useTz: true }); // pending: when the claim lapses unverified
  });
  await knex.raw(`UPDATE site_domains SET verify_by = now() + interval '72 hours' WHERE status = 'pending'`);
  await knex.schema.alterTable('site_domains', (table) => {
    table.dropUnique(['name']);
  });
  await knex.raw(`CREATE UNIQUE INDEX site_domains_verified_name ON site_domains (name) WHERE status = 'verified'`);
  await knex.raw(`CREATE UNIQUE INDEX site_domains_team_live_name ON site_domains (team_id, name) WHERE status IN ('pending', 'verified')`);
  await knex.raw(`CREATE INDEX site_domains_name ON site_domains (name)`);
  await knex.raw(`ALTER TABLE site_domains ADD CONSTRAINT site_domains_status CHECK (status IN ('pending', 'verified', 'lapsed', 'superseded'))`);
  await knex.raw(`ALTER TABLE site_domains ADD CONSTRAINT site_domains_pending_deadline CHECK (status <> 'pending' OR verify_by IS NOT NULL)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE site_domains DROP CONSTRAINT site_domains_pending_deadline');
  await knex.raw('ALTER TABLE site_domains DROP CONSTRAINT site_domains_status');
  await knex.raw('DROP INDEX site_domains_name');
  await knex.raw('DROP INDEX site_domains_team_live_name');
  await knex.raw('DROP INDEX site_domains_verified_name');
  await knex('site_domains').whereNot({ status: 'verified' }).delete();
  await knex.schema.alterTable('site_domains', (table) => {
    table.unique(['name']);
    table.dropColumn('verify_by');
  });
}
