import { randomBytes } from 'node:crypto';
import { seal } from '../../../crypto/sealed.ts';
import type { Db } from '../../../db/knex.ts';
import { User } from '../../../db/models.ts';
import { NotAuthenticated, ValidationFailed } from '../../../errors.ts';
import { base32Encode } from './base32.ts';
import { generateBackupCodes, hashBackupCode } from './backup-codes.ts';
import { otpauthUri } from './otpauth-uri.ts';

/** 160 bits, the HMAC-SHA1 key size RFC 4226 recommends. */
export const TOTP_SECRET_BYTES = 20;

export type TotpSetup = { secret: string; qrCodeUrl: string; backupCodes: string[] };

type SetupDeps = { db: Db; config: { secrets: { secretKey: Buffer } } };

/**
 * Starts (or restarts) enrolment: a new secret, sealed, waits as the pending secret, and ten new
 * backup codes wait hashed and pending; both replace any earlier setup's. Nothing changes for
 * sign-in until /totp/verify accepts a code of this secret. Re-enrolment is out of scope.
 */
export async function startTotpSetup(deps: SetupDeps, userId: number): Promise<TotpSetup> {
  const key = deps.config.secrets.secretKey;
  const secret = base32Encode(randomBytes(TOTP_SECRET_BYTES));
  const backupCodes = generateBackupCodes();
  const email = await deps.db.transaction(async (trx) => {
    const user = await User.query(trx).findById(userId).forUpdate();
    if (!user) throw new NotAuthenticated();
    if (user.totp_enabled_at) throw ValidationFailed.field('', 'Two-factor authentication is already enabled');
    await trx('users')
      .where({ id: userId })
      .update({ totp_pending_secret_sealed: seal(key, secret) });
    await trx('totp_backup_codes').where({ user_id: userId, pending: true }).delete();
    await trx('totp_backup_codes').insert(backupCodes.map((code) => ({ user_id: userId, code_hash: hashBackupCode(key, userId, code), pending: true })));
    return user.email;
  });
  return { secret, qrCodeUrl: otpauthUri(email, secret), backupCodes };
}
