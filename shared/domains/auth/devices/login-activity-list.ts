import type { Db } from '../../../db/knex.ts';

/** A login activity entry as spec part 2.4 shows it; `created_at` in ISO 8601 UTC. */
export type LoginActivityEntry = {
  id: number;
  event_type: 'login' | 'refresh';
  ip: string | null;
  user_agent: string | null;
  device_fingerprint: string | null;
  geo: { city: string | null; country: string | null };
  created_at: string;
};

export type Pagination = { page: number; page_size: number; total: number; total_pages: number };

type ActivityRow = Omit<LoginActivityEntry, 'geo' | 'created_at'> & {
  geo: { city?: string; country?: string } | null;
  country: string | null;
  created_at: Date;
};

/** The user's own sign-ins and refreshes, newest first, one page at a time. */
export async function listLoginActivity(
  db: Db,
  userId: number,
  page: { page: number; pageSize: number },
): Promise<{ activity: LoginActivityEntry[]; pagination: Pagination }> {
  const { total } = (await db('login_activity').where({ user_id: userId }).count({ total: '*' }).first()) as { total: number };
  const rows: ActivityRow[] = await db('login_activity')
    .where({ user_id: userId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .select('id', 'event_type', 'ip', 'user_agent', 'device_fingerprint', 'geo', 'country', 'created_at');
  return {
    activity: rows.map((row) => ({
      id: row.id,
      event_type: row.event_type,
      ip: row.ip,
      user_agent: row.user_agent,
      device_fingerprint: row.device_fingerprint,
      geo: geoOf(row),
      created_at: row.created_at.toISOString(),
    })),
    pagination: { page: page.page, page_size: page.pageSize, total, total_pages: Math.ceil(total / page.pageSize) },
  };
}

/**
 * The country the server located the IP in when it did, else the one the client stated; the city is
 * only ever the client's, and is dropped when it contradicts the server's country.
 */
function geoOf(row: ActivityRow): LoginActivityEntry['geo'] {
  const stated = row.geo ?? {};
  const country = row.country ?? stated.country ?? null;
  const agrees = !row.country || row.country.toUpperCase() === stated.country?.toUpperCase();
  const city = agrees ? (stated.city ?? null) : null;
  return { city, country };
}
