import pg from 'pg';
import { Redis } from 'ioredis';
import { createDb } from '../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../shared/db/migrate.ts';
import { describeService, testDatabaseUrl, testRedisUrl } from './helpers/services.ts';

/**
 * Once per run: a fresh test database migrated from nothing (so the migrations themselves are tested
 * every run), and a check that Redis answers. A missing service fails the run with its name.
 */
export default async function setup(): Promise<void> {
  const name = new URL(testDatabaseUrl).pathname.slice(1);
  if (!/test/.test(name)) throw new Error(`refusing to recreate database "${name}": the test database name must contain "test"`);
  const maintenance = new URL(testDatabaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw describeService('Postgres', 'DATABASE_URL', testDatabaseUrl, error);
  }
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await ensureDatabaseExists(testDatabaseUrl);
  const db = createDb(testDatabaseUrl, { poolMax: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }

  const redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw describeService('Redis', 'REDIS_URL', testRedisUrl, error);
  } finally {
    redis.disconnect();
  }
}
