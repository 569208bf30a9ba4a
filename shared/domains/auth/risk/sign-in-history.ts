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
  // One round trip (it runs inside the sign-in's transaction, on the login's critical path).
  const row = (await db('login_activity as la')
    .leftJoin('sessions as s', 's.id', 'la.session_id')
    .leftJoin('login_alerts as a', 'a.pre_auth_token_id', 's.pre_auth_token_id')
    .where('la.user_id', userId)
    .where('la.created_at', '>', db.raw(`now() - make_interval(days => ?)`, [HISTORY_DAYS]))
    .where((where) => where.whereNull('a.id').orWhere('a.decision', 'approved'))
    .first(
      db.raw('EXISTS (SELECT 1 FROM login_activity WHERE user_id = ?) AS seen_before', [userId]),
      db.raw('array_remove(array_agg(DISTINCT la.country), NULL) AS countries'),
      db.raw('array_remove(array_agg(DISTINCT la.network), NULL) AS networks'),
      db.raw(located('latitude')),
      db.raw(located('longitude')),
      db.raw(located('created_at')),
    )) as { seen_before: boolean; countries: string[]; networks: string[]; latitude: number | null; longitude: number | null; created_at: Date | null };
  if (!row.seen_before) return { first: true, countries: new Set(), networks: new Set(), lastLocated: null };
  return {
    first: false,
    countries: new Set(row.countries),
    networks: new Set(row.networks),
    lastLocated:
      row.latitude !== null && row.longitude !== null && row.created_at !== null
        ? { latitude: row.latitude, longitude: row.longitude, at: new Date(row.created_at) }
        : null,
  };
}

/** `column` of the latest counted activity with coordinates. */
function located(column: string): string {
  return `(array_agg(la.${column} ORDER BY la.created_at DESC) FILTER (WHERE la.latitude IS NOT NULL AND la.longitude IS NOT NULL))[1] AS ${column === 'created_at' ? 'created_at' : column}`;
}
