import type { Knex } from 'knex';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import { NotAuthenticated } from '../../errors.ts';

export type UserTokenPurpose = 'email_verification' | 'password_reset';

const lifetimesSeconds: Record<UserTokenPurpose, number> = {
  email_verification: 24 * 3600,
  password_reset: 30 * 60,
};

/** A 256-bit single-use token sent by e-mail; only its hash is stored. */
export async function issueUserToken(db: Knex | Knex.Transaction, userId: number, purpose: UserTokenPurpose): Promise<string> {
  const token = randomToken(32);
  await db('user_tokens').insert({
    user_id: userId,
    purpose,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + lifetimesSeconds[purpose] * 1000),
  });
  return token;
}

/**
 * Uses a token once: the conditional update is the lock, so two requests with the same token
 * cannot both succeed. Every other open token of the same purpose is retired with it.
 */
export async function consumeUserToken(trx: Knex.Transaction, token: string, purpose: UserTokenPurpose): Promise<number> {
  const [row] = await trx('user_tokens')
    .where({ token_hash: hashToken(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', trx.fn.now())
    .update({ used_at: trx.fn.now() })
    .returning(['user_id']);
  if (!row) throw new NotAuthenticated('Invalid, expired or already used token');
  await trx('user_tokens').where({ user_id: row.user_id, purpose }).whereNull('used_at').update({ used_at: trx.fn.now() });
  return row.user_id as number;
}
