import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { AccessTokenIssuer } from '../../crypto/access-tokens.ts';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/knex.ts';
import { Team, User, type Session } from '../../db/models.ts';
import { NotAuthenticated, PermissionDenied } from '../../errors.ts';
import type { Queues } from '../../jobs/queues.ts';
import type { Logger } from '../../logger.ts';
import { recordActivity } from '../activity/record-activity.ts';
import { recordAuthSuccess } from './account-throttle.ts';
import { loadCurrentUser, type CurrentUser } from './current-user.ts';
import { concurrentLoginGate } from './gates/concurrent-login.gate.ts';
import { deviceApprovalGate } from './gates/device-approval.gate.ts';
import type { ExchangeAttempt, ExchangeGate, GateDeps, PreAuthRow, SessionInfo, SignInObserver } from './gates/exchange-gate.ts';
import { recordLoginActivity } from './login-activity.ts';
import { suspiciousLoginObserver } from './risk/suspicious-login.observer.ts';
import { createSession } from './sessions.ts';

export type ExchangeRequest = {
  preAuthToken: string;
  teamId: number;
  sessionInfo: SessionInfo;
  /** The address the server saw (after TRUSTED_PROXIES); session_info.ip is only what the client says. */
  ip: string | null;
  userAgent: string | null;
  /** The X-Request-Id, for the team's audit trail. */
  requestId?: string | null | undefined;
  /** How long the refresh token lives, when not the remember-me default (`refreshTtlSeconds`). */
  refreshTtlSeconds?: number;
  /** false: the caller has no use for `currentUser` (left out, one read fewer). */
  withCurrentUser?: boolean;
};

export type IssuedSession = {
  /** Absent when asked `withCurrentUser: false`. */
  currentUser: CurrentUser;
  session: Session;
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
};

/** In order: each may stop the exchange, and the first to stop it decides the answer. */
const gates: ExchangeGate[] = [deviceApprovalGate, concurrentLoginGate];
const observers: SignInObserver[] = [suspiciousLoginObserver];

type ExchangeDeps = {
  db: Db;
  redis: Redis;
  accessTokens: AccessTokenIssuer;
  queues: Queues;
  logger: Logger;
  config: { publicUrl: string; secrets: { secretKey: Buffer } };
};

/**
 * Step two: trade a pre-auth token for a session in one of the user's ACTIVE teams. The token row
 * is locked, so it is consumed exactly once. Every check before the session may stop the exchange
 * without consuming the token (a wrong team can be corrected, a device approved, a concurrent login
 * approved). With TOTP on, the session is issued pending its second factor.
 */
export async function exchangePreAuthToken(deps: ExchangeDeps, request: ExchangeRequest): Promise<IssuedSession> {
  const gateDeps: GateDeps = {
    db: deps.db,
    queues: deps.queues,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    secretKey: deps.config.secrets.secretKey,
  };
  const afterCommit: Array<() => Promise<void>> = [];
  const { session, refreshToken } = await deps.db.transaction(async (trx) => {
    const preAuth = await lockPreAuthToken(trx, request.preAuthToken);
    const team = await activeTeamOf(trx, preAuth.user_id, request.teamId);
    const user = (await User.query(trx).findById(preAuth.user_id))!;
    const attempt: ExchangeAttempt = { preAuth, user, team, sessionInfo: request.sessionInfo, ip: request.ip, userAgent: request.userAgent };
    for (const gate of gates) await gate.check(trx, attempt, gateDeps);

    await trx('pre_auth_tokens').where({ id: preAuth.id }).update({ consumed_at: trx.fn.now() });
    const issued = await createSession(trx, {
      userId: user.id,
      teamId: team.id,
      preAuthTokenId: preAuth.id,
      rememberMe: preAuth.remember_me,
      ip: request.ip,
      userAgent: request.userAgent,
      deviceFingerprint: request.sessionInfo.device_fingerprint,
      clientInfo: { ...request.sessionInfo },
      secondFactorPending: Boolean(user.totp_enabled_at),
      refreshTtlSeconds: request.refreshTtlSeconds,
    });
    for (const observer of observers) {
      const work = await observer.inspect(trx, attempt, issued.session, gateDeps);
      if (work) afterCommit.push(work);
    }
    await recordLoginActivity(trx, {
      userId: user.id,
      sessionId: issued.session.id,
      eventType: 'login',
      ip: request.ip,
      userAgent: request.userAgent,
      deviceFingerprint: request.sessionInfo.device_fingerprint,
      geo: request.sessionInfo.geo ?? null,
    });
    // the user row was just read in this transaction: nothing to reset is the common case, and costs no round trip
    if (!user.totp_enabled_at && (user.failed_auth_count > 0 || user.locked_until)) await recordAuthSuccess(trx, user.id);
    await recordActivity(trx, {
      teamId: team.id,
      actor: { userId: user.id, via: 'session' },
      action: 'auth.login',
      target: { type: 'session', id: issued.session.id },
      origin: { ip: request.ip, userAgent: request.userAgent, requestId: request.requestId ?? null },
      metadata: { second_factor_pending: Boolean(user.totp_enabled_at) },
    });
    return issued;
  });
  for (const work of afterCommit) {
    await work().catch((error: unknown) => deps.logger.error({ err: error }, 'after-sign-in work failed'));
  }
  const [currentUser, accessToken] = await Promise.all([
    request.withCurrentUser === false ? undefined : loadCurrentUser(deps.db, session.user_id, session.team_id),
    deps.accessTokens.sign({ userId: session.user_id, teamId: session.team_id, sessionId: session.id }),
  ]);
  return { currentUser: currentUser!, session, accessToken, refreshToken, csrfToken: randomToken(32) };
}

async function lockPreAuthToken(trx: Knex.Transaction, token: string): Promise<PreAuthRow> {
  // NO KEY UPDATE: serialises exchanges of one token, yet lets a gate insert rows that reference it
  // (their foreign-key check takes KEY SHARE) from outside this transaction without a self-deadlock.
  const row: PreAuthRow | undefined = await trx('pre_auth_tokens')
    .where({ token_hash: hashToken(token) })
    .forNoKeyUpdate()
    .first();
  if (!row || row.consumed_at) throw new NotAuthenticated('Invalid or already used pre-auth token');
  if (new Date(row.expires_at).getTime() <= Date.now()) throw new NotAuthenticated('Pre-auth token expired');
  return row;
}

/** The team, read only through the user's ACTIVE membership in it (one query). */
async function activeTeamOf(trx: Knex.Transaction, userId: number, teamId: number): Promise<Team> {
  const team = await Team.query(trx)
    .select('teams.*')
    .join('memberships as m', 'm.team_id', 'teams.id')
    .where({ 'teams.id': teamId, 'm.user_id': userId, 'm.status': 'ACTIVE' })
    .first();
  if (!team) throw new PermissionDenied('You are not an active member of this team');
  return team;
}
