import type { Redis } from 'ioredis';
import { emitApiTokenEvent, TOKEN_EVENT_COLUMNS } from '../api-tokens/api-token-events.ts';
import { hashPassword } from '../../crypto/passwords.ts';
import type { Db } from '../../db/knex.ts';
import { User } from '../../db/models.ts';
import type { Logger } from '../../logger.ts';
import { recordUserActivity, type ActivityOrigin } from '../activity/record-activity.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { passwordResetMail } from '../../mail/templates.ts';
import { assertPasswordPolicy, normalizeEmail } from './identity.ts';
import { panelLink } from './links.ts';
import { revokeSessions } from './sessions.ts';
import { consumeUserToken, issueUserToken } from './user-tokens.ts';

/** Sends a reset link if a user has this address; an unknown address gets nothing, silently. */
export async function sendPasswordReset(deps: { db: Db; mailer: Mailer; publicUrl: string }, email: string): Promise<boolean> {
  const user = await User.query(deps.db).findOne({ email: normalizeEmail(email) });
  if (!user) return false;
  const token = await issueUserToken(deps.db, user.id, 'password_reset');
  await deps.mailer.send(passwordResetMail(user.email, user.name, panelLink(deps.publicUrl, 'reset-password', token)));
  return true;
}

/**
 * Sets the new password and ends every session and open pre-auth token of the user and, unless
 * `revokeApiTokens` is false, every live API token they created: a reset usually follows a lost or
 * stolen password, and whoever held it may have minted tokens that would outlive the reset. The reset
 * also proves control of the address, so it counts as verification.
 */
export async function confirmPasswordReset(
  deps: { db: Db; redis: Redis; logger: Logger; config: { redisPrefix: string } },
  token: string,
  newPassword: string,
  origin: ActivityOrigin | null = null,
  options: { revokeApiTokens?: boolean } = {},
): Promise<{ apiTokensRevoked: number }> {
  const revokeApiTokens = options.revokeApiTokens ?? true;
  assertPasswordPolicy(newPassword, 'new_password');
  const passwordHash = await hashPassword(newPassword);
  const { userId, apiTokensRevoked } = await deps.db.transaction(async (trx) => {
    const userId = await consumeUserToken(trx, token, 'password_reset');
    const now = new Date();
    await User.query(trx).patch({ password_hash: passwordHash, password_changed_at: now, updated_at: now }).where({ id: userId });
    await User.query(trx).patch({ email_verified_at: now }).where({ id: userId }).whereNull('email_verified_at');
    await trx('pre_auth_tokens').where({ user_id: userId }).whereNull('consumed_at').update({ consumed_at: now });
    const revokedTokens = revokeApiTokens
      ? await trx('api_tokens')
          .whereIn('membership_id', trx('memberships').select('id').where({ user_id: userId }))
          .whereNull('revoked_at')
          .update({ revoked_at: now })
          .returning([...TOKEN_EVENT_COLUMNS])
      : [];
    for (const row of revokedTokens) await emitApiTokenEvent(trx, row, 'password_reset');
    const apiTokensRevoked = revokedTokens.length;
    await recordUserActivity(trx, userId, {
      actor: { userId, via: 'credentials' },
      action: 'auth.password_reset',
      target: { type: 'user', id: userId },
      origin,
      metadata: { sessions_revoked: true, api_tokens_revoked: apiTokensRevoked },
    });
    return { userId, apiTokensRevoked };
  });
  await revokeSessions(deps, { userId }, 'password_reset');
  return { apiTokensRevoked };
}
