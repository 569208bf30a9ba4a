import type { Knex } from 'knex';

/** Consecutive failures allowed before the account locks. */
export const THROTTLE_FREE_FAILURES = 5;
const FIRST_LOCK_MS = 60_000;
const LONGEST_LOCK_MS = 15 * 60_000;

type Executor = Knex | Knex.Transaction;

/**
 * The per-account throttle, beside the per-IP limits: after 5 consecutive failures of any factor
 * (password, device code, TOTP, backup code) the account locks for 1 minute, then 2, 4, 8 and 15 at
 * most for each further failure. While locked, every attempt fails exactly as a wrong one would, so
 * the lock tells an attacker nothing. A success resets the count.
 */
export async function isAccountLocked(db: Executor, userId: number): Promise<boolean> {
  const row = await db('users').where({ id: userId }).first('locked_until');
  return Boolean(row?.locked_until && new Date(row.locked_until).getTime() > Date.now());
}

export function lockDurationMs(failures: number): number {
  if (failures < THROTTLE_FREE_FAILURES) return 0;
  return Math.min(LONGEST_LOCK_MS, FIRST_LOCK_MS * 2 ** (failures - THROTTLE_FREE_FAILURES));
}

/** Counts a failure atomically (parallel failures each count) and locks when the count says so. */
export async function recordAuthFailure(db: Executor, userId: number): Promise<void> {
  const [row] = await db('users').where({ id: userId }).increment('failed_auth_count', 1).returning(['failed_auth_count']);
  const lockMs = lockDurationMs(row?.failed_auth_count ?? 0);
  if (lockMs > 0)
    await db('users')
      .where({ id: userId })
      .update({ locked_until: new Date(Date.now() + lockMs) });
}

export async function recordAuthSuccess(db: Executor, userId: number): Promise<void> {
  await db('users')
    .where({ id: userId })
    .where((query) => query.where('failed_auth_count', '>', 0).orWhereNotNull('locked_until'))
    .update({ failed_auth_count: 0, locked_until: null });
}
