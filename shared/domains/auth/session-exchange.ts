import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { AccessTokenIssuer } from '../../crypto/access-tokens.ts';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/knex.ts';
import { Membership, type Session } from '../../db/models.ts';
import { NotAuthenticated, PermissionDenied } from '../../errors.ts';
import { loadCurrentUser, type CurrentUser } from './current-user.ts';
import { recordLoginActivity } from './login-activity.ts';
import { createSession } from './sessions.ts';

export type SessionInfo = {
  device_fingerprint: string;
  ip?: string | undefined;
  user_agent?: string | undefined;
  geo?: { city?: string | undefined; country?: string | undefined } | undefined;
};

export type ExchangeRequest = {
  preAuthToken: string;
  teamId: number;
  sessionInfo: SessionInfo;
  /** The address the server saw (after TRUSTED_PROXIES); session_info.ip is only what the client says. */
  ip: string | null;
  userAgent: string | null;
};

export type IssuedSession = {
  currentUser: CurrentUser;
  session: Session;
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
};

type PreAuthRow = { id: number; user_id: number; remember_me: boolean; expires_at: Date; consumed_at: Date | null };

/**
 * Step two: trade a pre-auth token for a session in one of the user's ACTIVE teams. The token row
 * is locked, so it is consumed exactly once. The checks run in order, and each may stop the exchange
 * without consuming the token (a wrong team can be corrected); new-device approval, concurrent and
 * suspicious logins slot in as further checks between the membership check and the session.
 */
export async function exchangePreAuthToken(
  deps: { db: Db; redis: Redis; accessTokens: AccessTokenIssuer },
  request: ExchangeRequest,
): Promise<IssuedSession> {
  const { session, refreshToken } = await deps.db.transaction(async (trx) => {
    const preAuth = await lockPreAuthToken(trx, request.preAuthToken);
    await assertActiveMember(trx, preAuth.user_id, request.teamId);
    await trx('pre_auth_tokens').where({ id: preAuth.id }).update({ consumed_at: trx.fn.now() });
    const issued = await createSession(trx, {
      userId: preAuth.user_id,
      teamId: request.teamId,
      preAuthTokenId: preAuth.id,
      rememberMe: preAuth.remember_me,
      ip: request.ip,
      userAgent: request.userAgent,
      deviceFingerprint: request.sessionInfo.device_fingerprint,
      clientInfo: { ...request.sessionInfo },
    });
    await recordLoginActivity(trx, {
      userId: preAuth.user_id,
      sessionId: issued.session.id,
      eventType: 'login',
      ip: request.ip,
      userAgent: request.userAgent,
      deviceFingerprint: request.sessionInfo.device_fingerprint,
      geo: request.sessionInfo.geo ?? null,
    });
    return issued;
  });
  const currentUser = await loadCurrentUser(deps.db, session.user_id, session.team_id);
  const accessToken = await deps.accessTokens.sign({ userId: session.user_id, teamId: session.team_id, sessionId: session.id });
  return { currentUser, session, accessToken, refreshToken, csrfToken: randomToken(32) };
}

async function lockPreAuthToken(trx: Knex.Transaction, token: string): Promise<PreAuthRow> {
  const row: PreAuthRow | undefined = await trx('pre_auth_tokens').where({ token_hash: hashToken(token) }).forUpdate().first();
  if (!row || row.consumed_at) throw new NotAuthenticated('Invalid or already used pre-auth token');
  if (new Date(row.expires_at).getTime() <= Date.now()) throw new NotAuthenticated('Pre-auth token expired');
  return row;
}

async function assertActiveMember(trx: Knex.Transaction, userId: number, teamId: number): Promise<void> {
  const membership = await Membership.query(trx).findOne({ user_id: userId, team_id: teamId, status: 'ACTIVE' });
  if (!membership) throw new PermissionDenied('You are not an active member of this team');
}
