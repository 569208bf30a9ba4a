import type { Context } from '../../../context.ts';
import { Session } from '../../../db/models.ts';
import { recordActivity, type ActivityOrigin } from '../../activity/record-activity.ts';
import { completeSecondFactor } from '../sessions.ts';
import { hashBackupCode } from './backup-codes.ts';
import { throttledAttempt } from './throttled-attempt.ts';

/** `completed`: the session's second factor; `checked`: the code was valid and is now used. */
export type BackupCodeOutcome = 'completed' | 'checked';

type BackupDeps = Pick<Context, 'db' | 'redis' | 'logger' | 'config'>;

/**
 * Uses up one live backup code (codes of a setup not yet verified are pending and never match) and
 * completes the session if it waits for its second factor. Wrong or used codes count to the throttle.
 */
export async function useBackupCode(
  deps: BackupDeps,
  request: { userId: number; sessionId: string; code: string; origin?: ActivityOrigin | null },
): Promise<BackupCodeOutcome> {
  const codeHash = hashBackupCode(deps.config.secrets.secretKey, request.userId, request.code);
  const outcome = await throttledAttempt<BackupCodeOutcome>(deps.db, request.userId, async (trx) => {
    // Conditional on used_at IS NULL, so of two uses of one code only one can succeed.
    const used = await trx('totp_backup_codes')
      .where({ user_id: request.userId, code_hash: codeHash, pending: false })
      .whereNull('used_at')
      .update({ used_at: trx.fn.now() })
      .returning('id');
    if (used.length === 0) return null;
    const session = await Session.query(trx).findById(request.sessionId);
    if (session) {
      const entry = {
        actor: { userId: request.userId, via: 'session' as const },
        action: 'auth.backup_code_used',
        target: { type: 'user', id: request.userId },
        origin: request.origin,
      };
      await recordActivity(trx, { ...entry, teamId: session.team_id });
    }
    return session?.second_factor_pending === true ? 'completed' : 'checked';
  });
  if (outcome === 'completed') await completeSecondFactor(deps, request.sessionId);
  return outcome;
}
