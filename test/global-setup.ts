import pg from 'pg';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { createDb } from '../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../shared/db/migrate.ts';
import { describeService, suiteDatabaseUrl, testRedisUrl, workerDatabaseUrl } from './helpers/services.ts';

/**
 * Once per run: a fresh test database migrated from nothing (so the migrations themselves are tested
 * every run), one copy of it per vitest worker (files run side by side, each worker on its own
 * copy), and a check that Redis answers. A missing service fails the run with its name.
 */
export default async function setup(project: TestProject): Promise<void> {
  const name = databaseName(suiteDatabaseUrl);
  if (!/test/.test(name)) throw new Error(`refusing to recreate database "${name}": the test database name must contain "test"`);
  const workerNames = Array.from({ length: project.globalConfig.maxWorkers }, (_, index) => databaseName(workerDatabaseUrl(index + 1)));

  await withMaintenanceConnection(async (client) => {
    for (const database of [name, ...workerNames]) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database)} WITH (FORCE)`);
  });
  await ensureDatabaseExists(suiteDatabaseUrl);
  const db = createDb(suiteDatabaseUrl, { poolMax: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  // a template copy is a file copy: far faster than migrating each worker's database again
  await withMaintenanceConnection(async (client) => {
    for (const database of workerNames) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)} TEMPLATE ${client.escapeIdentifier(name)}`);
    }
  });

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

function databaseName(url: string): string {
  return new URL(url).pathname.slice(1);
}

async function withMaintenanceConnection(work: (client: pg.Client) => Promise<void>): Promise<void> {
  const maintenance = new URL(suiteDatabaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw describeService('Postgres', 'DATABASE_URL', suiteDatabaseUrl, error);
  }
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
