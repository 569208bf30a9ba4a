import type { Knex } from 'knex';

/**
 * Subscription lifecycle (issue 15): trials, why a subscription ended, and periods anchored to a day
 * of the month.
 * - `plans.trial_days`: a team's first trial on such a plan gives its entitlements for that many days
 *   with no invoice; `subscriptions.trial_used_at` keeps, across the row's reuse (one row per team),
 *   that the team had its one trial.
 * - `subscriptions.billing_anchor`: the first paid period's start; every period ends at the anchor
 *   plus n intervals, so a period anchored on the 31st renews on the 31st (or the month's last day),
 *   never drifting to the 28th. Existing rows are anchored at their current period's start.
 * - `subscriptions.ended_reason`: why a canceled subscription ended.
 */
const ENDED_REASONS = ['canceled', 'trial_canceled', 'incomplete_expired'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (table) => {
    table.integer('trial_days').notNullable().defaultTo(0);
  });
  await knex.raw('ALTER TABLE plans ADD CONSTRAINT plans_trial_days_range CHECK (trial_days BETWEEN 0 AND 90)');
  await knex('plans').whereIn('code', ['starter', 'business']).update({ trial_days: 14 });

  await knex.schema.alterTable('subscriptions', (table) => {
    table.timestamp('trial_start', { useTz: true });
    table.timestamp('trial_end', { useTz: true });
    table.timestamp('trial_used_at', { useTz: true });
    table.timestamp('billing_anchor', { useTz: true });
    table.text('ended_reason').checkIn([...ENDED_REASONS]);
  });
  await knex('subscriptions').update({ billing_anchor: knex.ref('current_period_start') });
  await knex.raw('ALTER TABLE subscriptions ALTER COLUMN billing_anchor SET NOT NULL');
  await knex.raw(
    'ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_trial_dates CHECK ((trial_start IS NULL) = (trial_end IS NULL) AND (trial_end IS NULL OR trial_end > trial_start))',
  );
  // The sweep's expiry of never-paid subscriptions reads them by status and start.
  await knex.raw("CREATE INDEX subscriptions_incomplete_start ON subscriptions (current_period_start) WHERE status = 'incomplete'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS subscriptions_incomplete_start');
  await knex.raw('ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_trial_dates');
  await knex.schema.alterTable('subscriptions', (table) => {
    table.dropColumn('ended_reason');
    table.dropColumn('billing_anchor');
    table.dropColumn('trial_used_at');
    table.dropColumn('trial_end');
    table.dropColumn('trial_start');
  });
  await knex.raw('ALTER TABLE plans DROP CONSTRAINT IF EXISTS plans_trial_days_range');
  await knex.schema.alterTable('plans', (table) => {
    table.dropColumn('trial_days');
  });
}
