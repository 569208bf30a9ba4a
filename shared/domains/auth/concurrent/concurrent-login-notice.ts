import type { Db } from '../../../db/knex.ts';
import { User } from '../../../db/models.ts';
import type { Mailer } from '../../../mail/mailer.ts';
import { concurrentLoginMail } from '../../../mail/login-risk.templates.ts';
import { locateIp } from '../risk/geo.ts';
import { riskLink } from '../risk/risk-links.ts';
import { concurrentLoginToken } from './request-token.ts';

/**
 * Tells the user by e-mail that a sign-in waits for approval. The link carries the request's token
 * to the panel page, which decides it with the session that browser holds; without one it does nothing.
 */
export async function sendConcurrentLoginNotice(deps: { db: Db; mailer: Mailer; publicUrl: string; secretKey: Buffer }, requestId: number): Promise<boolean> {
  const request = await deps
    .db('concurrent_login_requests as c')
    .join('pre_auth_tokens as p', 'p.id', 'c.pre_auth_token_id')
    .where({ 'c.id': requestId, 'c.status': 'pending' })
    .where('c.expires_at', '>', deps.db.fn.now())
    .first('c.user_id', 'c.ip', 'c.user_agent', 'c.created_at', 'p.token_hash');
  const user = request ? await User.query(deps.db).findById(request.user_id) : undefined;
  if (!request || !user) return false;
  await deps.mailer.send(
    concurrentLoginMail(user.email, {
      name: user.name,
      at: new Date(request.created_at),
      ip: request.ip,
      country: locateIp(request.ip)?.country ?? null,
      userAgent: request.user_agent,
      url: riskLink(deps.publicUrl, 'concurrent-login', concurrentLoginToken(deps.secretKey, request.token_hash)),
    }),
  );
  return true;
}
