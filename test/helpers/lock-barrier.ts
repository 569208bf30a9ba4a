import type { Knex } from 'knex';
import { createDb } from '../../shared/db/knex.ts';
import { testDatabaseUrl } from './services.ts';
import { until } from './site-node.ts';

/**
 * A barrier for the "at once" tests: the test takes, on a connection of its own, the lock every one
 * of the concurrent calls must take, waits until Postgres shows all of them queued behind it
 * (directly, or behind another waiter), then lets them go. The calls then really overlapped: each
 * was inside its transaction, past everything before the lock, at the same moment.
 */
export type LockBarrier = {
  /** How many backends wait on the held lock now, directly or behind one another. */
  waiting(): Promise<number>;
  /** Waits until `count` backends wait on the held lock. */
  untilWaiting(count: number, what: string, timeoutMs?: number): Promise<void>;
  /** Ends the holding transaction (the waiters go on) and closes the connection. Safe to call twice. */
  release(): Promise<void>;
};

/** `take` runs in the holding transaction (e.g. a SELECT … FOR UPDATE, pg_advisory_xact_lock). */
export async function holdLock(take: (trx: Knex.Transaction) => Promise<unknown>): Promise<LockBarrier> {
  // two connections: the holder, and one to look at pg_stat_activity while it holds
  const db = createDb(testDatabaseUrl, { poolMax: 2 });
  const trx = await db.transaction();
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    try {
      if (!trx.isCompleted()) await trx.commit();
    } finally {
      await db.destroy();
    }
  };
  try {
    const holder = (await trx.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    await take(trx);
    const waiting = async () => {
      const rows = (await db.raw(
        "SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      )).rows as Array<{ pid: number; blockers: number[] }>;
      // a second waiter on a row waits on the first one's tuple lock, not on the holder: follow the chain
      const blocked = new Set<number>();
      for (let grew = true; grew;) {
        grew = false;
        for (const row of rows) {
          if (!blocked.has(row.pid) && row.blockers.some((pid) => pid === holder || blocked.has(pid))) {
            blocked.add(row.pid);
            grew = true;
          }
        }
      }
      return blocked.size;
    };
    return {
      waiting,
      async untilWaiting(count, what, timeoutMs = 30_000) {
        let seen = 0;
        try {
          await until(async () => (seen = await waiting()) >= count, `${count} ${what} waiting on the held lock`, timeoutMs, 25);
        } catch (error) {
          throw new Error(`${(error as Error).message} (${seen} were)`);
        }
      },
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}
