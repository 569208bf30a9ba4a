import type { Knex } from 'knex';

/**
 * Does the user have a live session on a device other than `deviceFingerprint`? Live: not revoked,
 * past its second factor, and holding a refresh token that is neither rotated nor expired.
 */
export async function hasLiveSessionOnAnotherDevice(db: Knex | Knex.Transaction, userId: number, deviceFingerprint: string): Promise<boolean> {
  const live = await db('sessions as s')
    .where({ 's.user_id': userId, 's.second_factor_pending': false })
    .whereNull('s.revoked_at')
    .whereRaw('s.device_fingerprint IS DISTINCT FROM ?', [deviceFingerprint])
    .whereExists((refresh) =>
      refresh.select(db.raw('1')).from('refresh_tokens as r').whereRaw('r.session_id = s.id').whereNull('r.rotated_at').where('r.expires_at', '>', db.fn.now()),
    )
    .first('s.id');
  return Boolean(live);
}
