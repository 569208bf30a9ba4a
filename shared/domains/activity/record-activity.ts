import type { Knex } from 'knex';

/**
 * How the actor acted: `session` (a signed-in session, or the sign-in that opens one), `api_token`,
 * `credentials` (an auth request that proves who it is by what it carries instead of a session: a
 * password, a pre-auth token, an e-mailed token or code), `system` (Berth itself).
 */
export type ActivityVia = 'session' | 'api_token' | 'credentials' | 'system';

/** `denied`: refused for lack of authentication or permission (401, 403); `failed`: any other error. */
export type ActivityOutcome = 'success' | 'denied' | 'failed';

/** Where a request came from, as the server saw it. */
export type ActivityOrigin = { ip: string | null; userAgent: string | null; requestId: string | null };

export type ActivityActor = { userId: number | null; via: ActivityVia; apiTokenId?: number | null };

export type NewActivity = {
  actor: ActivityActor;
  /** `<resource>.<verb>` like `member.role_changed` or `auth.login`. */
  action: string;
  target: { type: string; id: string | number | null };
  outcome?: ActivityOutcome;
  /** The HTTP status answered, when the entry is recorded from the answer. */
  status?: number | null;
  origin?: ActivityOrigin | null;
  /** Small facts about the event; keys that name a secret are dropped (see `withoutSecrets`). */
  metadata?: Record<string, unknown>;
};

type Executor = Knex | Knex.Transaction;

/** Keeps a hostile User-Agent from bloating the trail. */
const USER_AGENT_MAX = 512;
const METADATA_MAX_CHARS = 2048;

/**
 * Appends one entry to a team's trail. Pass the transaction of the change when there is one, so the
 * trail and the change commit (or roll back) together. The actor's name and e-mail are copied from
 * the user as they are now: the entry keeps them when the user is renamed or deleted.
 */
export async function recordActivity(db: Executor, entry: NewActivity & { teamId: number }): Promise<number> {
  const ids = await insertActivity(db, entry, { sql: 'SELECT ?::int AS team_id', bindings: [entry.teamId] });
  return ids[0]!;
}

/**
 * Appends the entry to the trail of every team the user is an ACTIVE member of: for events of the
 * account itself (password, e-mail, second factor, devices), which every one of their teams should see.
 */
export async function recordUserActivity(db: Executor, userId: number, entry: NewActivity): Promise<number[]> {
  return insertActivity(db, entry, { sql: "SELECT team_id FROM memberships WHERE user_id = ? AND status = 'ACTIVE'", bindings: [userId] });
}

async function insertActivity(db: Executor, entry: NewActivity, teams: { sql: string; bindings: Knex.Value[] }): Promise<number[]> {
  const metadata = JSON.stringify(withoutSecrets(entry.metadata ?? {}));
  // A programming error, not a runtime condition: metadata is a few facts, never a payload.
  if (metadata.length > METADATA_MAX_CHARS) throw new Error(`activity metadata of ${entry.action} is too large (${metadata.length} characters)`);
  const origin = entry.origin ?? { ip: null, userAgent: null, requestId: null };
  const status = entry.status ?? null;
  const result = await db.raw(
    `INSERT INTO activity (team_id, actor_user_id, actor_name, actor_email, actor_api_token_id, actor_via, action, target_type, target_id,
                           outcome, status, ip, user_agent, request_id, metadata)
     SELECT teams.team_id, ?::int, u.name, u.email, ?::int, ?, ?, ?, ?, ?, ?::smallint, ?, ?, ?, ?::jsonb
     FROM (${teams.sql}) AS teams LEFT JOIN users u ON u.id = ?::int
     RETURNING id`,
    [
      entry.actor.userId,
      entry.actor.apiTokenId ?? null,
      entry.actor.via,
      entry.action,
      entry.target.type,
      entry.target.id === null ? null : String(entry.target.id),
      entry.outcome ?? outcomeOf(status),
      status,
      origin.ip,
      origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      origin.requestId,
      metadata,
      ...teams.bindings,
      entry.actor.userId,
    ],
  );
  return (result.rows as Array<{ id: number }>).map((row) => row.id);
}

export function outcomeOf(status: number | null): ActivityOutcome {
  if (status === null || status < 400) return 'success';
  return status === 401 || status === 403 ? 'denied' : 'failed';
}

/** Names that hold or derive from a secret: passwords, tokens, codes, hashes, keys. `token_id` is fine. */
const secretKey = /password|secret|otp|hash|(^|_)(token|code|key)s?$/i;

/** A safety net under the rule that metadata never carries a secret: such keys are dropped at any depth. */
export function withoutSecrets(value: Record<string, unknown>): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (secretKey.test(key) || inner === undefined) continue;
    clean[key] = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? withoutSecrets(inner as Record<string, unknown>) : inner;
  }
  return clean;
}
