import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabaseExists, migrateToLatest } from '../../../shared/db/migrate.ts';
import { createDb } from '../../../shared/db/knex.ts';
import { testDatabaseUrl, testRedisUrl } from '../../helpers/services.ts';
import { freePort, startServerProcess } from './processes.ts';

const PANEL_URL = 'http://panel.berth.test';
const root = path.resolve(import.meta.dirname, '..', '..', '..');

export type BenchApi = {
  url: string;
  port: number;
  cpuSeconds(): number;
  panelUrl: string;
  databaseUrl: string;
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
};

/**
 * The API as `npm run api` starts it (`node cli/berth.ts api`), in its own process, on the bench's
 * database and Redis database (DATABASE_URL / REDIS_URL, as `npm run bench` sets them from
 * TEST_DATABASE_URL / TEST_REDIS_URL) with a Redis prefix of its own. Limits are raised so every
 * request reaches its route; the log level is the default one, and the log goes to a file.
 * `nodeArgs` go before the script (e.g. `--cpu-prof`).
 */
export async function startBenchApi(options: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<BenchApi> {
  const migrator = createDb(testDatabaseUrl, { poolMax: 1 });
  await ensureDatabaseExists(testDatabaseUrl);
  await migrateToLatest(migrator);
  await migrator.destroy();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  const logFile = path.join(dataDir, 'api.log');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: testDatabaseUrl,
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: `bench-${randomBytes(6).toString('hex')}`,
    PUBLIC_URL: PANEL_URL,
    DATA_DIR: dataDir,
    LOCAL_AGENT: 'off',
    RATE_LIMIT_LOGIN: '1000000/1m',
    RATE_LIMIT_API: '100000000/1m',
    RATE_LIMIT_API_BURST: '100000000/1s',
    WEBHOOK_DISPATCH_INTERVAL: '0ms',
    BILLING_SWEEP_INTERVAL_MS: '0',
    ...options.env,
  };
  const server = await startServerProcess([...(options.nodeArgs ?? []), path.join(root, 'cli', 'berth.ts'), 'api'], { port, env, logFile });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cpuSeconds: () => server.cpuSeconds(),
    panelUrl: PANEL_URL,
    databaseUrl: testDatabaseUrl,
    dataDir,
    logFile,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
