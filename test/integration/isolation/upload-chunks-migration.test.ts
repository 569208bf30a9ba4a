import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, up } from '../../../migrations/20261124000000_upload_chunks.ts';
import { createDb, type Db } from '../../../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../../shared/db/migrate.ts';
import { uploadContent } from '../../../shared/domains/uploads/uploads.ts';
import { createOwner } from '../../helpers/factories.ts';
import { testDatabaseUrl } from '../../helpers/services.ts';

// A database of its own: the migration is taken back and applied again with rows in place.
const url = new URL(testDatabaseUrl);
url.pathname = `${url.pathname}_chunks_migration`;
const databaseUrl = url.toString();
let db: Db;

async function dropDatabase(): Promise<void> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(url.pathname.slice(1))} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await dropDatabase();
  await ensureDatabaseExists(databaseUrl);
  db = createDb(databaseUrl, { poolMax: 2 });
  await migrateToLatest(db);
});
afterAll(async () => {
  await db?.destroy();
  await dropDatabase();
});

describe('migration 20261124000000_upload_chunks', () => {
  it('cuts the bytes of existing uploads into 1 MiB chunks, keeps empty ones readable, and goes back', async () => {
    await db.transaction((trx) => down(trx));
    const owner = await createOwner(db);
    const big = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(2 * 1024 * 1024 + 12345)]);
    const small = Buffer.from('PK\x03\x04 small', 'latin1');
    const row = (content: Buffer, name: string) => ({
      team_id: owner.teamId,
      filename: name,
      content_type: 'application/zip',
      size_bytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      content,
      expires_at: new Date(Date.now() + 3_600_000),
    });
    const [bigRow, smallRow, emptyRow] = await db('uploads')
      .insert([row(big, 'big.zip'), row(small, 'small.zip'), row(Buffer.alloc(0), 'empty.zip')])
      .returning(['id', 'size_bytes']);

    await db.transaction((trx) => up(trx));
    expect(await db('upload_chunks').where({ upload_id: bigRow.id }).orderBy('seq').pluck('seq')).toEqual([0, 1, 2]);
    for (const [stored, bytes] of [
      [bigRow, big],
      [smallRow, small],
      [emptyRow, Buffer.alloc(0)],
    ] as const) {
      const read: Buffer[] = [];
      for await (const chunk of uploadContent(db, { id: stored.id, size_bytes: Number(stored.size_bytes) })) read.push(chunk);
      expect(Buffer.concat(read).equals(bytes)).toBe(true);
    }
    expect(await db.schema.hasColumn('uploads', 'content')).toBe(false);

    // and back: the bytes return to the column
    await db.transaction((trx) => down(trx));
    const restored = await db('uploads').where({ id: bigRow.id }).first('content');
    expect((restored.content as Buffer).equals(big)).toBe(true);
    await db.transaction((trx) => up(trx));
  });
});
