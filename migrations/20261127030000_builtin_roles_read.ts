import type { Knex } from 'knex';

/**
 * The built-in roles learn the domains added since they were written (issue 14): `viewer` "reads
 * everything", so it reads SFTP users (names and hosts, never a password) and webhook endpoints with
 * their delivery logs; `developer` reads webhooks too. Neither sees a signing secret
 * (`GET …/secret` asks for webhooks:manage) nor changes anything. Teams' own roles are left alone.
 */
const ADDED: Record<string, string[]> = {
  viewer: ['sftp:read', 'webhooks:read'],
  developer: ['webhooks:read'],
};

export async function up(knex: Knex): Promise<void> {
  for (const [name, permissions] of Object.entries(ADDED)) {
    await knex('roles')
      .whereNull('team_id')
      .where({ name })
      .update({ permissions: knex.raw('ARRAY(SELECT DISTINCT p FROM unnest(permissions || ?::text[]) AS p ORDER BY p)', [permissions]) });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, permissions] of Object.entries(ADDED)) {
    await knex('roles')
      .whereNull('team_id')
      .where({ name })
      .update({ permissions: knex.raw('ARRAY(SELECT p FROM unnest(permissions) AS p WHERE NOT (p = ANY(?::text[])))', [permissions]) });
  }
}
