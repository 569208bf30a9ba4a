import { randomBytes } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../crypto/access-tokens.ts';
import { hashToken } from '../../crypto/tokens.ts';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/knex.ts';
import { User, type Session } from '../../db/models.ts';
import {
  ConcurrentLoginPending,
  DeviceApprovalRequired,
  DomainError,
  NotAuthenticated,
  PermissionDenied,
  TotpRequired,
  ValidationFailed,
} from '../../errors.ts';
import { listTeamsOfUser, type TeamEntry } from './current-user.ts';
import { startLogin } from './login.ts';
import { exchangePreAuthToken } from './session-exchange.ts';
import { revokeSessions } from './sessions.ts';
import { verifyTotpCode } from './totp/totp-verify.ts';

/** Either the password (step one of the panel's login), or the pre-auth token of a paused sign-in. */
export type ApiLoginCredentials = { email: string; password: string } | { preAuthToken: string };

export type ApiLoginRequest = {
  credentials: ApiLoginCredentials;
  teamId: number | undefined;
  totpCode: string | undefined;
  deviceFingerprint: string | undefined;
  /** As the server saw them. */
  ip: string | null;
  userAgent: string | null;
  requestId?: string | null;
};

export type ApiLogin = { accessToken: string; expiresIn: number; sessionId: string; teamId: number; userId: number };

/**
 * A gate of the exchange stopped the sign-in (a new device to approve, a concurrent login to be
 * approved). Nothing was consumed: the caller finishes the approval through the auth surface and
 * retries with `preAuthToken` (and the same `deviceFingerprint`, which it may not have chosen).
 */
export class SignInPaused extends DomainError {
  readonly gate: DeviceApprovalRequired | ConcurrentLoginPending;
  readonly preAuthToken: string;
  readonly deviceFingerprint: string;
  constructor(gate: DeviceApprovalRequired | ConcurrentLoginPending, preAuthToken: string, deviceFingerprint: string) {
    super(gate.message);
    this.gate = gate;
    this.preAuthToken = preAuthToken;
    this.deviceFingerprint = deviceFingerprint;
  }
}

type ApiLoginDeps = Pick<Context, 'db' | 'redis' | 'accessTokens' | 'queues' | 'logger' | 'config'>;

/**
 * The general API's one-call login: the panel's two steps (`startLogin`, then
 * `exchangePreAuthToken`) with every check they make, plus the second factor in the same call. The
 * session is the panel's kind, with the same access token; its refresh token is never handed out,
 * and it is cut to the access token's lifetime so the session counts as live (for the
 * concurrent-login gate and the session list) exactly as long as the token works.
 */
export async function apiLogin(deps: ApiLoginDeps, request: ApiLoginRequest): Promise<ApiLogin> {
  // With the password, step one already read the user and their teams: nothing is read twice.
  const started =
    'preAuthToken' in request.credentials
      ? undefined
      : await startLogin(deps.db, { ...request.credentials, rememberMe: false, ip: request.ip, userAgent: request.userAgent });
  const preAuthToken = started?.preAuthToken ?? (request.credentials as { preAuthToken: string }).preAuthToken;
  const user = started?.user ?? (await userOfPreAuthToken(deps.db, preAuthToken));
  const teamId = request.teamId ?? onlyActiveTeam(started?.teams ?? (await listTeamsOfUser(deps.db, user.id)));
  // Asked before the exchange, so the pre-auth token is not spent on a call that cannot finish.
  if (user.totp_enabled_at && request.totpCode === undefined) throw new TotpRequired('Two-factor authentication is on: send totp_code');

  // No fingerprint: an unknown device. The 403 names the one it got, to approve and send from now on.
  const deviceFingerprint = request.deviceFingerprint ?? randomBytes(32).toString('hex');
  let session: Session;
  let accessToken: string;
  try {
    ({ session, accessToken } = await exchangePreAuthToken(deps, {
      preAuthToken,
      teamId,
      sessionInfo: { device_fingerprint: deviceFingerprint },
      ip: request.ip,
      userAgent: request.userAgent,
      requestId: request.requestId ?? null,
      // its refresh token is never handed out: it lives as long as the access token, so the session does too
      refreshTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      withCurrentUser: false,
    }));
  } catch (error) {
    if (error instanceof DeviceApprovalRequired || error instanceof ConcurrentLoginPending) throw new SignInPaused(error, preAuthToken, deviceFingerprint);
    throw error;
  }
  if (session.second_factor_pending) await passSecondFactor(deps, session, request.totpCode);
  return { accessToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS, sessionId: session.id, teamId: session.team_id, userId: session.user_id };
}

/** The user a usable pre-auth token belongs to; an unknown, used or expired one is 401, as in the exchange. */
async function userOfPreAuthToken(db: Db, preAuthToken: string): Promise<User> {
  const row = await db('pre_auth_tokens')
    .where({ token_hash: hashToken(preAuthToken) })
    .whereNull('consumed_at')
    .where('expires_at', '>', db.fn.now())
    .first('user_id');
  const user = row ? await User.query(db).findById(row.user_id) : undefined;
  if (!user) throw new NotAuthenticated('Invalid or already used pre-auth token');
  return user;
}

/** team_id may be left out by a member of exactly one ACTIVE team. */
function onlyActiveTeam(teams: TeamEntry[]): number {
  const active = teams.filter((team) => team.status === 'ACTIVE');
  if (active.length === 0) throw new PermissionDenied('You are not an active member of any team');
  if (active.length > 1) throw ValidationFailed.field('team_id', 'You are a member of several teams: choose one of your teams');
  return active[0]!.team_id;
}

/**
 * Completes the session with the TOTP code, under the account throttle and its replay protection.
 * Any failure revokes the session at once, so a wrong code leaves nothing usable or pending behind.
 */
async function passSecondFactor(deps: ApiLoginDeps, session: Session, code: string | undefined): Promise<void> {
  try {
    if (code === undefined) throw new TotpRequired('Two-factor authentication is on: send totp_code');
    const outcome = await verifyTotpCode(deps, { userId: session.user_id, sessionId: session.id, code });
    if (outcome !== 'completed') throw new NotAuthenticated('Invalid code');
  } catch (error) {
    await revokeSessions(deps, { ids: [session.id] }, 'second_factor_failed');
    throw error;
  }
}
