import type { Knex } from 'knex';

/**
 * The page cache at the edge, per environment: on for production (existing ones included), off for
 * staging and development, whose pages change under their developers' hands; `cache_exclusions` are
 * path prefixes it never caches. `sites:cache` (purging a cache) is granted to the built-in roles
 * that change sites; they hold it through `*` or `sites:*` already, so this only adds it where a
 * built-in role was narrowed to exact permissions.
 */
const CACHE_PERMISSION = 'sites:cache';
const GRANTED_TO = ['owner', 'admin', 'developer'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environments', (table) => {
    table.boolean('page_cache').notNullable().defaultTo(false);
    table.jsonb('cache_exclusions').notNullable().defaultTo(knex.raw("'[]'::jsonb"));
  });
  await knex('environments').where({ kind: 'production' }).update({ page_cache: true });
  await knex('roles')
    .whereNull('team_id')
    .whereIn('name', GRANTED_TO)
    .whereRaw("NOT (permissions && ARRAY['*', 'sites:*', ?]::text[])", [CACHE_PERMISSION])
    .update({ permissions: knex.raw('ARRAY(SELECT DISTINCT p FROM unnest(permissions || ?::text[]) AS p ORDER BY p)', [[CACHE_PERMISSION]]) });
}

export async function down(knex: Knex): Promise<void> {
  await knex('roles')
    .whereNull('team_id')
    .whereIn('name', GRANTED_TO)
    .update({ permissions: knex.raw('array_remove(permissions, ?)', [CACHE_PERMISSION]) });
  await knex.schema.alterTable('environments', (table) => {
    table.dropColumn('cache_exclusions');
    table.dropColumn('page_cache');
  });
}
