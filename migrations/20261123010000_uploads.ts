import type { Knex } from 'knex';

/**
 * Uploads: plugin and theme packages (zip) a team uploads, which a node then fetches with a
 * `files.fetch` command. They live 24 hours (the sweeper deletes them); the bytes are kept in the
 * row, so the API and the workers need no shared disk.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploads', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    table.integer('created_by_user_id').references('users.id').onDelete('SET NULL');
    table.text('filename').notNullable();
    table.text('content_type').notNullable();
    table.bigInteger('size_bytes').notNullable();
    table.text('sha256').notNullable();
    table.binary('content').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['team_id']);
    table.index(['expires_at']);
  });
  // Zips are compressed already; stored uncompressed, substring() reads only the slice it is asked
  // for, so a download streams in chunks instead of detoasting the whole value for each one.
  await knex.raw('ALTER TABLE uploads ALTER COLUMN content SET STORAGE EXTERNAL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('uploads');
}
