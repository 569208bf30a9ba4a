import type { Knex } from 'knex';

/** The size of the chunks the API writes; existing uploads are cut the same way. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Upload bytes move from one `uploads.content` value to `upload_chunks` rows of up to 1 MiB, written
 * one by one as the request streams in (the API never holds a whole package) and read back in `seq`
 * order by a node's download. Existing uploads are cut into chunks, then the column is dropped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('upload_chunks', (table) => {
    table.uuid('upload_id').notNullable().references('uploads.id').onDelete('CASCADE');
    table.integer('seq').notNullable();
    table.binary('bytes').notNullable();
    table.primary(['upload_id', 'seq']);
  });
  // Zips are compressed already: no point in Postgres trying again.
  await knex.raw('ALTER TABLE upload_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL');
  await knex.raw(
    `INSERT INTO upload_chunks (upload_id, seq, bytes)
     SELECT u.id, part.seq, substring(u.content FROM part.seq * ? + 1 FOR ?)
       FROM uploads u
       CROSS JOIN LATERAL generate_series(0, (length(u.content) - 1) / ?) AS part(seq)
      WHERE length(u.content) > 0`,
    [CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES],
  );
  await knex.schema.alterTable('uploads', (table) => {
    table.dropColumn('content');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('uploads', (table) => {
    table.binary('content');
  });
  await knex.raw(
    `UPDATE uploads u SET content = coalesce((SELECT string_agg(c.bytes, ''::bytea ORDER BY c.seq) FROM upload_chunks c WHERE c.upload_id = u.id), ''::bytea)`,
  );
  await knex.raw('ALTER TABLE uploads ALTER COLUMN content SET NOT NULL');
  await knex.schema.dropTable('upload_chunks');
}
