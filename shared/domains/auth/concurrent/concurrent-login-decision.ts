import { hashToken } from '../../../crypto/tokens.ts';
import type { Db } from '../../../db/knex.ts';
import { NotFound } from '../../../errors.ts';
import { recordActivity, type ActivityOrigin } from '../../activity/record-activity.ts';

export type ConcurrentLoginDecision = 'approved' | 'denied';

/**
 * A live session decides a pending concurrent-login request of its own user, once. A token that is
 * unknown, of another user, already decided or expired is "not found", and nothing changes.
 */
export async function decideConcurrentLogin(
  db: Db,
  input: { token: string; userId: number; sessionId: string; decision: ConcurrentLoginDecision; origin?: ActivityOrigin | null },
): Promise<void> {
  await db.transaction(async (trx) => {
    const [decided] = await trx('concurrent_login_requests')
      .where({ token_hash: hashToken(input.token), user_id: input.userId, status: 'pending' })
      .where('expires_at', '>', trx.fn.now())
      .update({ status: input.decision, decided_at: trx.fn.now(), decided_by_session_id: input.sessionId })
      .returning(['id', 'team_id']);
    if (!decided) throw new NotFound('No pending sign-in of yours has this token');
    await recordActivity(trx, {
      teamId: decided.team_id,
      actor: { userId: input.userId, via: 'session' },
      action: `auth.concurrent_login_${input.decision}`,
      target: { type: 'concurrent_login', id: decided.id },
      origin: input.origin,
      metadata: { decided_by_session_id: input.sessionId },
    });
  });
}
