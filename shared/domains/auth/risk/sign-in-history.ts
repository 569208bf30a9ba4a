import type { Knex } from 'knex';
import type { LocatedSignIn } from './impossible-travel.ts';

export const HISTORY_DAYS = 90;

/** What a user's recent sign-ins make "known", to compare a new sign-in with. */
export type SignInHistory = {
  /** The user has never signed in (nor refreshed) before: nothing to compare with. */
  first: boolean;
  countries: Set<string>;
  networks: Set<string>;
  /** The latest activity with coordinates. */
  lastLocated: LocatedSignIn | null;
};

/**
 * The user's login and refresh activity of the last 90 days, except what came from a sign-in
 * whose alert is not approved: a pending or denied alert's country and network stay unknown, so
 * an attacker's second sign-in from the same place alerts again.
 */
export async function signInHistory(db: Knex | Knex.Transaction, userId: number): Promise<SignInHistory> {
  const first = !(await db('login_activity').where({ user_id: userId }).first('id'));
  if (first) return { first, countries: new Set(), networks: new Set(), lastLocated: null };
  const counted = () =>
    db('login_activity as la')
      .leftJoin('sessions as s', 's.id', 'la.session_id')
      .leftJoin('login_alerts as a', 'a.pre_auth_token_id', 's.pre_auth_token_id')
      .where('la.user_id', userId)
      .where('la.created_at', '>', db.raw(`now() - make_interval(days => ?)`, [HISTORY_DAYS]))
      .where((where) => where.whereNull('a.id').orWhere('a.decision', 'approved'));
  const places: Array<{ country: string | null; network: string | null }> = await counted().distinct('la.country', 'la.network');
  const located = await counted()
    .whereNotNull('la.latitude')
    .whereNotNull('la.longitude')
    .orderBy('la.created_at', 'desc')
    .first('la.latitude', 'la.longitude', 'la.created_at');
  return {
    first,
    countries: new Set(places.flatMap((place) => (place.country ? [place.country] : []))),
    networks: new Set(places.flatMap((place) => (place.network ? [place.network] : []))),
    lastLocated: located ? { latitude: located.latitude, longitude: located.longitude, at: new Date(located.created_at) } : null,
  };
}
