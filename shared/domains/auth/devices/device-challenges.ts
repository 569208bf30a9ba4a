import type { Knex } from 'knex';
import { hashToken, safeEqual } from '../../../crypto/tokens.ts';
import type { Db } from '../../../db/knex.ts';
import { NotAuthenticated } from '../../../errors.ts';
import { enqueue, type Queues } from '../../../jobs/queues.ts';
import { recordUserActivity, type ActivityOrigin } from '../../activity/record-activity.ts';
import { isAccountLocked, recordAuthFailure } from '../account-throttle.ts';
import { hashDeviceCode } from './device-code.ts';
import { trustDevice } from './trusted-devices.ts';

export const DEVICE_CHALLENGE_TTL_SECONDS = 10 * 60;
/** Wrong codes a challenge takes before it is burned. */
export const DEVICE_CODE_TRIES = 5;

type Executor = Knex | Knex.Transaction;
type OpenPreAuth = { id: number; user_id: number };

/** What the server saw of the device asking; the client's own `ip` and `user_agent` are not used. */
export type DeviceRequest = { preAuthToken: string; fingerprint: string; ip: string | null; userAgent: string | null };

const wrongCode = () => new NotAuthenticated('Invalid code');
const staleCode = () => new NotAuthenticated('No open code for this sign-in and device: it expired, was replaced or took too many tries; request a new one');

/**
 * Opens a challenge for a new device: bound to this pre-auth token and fingerprint, valid 10
 * minutes, replacing the token's earlier open challenges. The code is minted by the mail job.
 */
export async function requestDeviceChallenge(deps: { db: Db; queues: Queues }, request: DeviceRequest): Promise<void> {
  const challengeId = await deps.db.transaction(async (trx) => {
    const preAuth = await openPreAuthToken(trx, request.preAuthToken, { lock: true });
    await trx('device_challenges')
      .where({ pre_auth_token_id: preAuth.id })
      .whereNull('approved_at')
      .whereNull('replaced_at')
      .update({ replaced_at: trx.fn.now() });
    const [row] = await trx('device_challenges')
      .insert({
        pre_auth_token_id: preAuth.id,
        user_id: preAuth.user_id,
        device_fingerprint: request.fingerprint,
        ip: request.ip,
        user_agent: request.userAgent,
        expires_at: new Date(Date.now() + DEVICE_CHALLENGE_TTL_SECONDS * 1000),
      })
      .returning('id');
    return row.id as number;
  });
  await enqueue(deps.queues, 'mail.device-code', { challengeId });
}

/**
 * Checks the code against the latest challenge of this pre-auth token and fingerprint; the right
 * code trusts the device and approves the challenge. A try is reserved by an atomic conditional
 * increment before the code is compared, so however many requests race, at most 5 comparisons
 * happen per challenge. A wrong code counts toward the account throttle; while the account is
 * locked the try is spent without comparing the code, and the answer is that of a wrong code.
 */
export async function approveDeviceChallenge(deps: { db: Db }, request: DeviceRequest & { code: string; origin?: ActivityOrigin | null }): Promise<void> {
  const { db } = deps;
  const preAuth = await openPreAuthToken(db, request.preAuthToken);
  const latest = await db('device_challenges')
    .where({ pre_auth_token_id: preAuth.id, device_fingerprint: request.fingerprint })
    .orderBy('id', 'desc')
    .first('id');
  if (!latest) throw staleCode();
  const stillOpen = (query: Knex.QueryBuilder) =>
    query.where({ id: latest.id }).whereNull('approved_at').whereNull('replaced_at').whereNotNull('code_hash').where('expires_at', '>', db.fn.now());

  const [reserved] = await stillOpen(db('device_challenges'))
    .where('failed_attempts', '<', DEVICE_CODE_TRIES)
    .increment('failed_attempts', 1)
    .returning(['code_hash']);
  if (!reserved) throw staleCode();
  if (await isAccountLocked(db, preAuth.user_id)) throw wrongCode();
  if (!safeEqual(hashDeviceCode(latest.id, request.code), reserved.code_hash)) {
    await recordAuthFailure(db, preAuth.user_id);
    throw wrongCode();
  }
  await db.transaction(async (trx) => {
    // The reserved try was not a failure; give it back as the challenge is approved.
    const approved = await stillOpen(trx('device_challenges'))
      .update({ approved_at: trx.fn.now(), failed_attempts: trx.raw('failed_attempts - 1') })
      .returning('id');
    if (approved.length === 0) throw staleCode();
    const deviceId = await trustDevice(trx, { userId: preAuth.user_id, fingerprint: request.fingerprint, ip: request.ip, userAgent: request.userAgent });
    await recordUserActivity(trx, preAuth.user_id, {
      actor: { userId: preAuth.user_id, via: 'credentials' },
      action: 'auth.device_approved',
      target: { type: 'device', id: deviceId },
      origin: request.origin,
    });
  });
}

/** Has this sign-in (pre-auth token) approved this device with a code? */
export async function hasApprovedChallenge(db: Executor, preAuthTokenId: number, fingerprint: string): Promise<boolean> {
  const row = await db('device_challenges')
    .where({ pre_auth_token_id: preAuthTokenId, device_fingerprint: fingerprint })
    .whereNotNull('approved_at')
    .first('id');
  return Boolean(row);
}

/** The pre-auth token of a sign-in still in progress: unknown, used or expired ones are 401. */
async function openPreAuthToken(db: Executor, token: string, options: { lock?: boolean } = {}): Promise<OpenPreAuth> {
  const query = db('pre_auth_tokens')
    .where({ token_hash: hashToken(token) })
    .whereNull('consumed_at')
    .where('expires_at', '>', db.fn.now())
    .first('id', 'user_id');
  const row: OpenPreAuth | undefined = await (options.lock ? query.forUpdate() : query);
  if (!row) throw new NotAuthenticated('Invalid, expired or already used pre-auth token');
  return row;
}
