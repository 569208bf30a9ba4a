import { hashToken, randomToken } from '../../../crypto/tokens.ts';
import type { Db } from '../../../db/knex.ts';
import { User } from '../../../db/models.ts';
import type { Mailer } from '../../../mail/mailer.ts';
import { loginAlertMail } from '../../../mail/login-risk.templates.ts';
import { riskLink } from './risk-links.ts';
import type { SuspicionReason } from './suspicion.ts';

export const LOGIN_ALERT_TTL_SECONDS = 24 * 3600;

/**
 * Mints the alert's token (256 bits, stored hashed, valid 24 hours from now) and mails its approve
 * and deny links. A decided alert gets no mail; sending again replaces the previous token.
 */
export async function sendLoginAlert(deps: { db: Db; mailer: Mailer; publicUrl: string }, alertId: number): Promise<boolean> {
  const alert = await deps.db('login_alerts').where({ id: alertId }).whereNull('decision').first();
  const user = alert ? await User.query(deps.db).findById(alert.user_id) : undefined;
  if (!alert || !user) return false;
  const token = randomToken(32);
  const minted = await deps
    .db('login_alerts')
    .where({ id: alert.id })
    .whereNull('decision')
    .update({ token_hash: hashToken(token), expires_at: new Date(Date.now() + LOGIN_ALERT_TTL_SECONDS * 1000) });
  if (minted === 0) return false;
  await deps.mailer.send(
    loginAlertMail(user.email, {
      name: user.name,
      at: new Date(alert.created_at),
      ip: alert.ip,
      country: alert.country,
      userAgent: alert.user_agent,
      reasons: alert.reasons as SuspicionReason[],
      approveUrl: riskLink(deps.publicUrl, 'login/approve', token),
      denyUrl: riskLink(deps.publicUrl, 'login/deny', token),
    }),
  );
  return true;
}
