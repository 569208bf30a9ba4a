import type { Knex } from 'knex';
import { createDb, type Db } from '../../shared/db/knex.ts';
import { testDatabaseUrl } from './services.ts';
import { until } from './until.ts';

export type LockBarrier = {
  /** How many sessions wait behind the test's lock now, directly or behind another waiter. */
  waiting(): Promise<number>;
  /** Waits until `count` sessions wait behind the lock (the calls are all in flight at the same point), and answers how many do. */
  untilWaiting(count: number, what: string): Promise<number>;
  /** Ends the test's transaction (commit, or rollback to undo what `lock` wrote), letting the waiters through. */
  release(options?: { rollback?: boolean }): Promise<void>;
};

// Every session whose lock wait leads back to the test's: blocked by it, or by a session that is
// (counted only when its application_name is the one given, if one is).
const WAITING_BEHIND = `
WITH RECURSIVE behind(pid) AS (
  SELECT pid FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))
  UNION
  SELECT activity.pid FROM pg_stat_activity activity JOIN behind ON behind.pid = ANY(pg_blocking_pids(activity.pid))
)
SELECT count(*)::int AS n FROM behind JOIN pg_stat_activity activity USING (pid) WHERE ?::text IS NULL OR activity.application_name = ?::text`;

/**
 * The database URL with an application_name: a stack started with it (env DATABASE_URL) can be told
 * apart in pg_stat_activity from other test files' processes on the same database, whose unscoped
 * work (a billing sweep) may queue behind the same lock.
 */
export function withApplicationName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

export type BarrierOptions = { rollback?: boolean; applicationName?: string };

/**
 * A barrier the server itself passes through: `lock` takes a row lock (or writes a row) in the test's
 * own transaction, so every request that needs that row stops at the same point. Once `untilWaiting(n)`
 * has seen n server sessions waiting behind it, the n calls provably overlapped; `release` lets them go.
 * Use FOR NO KEY UPDATE for a row the server locks FOR UPDATE, so foreign-key checks elsewhere do not stop.
 */
export async function holdLock(
  db: Db,
  lock: (trx: Knex.Transaction) => Promise<unknown>,
  options: Pick<BarrierOptions, 'applicationName'> = {},
): Promise<LockBarrier> {
  const trx = await db.transaction();
  const pid = ((await trx.raw('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;
  await lock(trx).catch(async (error: unknown) => {
    await trx.rollback();
    throw error;
  });
  const name = options.applicationName ?? null;
  const waiting = async () => ((await db.raw(WAITING_BEHIND, [pid, name, name])).rows[0] as { n: number }).n;
  return {
    waiting,
    untilWaiting: async (count, what) =>
      until(
        async () => {
          const now = await waiting();
          return now >= count ? now : null;
        },
        `${count} sessions (${what}) to wait behind the test's lock`,
        15_000,
        20,
      ),
    release: async (options = {}) => {
      if (trx.isCompleted()) return;
      if (options.rollback) await trx.rollback();
      else await trx.commit();
    },
  };
}

/**
 * holdLock on a pool of its own (the holder and the look at pg_stat_activity), for a test whose
 * server shares the stack's pool and may need every connection of it while its calls wait.
 */
export async function holdLockAlone(lock: (trx: Knex.Transaction) => Promise<unknown>): Promise<LockBarrier> {
  const db = createDb(testDatabaseUrl, { poolMax: 2 });
  try {
    const barrier = await holdLock(db, lock);
    return {
      ...barrier,
      release: async (options) => {
        try {
          await barrier.release(options);
        } finally {
          await db.destroy();
        }
      },
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Runs `calls` while the test holds `lock`, waits until `count` sessions wait behind it, then
 * releases it and answers the calls' result with how many waited (the test asserts it: the overlap).
 */
export async function overlapped<T>(
  db: Db,
  lock: (trx: Knex.Transaction) => Promise<unknown>,
  count: number,
  what: string,
  calls: () => Promise<T>,
  options: BarrierOptions = {},
): Promise<{ result: T; waited: number }> {
  const barrier = await holdLock(db, lock, options);
  let running: Promise<T> | undefined;
  let waited = 0;
  try {
    running = calls();
    waited = await barrier.untilWaiting(count, what);
  } finally {
    await barrier.release(options);
  }
  return { result: await running, waited };
}
