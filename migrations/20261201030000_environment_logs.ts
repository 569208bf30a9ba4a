import type { Knex } from 'knex';

/**
 * Environment logs (docs/api/logs.md): the lines of each environment's access, error and PHP logs
 * as its node's agent ships them. `(batch_id, seq)` is unique: a batch the agent sends again (its
 * answer was lost) is stored once. Kept 7 days and 100,000 lines per environment and file (the
 * operations sweep prunes). `sites:logs` (reading them) goes to the built-in roles that change
 * sites; they hold it through `*` or `sites:*` already, so this only adds it where a built-in role
 * was narrowed to exact permissions.
 */
const LOGS_PERMISSION = 'sites:logs';
const GRANTED_TO = ['owner', 'admin', 'developer'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('environment_log_lines', (table) => {
    table.bigIncrements('id');
    table.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    table.text('file').notNullable().checkIn(['access', 'error', 'php']);
    table.timestamp('time', { useTz: true }).notNullable();
    table.text('line').notNullable();
    table.uuid('batch_id').notNullable();
    table.integer('seq').notNullable();
    table.unique(['batch_id', 'seq']);
    table.index(['environment_id', 'file', 'time', 'id']);
  });
  await knex('roles')
    .whereNull('team_id')
    .whereIn('name', GRANTED_TO)
    .whereRaw("NOT (permissions && ARRAY['*', 'sites:*', ?]::text[])", [LOGS_PERMISSION])
    .update({ permissions: knex.raw('ARRAY(SELECT DISTINCT p FROM unnest(permissions || ?::text[]) AS p ORDER BY p)', [[LOGS_PERMISSION]]) });
}

export async function down(knex: Knex): Promise<void> {
  await knex('roles')
    .whereNull('team_id')
    .whereIn('name', GRANTED_TO)
    .update({ permissions: knex.raw('array_remove(permissions, ?)', [LOGS_PERMISSION]) });
  await knex.schema.dropTableIfExists('environment_log_lines');
}
