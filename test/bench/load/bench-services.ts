/**
 * A bench's own database and Redis database, so a bench never reads rows the tests (or another
 * bench) left behind, and tests never see a bench's. The database is `<suite database>_bench_<name>`,
 * dropped and migrated afresh on every run; Redis is BENCH_REDIS_URL, else the suite's Redis server
 * with database 14 (every stack also has a Redis prefix of its own).
 */
import pg from 'pg';
import { createDb } from '../../../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../../shared/db/migrate.ts';
import { suiteDatabaseUrl, testRedisUrl } from '../../helpers/services.ts';

export type BenchServices = { databaseUrl: string; redisUrl: string; env: { DATABASE_URL: string; REDIS_URL: string } };

export async function benchServices(name: string): Promise<BenchServices> {
  const databaseUrl = new URL(suiteDatabaseUrl);
  databaseUrl.pathname = `${databaseUrl.pathname}_bench_${name.replace(/\W/g, '_')}`;
  const maintenance = new URL(suiteDatabaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(databaseUrl.pathname.slice(1))} WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await ensureDatabaseExists(databaseUrl.toString());
  const db = createDb(databaseUrl.toString(), { poolMax: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  const redisUrl = new URL(process.env.BENCH_REDIS_URL ?? testRedisUrl);
  if (!process.env.BENCH_REDIS_URL) redisUrl.pathname = '/14';
  return {
    databaseUrl: databaseUrl.toString(),
    redisUrl: redisUrl.toString(),
    env: { DATABASE_URL: databaseUrl.toString(), REDIS_URL: redisUrl.toString() },
  };
}
