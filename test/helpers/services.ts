/**
 * Where the suite's real services are. `npm test` (ops/run.sh) points these at a database and a
 * Redis database of their own and starts the servers when needed; run vitest directly and these
 * defaults apply.
 */
export const testDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://berth:berth@127.0.0.1:5432/berth_test';
export const testRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/15';

export function describeService(name: string, variable: string, url: string, error: unknown): Error {
  const safeUrl = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  return new Error(
    `${name} is not reachable at ${variable}=${safeUrl} (${(error as Error).message}). ` +
      'Run the suite with `npm test`, which starts it through ops/run.sh, or start it yourself.',
  );
}
