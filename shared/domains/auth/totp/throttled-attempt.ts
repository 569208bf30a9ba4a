import type { Knex } from 'knex';
import type { Db } from '../../../db/knex.ts';
import { User } from '../../../db/models.ts';
import { NotAuthenticated } from '../../../errors.ts';
import { isAccountLocked, recordAuthFailure, recordAuthSuccess } from '../account-throttle.ts';

/** The one answer to a wrong, replayed or used code, and to any code while the account is locked. */
export const INVALID_CODE = 'Invalid code';

/**
 * One attempt at a second factor under the account throttle. The user's row stays locked for the
 * attempt, so parallel attempts are judged one after another and a burst cannot outrun the lock.
 * While the account is locked the code is not even looked at. `check` answers null for a wrong code,
 * which counts as a failure; anything else is a success and resets the count.
 */
export async function throttledAttempt<T>(db: Db, userId: number, check: (trx: Knex.Transaction, user: User) => Promise<T | null>): Promise<T> {
  const outcome = await db.transaction(async (trx) => {
    const user = await User.query(trx).findById(userId).forUpdate();
    if (!user || (await isAccountLocked(trx, userId))) return null;
    const result = await check(trx, user);
    if (result === null) await recordAuthFailure(trx, userId);
    else await recordAuthSuccess(trx, userId);
    return result;
  });
  if (outcome === null) throw new NotAuthenticated(INVALID_CODE);
  return outcome;
}
