import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Db } from './knex.ts';

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));

type Migration = { up(knex: Knex): Promise<void>; down?(knex: Knex): Promise<void> };

/** Migrations are the files of migrations/, named <timestamp>_<what>.ts, applied in name order. */
const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return fs
      .readdirSync(migrationsDir)
      .filter((file) => /^\d{14}_[\w-]+\.ts$/.test(file))
      .sort();
  },
  getMigrationName(file) {
    return file;
  },
  async getMigration(file): Promise<Migration> {
    return (await import(pathToFileURL(path.join(migrationsDir, file)).href)) as Migration;
  },
};

export async function migrateToLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/** Creates the database the URL names when it does not exist yet (a fresh machine, a test run). */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) return;
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}
