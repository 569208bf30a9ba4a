import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type Db = Knex;

// COUNT(*) and BIGINT columns arrive as strings by default; every count we keep fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createDb(databaseUrl: string, options: { poolMax?: number } = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, application_name: 'berth' },
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}
