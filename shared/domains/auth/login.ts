import { hashToken, randomToken } from '../../crypto/tokens.ts';
import { verifyAgainstDummy, verifyPassword } from '../../crypto/passwords.ts';
import type { Db } from '../../db/knex.ts';
import { User } from '../../db/models.ts';
import { EmailNotVerified, NotAuthenticated } from '../../errors.ts';
import { recordAuthFailure } from './account-throttle.ts';
import { listTeamsOfUser, type TeamEntry } from './current-user.ts';
import { normalizeEmail } from './identity.ts';

export const PRE_AUTH_TTL_SECONDS = 10 * 60;

export type LoginRequest = { email: string; password: string; rememberMe: boolean; ip: string | null; userAgent: string | null };

/**
 * Step one of the spec's two-step login: check the credentials, then hand out a pre-auth token (36
 * random bytes, stored as its hash, 10 minutes) and the teams to choose from. An unknown e-mail
 * spends the time of a real verification and gives the same answer as a wrong password. One read
 * of the user, then the verification with the read of their teams beside it (not after it), then
 * the token's insert: the verification is nearly all of the time.
 */
export async function startLogin(db: Db, request: LoginRequest): Promise<{ preAuthToken: string; teams: TeamEntry[]; user: User }> {
  const user = await User.query(db).findOne({ email: normalizeEmail(request.email) });
  // A locked account spends the same time and gives the same answer as a wrong password.
  const locked = Boolean(user?.locked_until && new Date(user.locked_until).getTime() > Date.now());
  const [valid, teams] =
    user && !locked
      ? await Promise.all([verifyPassword(user.password_hash, request.password), listTeamsOfUser(db, user.id)])
      : [await verifyAgainstDummy(request.password), []];
  if (user && !locked && !valid) await recordAuthFailure(db, user.id);
  if (!user || !valid) throw new NotAuthenticated('Invalid e-mail or password');
  // The count is reset only when the whole sign-in succeeds (session-exchange, second factor), so a
  // correct password does not give an attacker fresh tries at the codes.
  if (!user.email_verified_at) throw new EmailNotVerified(user.email);

  const preAuthToken = randomToken(36);
  await db('pre_auth_tokens').insert({
    user_id: user.id,
    token_hash: hashToken(preAuthToken),
    remember_me: request.rememberMe,
    ip: request.ip,
    user_agent: request.userAgent,
    expires_at: new Date(Date.now() + PRE_AUTH_TTL_SECONDS * 1000),
  });
  return { preAuthToken, teams, user };
}
