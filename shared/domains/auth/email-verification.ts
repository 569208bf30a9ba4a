import type { Db } from '../../db/knex.ts';
import { User } from '../../db/models.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { emailVerificationMail } from '../../mail/templates.ts';
import { recordUserActivity, type ActivityOrigin } from '../activity/record-activity.ts';
import { normalizeEmail } from './identity.ts';
import { panelLink } from './links.ts';
import { consumeUserToken, issueUserToken } from './user-tokens.ts';

/** Sends a verification link if the address belongs to an unverified user; otherwise does nothing. */
export async function sendEmailVerification(deps: { db: Db; mailer: Mailer; publicUrl: string }, email: string): Promise<boolean> {
  const user = await User.query(deps.db).findOne({ email: normalizeEmail(email) });
  if (!user || user.email_verified_at) return false;
  const token = await issueUserToken(deps.db, user.id, 'email_verification');
  await deps.mailer.send(emailVerificationMail(user.email, user.name, panelLink(deps.publicUrl, 'verify-email', token)));
  return true;
}

export async function confirmEmailVerification(db: Db, token: string, origin: ActivityOrigin | null = null): Promise<void> {
  await db.transaction(async (trx) => {
    const userId = await consumeUserToken(trx, token, 'email_verification');
    const verified = await User.query(trx).patch({ email_verified_at: new Date() }).where({ id: userId }).whereNull('email_verified_at');
    if (verified > 0)
      await recordUserActivity(trx, userId, {
        actor: { userId, via: 'credentials' },
        action: 'auth.email_verified',
        target: { type: 'user', id: userId },
        origin,
      });
  });
}
