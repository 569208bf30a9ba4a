import { unseal } from '../../../crypto/sealed.ts';
import type { Context } from '../../../context.ts';
import { Session } from '../../../db/models.ts';
import { ValidationFailed } from '../../../errors.ts';
import { recordUserActivity, type ActivityOrigin } from '../../activity/record-activity.ts';
import { completeSecondFactor } from '../sessions.ts';
import { base32Decode } from './base32.ts';
import { throttledAttempt } from './throttled-attempt.ts';
import { acceptedStep, totpStep } from './totp-code.ts';

/** `enabled`: enrolment finished; `completed`: the session's second factor; `checked`: valid, nothing waited. */
export type TotpOutcome = 'enabled' | 'completed' | 'checked';

type VerifyDeps = Pick<Context, 'db' | 'redis' | 'logger' | 'config'>;

/**
 * Checks a TOTP code under the account throttle. A session waiting for its second factor is
 * completed by a code of the enabled secret. Otherwise, with a setup in progress, a code of the
 * pending secret enables TOTP: the secret and the backup codes become live. Each accepted step is
 * remembered, so a code works once.
 */
export async function verifyTotpCode(
  deps: VerifyDeps,
  request: { userId: number; sessionId: string; code: string; origin?: ActivityOrigin | null },
): Promise<TotpOutcome> {
  const key = deps.config.secrets.secretKey;
  const outcome = await throttledAttempt<TotpOutcome>(deps.db, request.userId, async (trx, user) => {
    const session = await Session.query(trx).findById(request.sessionId);
    const sessionPending = session?.second_factor_pending === true;
    const enrolling = !sessionPending && !user.totp_enabled_at && user.totp_pending_secret_sealed !== null;
    const sealed = enrolling ? user.totp_pending_secret_sealed : user.totp_secret_sealed;
    if (!sealed) throw ValidationFailed.field('', 'No two-factor setup in progress: call /totp/setup first');

    const step = acceptedStep(base32Decode(unseal(key, sealed)), request.code, {
      nowStep: totpStep(Date.now()),
      lastUsedStep: enrolling ? null : user.totp_last_used_step,
    });
    if (step === null) return null;
    if (!enrolling) {
      await trx('users').where({ id: user.id }).update({ totp_last_used_step: step });
      return sessionPending ? 'completed' : 'checked';
    }
    await trx('users').where({ id: user.id }).update({
      totp_secret_sealed: sealed,
      totp_pending_secret_sealed: null,
      totp_enabled_at: trx.fn.now(),
      totp_last_used_step: step,
    });
    await trx('totp_backup_codes').where({ user_id: user.id, pending: false }).delete();
    await trx('totp_backup_codes').where({ user_id: user.id, pending: true }).update({ pending: false });
    await recordUserActivity(trx, user.id, {
      actor: { userId: user.id, via: 'session' },
      action: 'auth.totp_enabled',
      target: { type: 'user', id: user.id },
      origin: request.origin,
    });
    return 'enabled';
  });
  if (outcome === 'completed') await completeSecondFactor(deps, request.sessionId);
  return outcome;
}
