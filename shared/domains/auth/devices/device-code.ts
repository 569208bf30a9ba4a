import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../../../db/knex.ts';
import { User } from '../../../db/models.ts';
import { deviceCodeMail } from '../../../mail/device.templates.ts';
import type { Mailer } from '../../../mail/mailer.ts';
import { deviceLabel } from './device-label.ts';

/**
 * How a code is stored: SHA-256 of the challenge id and the code. Six digits are a million values,
 * so no hash can stop an offline search by someone who reads the table; the hash only keeps codes
 * out of the database and its backups in clear, and the id as salt makes equal codes of different
 * challenges look different. What protects a code is online: it belongs to one challenge of one
 * pre-auth token (which took the password), lives 10 minutes, and allows 5 tries.
 */
export function hashDeviceCode(challengeId: number, code: string): string {
  return createHash('sha256').update(`${challengeId}:${code}`, 'utf8').digest('hex');
}

/**
 * Mints the code of an open challenge and mails it; what the `mail.device-code` job does. The code
 * exists only in this function and the e-mail, never in the queue. A retried job mints a new code,
 * and the previous one stops working; the challenge's tries are not reset.
 */
export async function sendDeviceCode(deps: { db: Db; mailer: Mailer }, challengeId: number): Promise<boolean> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const [challenge] = await deps
    .db('device_challenges')
    .where({ id: challengeId })
    .whereNull('approved_at')
    .whereNull('replaced_at')
    .where('expires_at', '>', deps.db.fn.now())
    .update({ code_hash: hashDeviceCode(challengeId, code) })
    .returning(['user_id', 'ip', 'user_agent']);
  if (!challenge) return false;
  const user = (await User.query(deps.db).findById(challenge.user_id))!;
  await deps.mailer.send(deviceCodeMail(user.email, user.name, code, { label: deviceLabel(challenge.user_agent), ip: challenge.ip }));
  return true;
}
