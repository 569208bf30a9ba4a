/**
 * Where the suite's real services are. `npm test` (ops/run.sh) points these at a database and a
 * Redis database of their own and starts the servers when needed; run vitest directly and these
 * defaults apply.
 */
export const suiteDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://berth:berth@127.0.0.1:5432/berth_test';
export const testRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/**
 * Test files run side by side, one per vitest worker; each worker has a copy of the migrated suite
 * database of its own (made by test/global-setup.ts), so a file never sees rows another file is
 * writing at that moment: listings, counts and the operations sweep stay the file's own. Outside
 * vitest (the benches) it is the suite database itself.
 */
export function workerDatabaseUrl(poolId: number): string {
  const url = new URL(suiteDatabaseUrl);
  url.pathname = `${url.pathname}_w${poolId}`;
  return url.toString();
}

export const testDatabaseUrl = process.env.VITEST_POOL_ID ? workerDatabaseUrl(Number(process.env.VITEST_POOL_ID)) : suiteDatabaseUrl;

export function describeService(name: string, variable: string, url: string, error: unknown): Error {
  const safeUrl = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return new Error(
    `${name} is not reachable at ${variable}=${safeUrl} (${(error as Error).message}). ` +
      'Run the suite with `npm test`, which starts it through ops/run.sh, or start it yourself.',
  );
}
