import type { Knex } from 'knex';

/**
 * Long work as operations (ARCHITECTURE "A long operation, end to end"): the row is the truth of
 * where the work stands; its steps are checkpoints a retried job resumes after; its log keeps the
 * last lines the steps printed. Operations of the platform (nodes) have no team.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('operations', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.integer('team_id').references('teams.id').onDelete('CASCADE'); // null: a platform operation (operators only)
    table.text('kind').notNullable();
    table.text('target_type').notNullable();
    table.text('target_id').notNullable();
    table.text('status').notNullable().defaultTo('queued').checkIn(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
    table.smallint('progress').notNullable().defaultTo(0);
    table.jsonb('input').notNullable().defaultTo('{}'); // never secrets: those are sealed in their own domain's rows
    table.jsonb('result');
    table.jsonb('error'); // {step, message, exit_code, stderr_tail}
    table.text('serial_key'); // operations sharing it run one at a time, oldest first
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.integer('attempts').notNullable().defaultTo(0);
    table.integer('deadline_seconds').notNullable();
    table.timestamp('deadline_at', { useTz: true });
    table.timestamp('cancel_requested_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('started_at', { useTz: true });
    table.timestamp('finished_at', { useTz: true });
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['team_id', 'created_at']);
    table.index(['target_type', 'target_id']);
  });
  await knex.raw("CREATE INDEX operations_unfinished ON operations (status, created_at) WHERE status IN ('queued', 'running')");
  await knex.raw("CREATE INDEX operations_serial ON operations (serial_key, created_at) WHERE serial_key IS NOT NULL AND status IN ('queued', 'running')");

  await knex.schema.createTable('operation_steps', (table) => {
    table.uuid('operation_id').notNullable().references('operations.id').onDelete('CASCADE');
    table.smallint('position').notNullable();
    table.text('name').notNullable();
    table.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'running', 'succeeded', 'failed', 'cancelled']);
    table.boolean('cancellable').notNullable().defaultTo(false); // the operation may stop before the next step while this one runs
    table.integer('attempts').notNullable().defaultTo(0);
    table.jsonb('result'); // the checkpoint: what later steps need from this one
    table.timestamp('started_at', { useTz: true });
    table.timestamp('finished_at', { useTz: true });
    table.primary(['operation_id', 'position']);
    table.unique(['operation_id', 'name']);
  });

  await knex.schema.createTable('operation_logs', (table) => {
    table.bigIncrements('id');
    table.uuid('operation_id').notNullable().references('operations.id').onDelete('CASCADE');
    table.text('step');
    table.text('stream').notNullable().checkIn(['info', 'stdout', 'stderr']);
    table.text('line').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['operation_id', 'id']);
  });

  // Developers start operations (site work), so they may cancel them too.
  await knex.raw("UPDATE roles SET permissions = array_append(permissions, 'operations:cancel') WHERE team_id IS NULL AND name = 'developer'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("UPDATE roles SET permissions = array_remove(permissions, 'operations:cancel') WHERE team_id IS NULL AND name = 'developer'");
  for (const table of ['operation_logs', 'operation_steps', 'operations']) await knex.schema.dropTableIfExists(table);
}
