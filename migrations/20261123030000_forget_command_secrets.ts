import type { Knex } from 'knex';

/**
 * Finished agent commands no longer keep what they were given in an exec's environment (database
 * passwords, the PHP helper's input) nor what a secret read returned (the site admin's password
 * link): shared/domains/agent/agent-commands.ts now drops them as commands end; this drops those
 * already stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE agent_commands
       SET payload = payload || jsonb_build_object('env', (SELECT coalesce(jsonb_object_agg(key, to_jsonb('[forgotten]'::text)), '{}'::jsonb) FROM jsonb_object_keys(payload->'env') AS key))
     WHERE status IN ('succeeded', 'failed') AND jsonb_typeof(payload->'env') = 'object'`);
  await knex.raw(`
    UPDATE agent_commands SET result = to_jsonb('[forgotten]'::text)
     WHERE kind = 'files.get' AND payload->>'path' LIKE '%/.berth-install-%'`);
}

export async function down(): Promise<void> {
  // what was forgotten stays forgotten
}
