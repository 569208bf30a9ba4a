import type { Knex } from 'knex';
import { hashToken } from '../../../crypto/tokens.ts';
import { ConcurrentLoginDenied, ConcurrentLoginPending, NotAuthenticated } from '../../../errors.ts';
import { enqueue } from '../../../jobs/queues.ts';
import { hasLiveSessionOnAnotherDevice } from '../concurrent/live-sessions.ts';
import { concurrentLoginToken } from '../concurrent/request-token.ts';
import type { ExchangeAttempt, ExchangeGate, GateDeps } from './exchange-gate.ts';

export const CONCURRENT_LOGIN_TTL_SECONDS = 10 * 60;

type RequestRow = { id: number; status: 'pending' | 'approved' | 'denied'; expires_at: Date };

/**
 * Concurrent-login approval. When the team asks for it (`settings.concurrent_sessions`, `approve` by
 * default, or `allow`), an exchange while the user has a live session on another device opens a
 * request (10 minutes), notifies the user by e-mail and answers 423 `concurrent_login_pending`.
 * Retrying with the same pre-auth token answers the same token while pending, continues once a live
 * session approved it, answers 423 `concurrent_login_denied` once denied, and 401 once expired.
 */
export const concurrentLoginGate: ExchangeGate = {
  name: 'concurrent-login',
  async check(trx, attempt, deps) {
    if ((attempt.team.settings?.concurrent_sessions ?? 'approve') === 'allow') return;
    const request: RequestRow | undefined = await trx('concurrent_login_requests')
      .where({ pre_auth_token_id: attempt.preAuth.id })
      .first('id', 'status', 'expires_at');
    if (!request && !(await hasLiveSessionOnAnotherDevice(trx, attempt.user.id, attempt.sessionInfo.device_fingerprint))) return;
    if (request?.status === 'approved') return;
    if (request?.status === 'denied') throw new ConcurrentLoginDenied();
    if (request && new Date(request.expires_at).getTime() <= Date.now()) {
      throw new NotAuthenticated('The sign-in was not approved within 10 minutes; sign in again');
    }
    const token = concurrentLoginToken(deps.secretKey, await preAuthTokenHash(trx, attempt));
    if (!request) await openRequest(attempt, token, deps);
    throw new ConcurrentLoginPending(token);
  },
};

async function preAuthTokenHash(trx: Knex.Transaction, attempt: ExchangeAttempt): Promise<string> {
  const row = await trx('pre_auth_tokens').where({ id: attempt.preAuth.id }).first('token_hash');
  return row.token_hash as string;
}

/** Written through `deps.db`, committed before the 423, so it outlives the exchange's rollback. */
async function openRequest(attempt: ExchangeAttempt, token: string, deps: GateDeps): Promise<void> {
  const id = await deps.db.transaction(async (db) => {
    // The row references the pre-auth row the exchange holds locked. Only FOR NO KEY UPDATE lets this
    // foreign-key check through; under FOR UPDATE it would wait forever, so fail after 5 s instead.
    await db.raw("SET LOCAL lock_timeout = '5s'");
    const [row] = await db('concurrent_login_requests')
      .insert({
        user_id: attempt.user.id,
        pre_auth_token_id: attempt.preAuth.id,
        team_id: attempt.team.id,
        token_hash: hashToken(token),
        device_fingerprint: attempt.sessionInfo.device_fingerprint,
        ip: attempt.ip,
        user_agent: attempt.userAgent,
        expires_at: new Date(Date.now() + CONCURRENT_LOGIN_TTL_SECONDS * 1000),
      })
      .onConflict('pre_auth_token_id')
      .ignore()
      .returning('id');
    return row?.id as number | undefined;
  });
  if (id === undefined) return; // a parallel retry opened it first
  await enqueue(deps.queues, 'mail.concurrent-login', { requestId: id }).catch((error: unknown) => {
    deps.logger.error({ err: error, requestId: id }, 'could not queue the concurrent-login e-mail; the live session still sees the request');
  });
}
