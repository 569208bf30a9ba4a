import { hashToken } from '../../../crypto/tokens.ts';
import type { Db } from '../../../db/knex.ts';
import { NotFound } from '../../../errors.ts';

export type ConcurrentLoginDecision = 'approved' | 'denied';

/**
 * A live session decides a pending concurrent-login request of its own user, once. A token that is
 * unknown, of another user, already decided or expired is "not found", and nothing changes.
 */
export async function decideConcurrentLogin(
  db: Db,
  input: { token: string; userId: number; sessionId: string; decision: ConcurrentLoginDecision },
): Promise<void> {
  const decided = await db('concurrent_login_requests')
    .where({ token_hash: hashToken(input.token), user_id: input.userId, status: 'pending' })
    .where('expires_at', '>', db.fn.now())
    .update({ status: input.decision, decided_at: db.fn.now(), decided_by_session_id: input.sessionId });
  if (decided === 0) throw new NotFound('No pending sign-in of yours has this token');
}
