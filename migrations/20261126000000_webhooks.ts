import type { Knex } from 'knex';

/**
 * Webhooks (issue 14). A team's endpoints; the outbox of events, written in the transaction of the
 * change each one reports; one delivery per endpoint and event (or per manual redelivery), and every
 * HTTP attempt of it with excerpts of what was sent and answered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (table) => {
    table.bigIncrements('id');
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('url').notNullable();
    table.text('description').notNullable().defaultTo('');
    // empty: every event type
    table.specificType('event_types', 'text[]').notNullable().defaultTo('{}');
    table.boolean('enabled').notNullable().defaultTo(true);
    table.text('disabled_reason'); // manual | gone | failing
    table.timestamp('disabled_at', { useTz: true });
    // sealed with SECRET_KEY: signing needs the secret itself
    table.text('secret_sealed').notNullable();
    table.text('previous_secret_sealed');
    table.timestamp('previous_secret_expires_at', { useTz: true });
    // the first failed attempt since the last success; null while it answers
    table.timestamp('failing_since', { useTz: true });
    // set when the workers disabled it; cleared once the owners' mail is queued (the dispatcher retries)
    table.boolean('disabled_mail_pending').notNullable().defaultTo(false);
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['team_id']);
  });

  await knex.schema.createTable('webhook_events', (table) => {
    table.text('id').primary(); // msg_<random>: the webhook-id every delivery of it carries
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.text('type').notNullable();
    // the exact bytes sent (text, not jsonb: a signature covers the bytes, and jsonb reorders keys)
    table.text('body').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // null until the dispatcher has made its deliveries
    table.timestamp('fanned_out_at', { useTz: true });
    table.index(['created_at']); // the retention sweep
  });
  await knex.raw('CREATE INDEX webhook_events_waiting ON webhook_events (created_at) WHERE fanned_out_at IS NULL');

  await knex.schema.createTable('webhook_deliveries', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.bigInteger('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    table.text('event_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    table.text('status').notNullable().defaultTo('pending'); // pending | succeeded | failed
    table.boolean('manual').notNullable().defaultTo(false);
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('next_attempt_at', { useTz: true });
    // held by the worker attempting it; a crashed attempt is taken again once this passes
    table.timestamp('leased_until', { useTz: true });
    table.integer('last_status_code');
    table.text('last_error');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('finished_at', { useTz: true });
    table.index(['endpoint_id', 'created_at']);
    table.index(['event_id']); // the retention sweep's cascade
  });
  await knex.raw("CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'");

  // set once a node's silence has been reported as `node.offline`, cleared when `node.online` is
  await knex.schema.alterTable('nodes', (table) => {
    table.timestamp('offline_announced_at', { useTz: true });
  });

  await knex.schema.createTable('webhook_attempts', (table) => {
    table.bigIncrements('id');
    table.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    table.integer('number').notNullable();
    table.timestamp('started_at', { useTz: true }).notNullable();
    table.integer('duration_ms').notNullable();
    table.jsonb('request_headers').notNullable();
    table.text('request_body').notNullable();
    table.integer('response_status');
    table.jsonb('response_headers');
    table.text('response_body');
    table.text('error');
    table.unique(['delivery_id', 'number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.alterTable('nodes', (table) => table.dropColumn('offline_announced_at'));
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhook_endpoints');
}
