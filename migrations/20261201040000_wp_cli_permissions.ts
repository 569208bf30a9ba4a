import type { Knex } from 'knex';

/**
 * WP-CLI and the standalone search-replace (issue 23): `wordpress:cli` runs a WP-CLI command in an
 * environment, `wordpress:search_replace` rewrites its database. Granted to the built-in roles that
 * change WordPress; they hold them through `*` or `wordpress:*` already, so this only adds them where
 * a built-in role was narrowed to exact permissions.
 */
const PERMISSIONS = ['wordpress:cli', 'wordpress:search_replace'];
const GRANTED_TO = ['owner', 'admin', 'developer'];

export async function up(knex: Knex): Promise<void> {
  for (const permission of PERMISSIONS) {
    await knex('roles')
      .whereNull('team_id')
      .whereIn('name', GRANTED_TO)
      .whereRaw("NOT (permissions && ARRAY['*', 'wordpress:*', ?]::text[])", [permission])
      .update({ permissions: knex.raw('ARRAY(SELECT DISTINCT p FROM unnest(permissions || ?::text[]) AS p ORDER BY p)', [[permission]]) });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const permission of PERMISSIONS) {
    await knex('roles')
      .whereNull('team_id')
      .whereIn('name', GRANTED_TO)
      .update({ permissions: knex.raw('array_remove(permissions, ?)', [permission]) });
  }
}
