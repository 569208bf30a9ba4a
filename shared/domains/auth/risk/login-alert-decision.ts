import type { Redis } from 'ioredis';
import { hashToken } from '../../../crypto/tokens.ts';
import type { Db } from '../../../db/knex.ts';
import { Session, User } from '../../../db/models.ts';
import { NotAuthenticated } from '../../../errors.ts';
import { enqueue, type Queues } from '../../../jobs/queues.ts';
import type { Logger } from '../../../logger.ts';
import { recordActivity, recordUserActivity, type ActivityOrigin } from '../../activity/record-activity.ts';
import { revokeSessions } from '../sessions.ts';

export type LoginAlertDecision = 'approved' | 'denied';

type DecisionDeps = { db: Db; redis: Redis; logger: Logger; queues: Queues; config: { redisPrefix: string } };

/**
 * Decides a suspicious sign-in with its alert token, once. Approving leaves its activity counted as
 * known. Denying ends every session born of that sign-in (same pre-auth token, same user) and mails
 * the user a password reset link. The token acts on its own alert only; unknown, used or expired → 401.
 */
export async function decideLoginAlert(deps: DecisionDeps, token: string, decision: LoginAlertDecision, origin: ActivityOrigin | null = null): Promise<void> {
  const userId = await deps.db.transaction(async (trx) => {
    const alert = await trx('login_alerts')
      .where({ token_hash: hashToken(token) })
      .whereNull('decision')
      .where('expires_at', '>', trx.fn.now())
      .forUpdate()
      .first('id', 'user_id', 'pre_auth_token_id');
    if (!alert) throw new NotAuthenticated('Invalid, expired or already used alert token');
    await trx('login_alerts').where({ id: alert.id }).update({ decision, decided_at: trx.fn.now() });
    const born =
      alert.pre_auth_token_id === null
        ? []
        : await Session.query(trx).where({ user_id: alert.user_id, pre_auth_token_id: alert.pre_auth_token_id }).select('id', 'team_id');
    if (decision === 'denied') {
      // In the transaction: should it roll back, the token stays usable and the deny can be repeated.
      await revokeSessions({ ...deps, db: trx }, { ids: born.map((session) => session.id) }, 'login_denied');
    }
    // In the team the sign-in was into; an alert without its session is the account's, so every team's.
    const entry = {
      actor: { userId: alert.user_id as number, via: 'credentials' as const },
      action: `auth.suspicious_login_${decision}`,
      origin,
      metadata: { alert_id: alert.id },
    };
    for (const session of born) await recordActivity(trx, { ...entry, teamId: session.team_id, target: { type: 'session', id: session.id } });
    if (born.length === 0) await recordUserActivity(trx, alert.user_id, { ...entry, target: { type: 'user', id: alert.user_id } });
    return alert.user_id as number;
  });
  if (decision === 'denied') {
    const user = await User.query(deps.db).findById(userId);
    if (user) {
      await enqueue(deps.queues, 'mail.password-reset', { email: user.email }).catch((error: unknown) => {
        deps.logger.error({ err: error, userId }, 'could not queue the password reset of a denied sign-in');
      });
    }
  }
}
