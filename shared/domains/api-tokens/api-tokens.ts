import type { Db } from '../../db/knex.ts';
import { emitApiTokenEvent, TOKEN_EVENT_COLUMNS } from './api-token-events.ts';
import { ApiToken } from '../../db/models.ts';
import { hashToken } from '../../crypto/tokens.ts';
import { NotAuthenticated, NotFound, ValidationFailed } from '../../errors.ts';
import { displayPrefix, mintApiTokenSecret } from './secret.ts';

/** Expiry of a token created without `expires_in_days`; `null` asks for one that never expires. */
export const DEFAULT_EXPIRY_DAYS = 90;
export const MAX_EXPIRY_DAYS = 365;

const DAY_MS = 24 * 3600 * 1000;

/** A token as lists show it: never the secret nor its hash. */
export type ApiTokenView = {
  id: number;
  name: string;
  prefix: string;
  permissions: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  created_at: Date;
  /** Null but in the answer to the revocation. */
  revoked_at: Date | null;
  created_by_user_id: number;
  created_by_name: string;
};

export type NewApiToken = {
  teamId: number;
  userId: number;
  name: string;
  /** Valid grants the caller was checked to hold (the route checks them against the caller). */
  permissions: string[];
  /** Days until it expires; `null` never; absent: DEFAULT_EXPIRY_DAYS. */
  expiresInDays: number | null | undefined;
  /**
   * The latest it may expire: the creating API token's own expiry when a token creates a token, so a
   * short-lived token cannot mint a longer-lived one. Absent/null: no bound.
   */
  notAfter?: Date | null;
};

/**
 * Creates a token for the user's ACTIVE membership in the team and returns it with its secret,
 * which exists only in this answer: the row keeps its SHA-256 and a short display prefix.
 */
export async function createApiToken(db: Db, input: NewApiToken): Promise<{ token: ApiTokenView; secret: string }> {
  const expiresAt = expiryOf(input.expiresInDays, input.notAfter ?? null);
  const secret = mintApiTokenSecret();
  const id = await db.transaction(async (trx) => {
    // Held until commit, so the membership cannot be removed between this check and the insert.
    const membership = await trx('memberships').where({ team_id: input.teamId, user_id: input.userId, status: 'ACTIVE' }).forShare().first('id');
    if (!membership) throw new NotAuthenticated('No active membership in this team');
    const row = await ApiToken.query(trx).insertAndFetch({
      team_id: input.teamId,
      membership_id: membership.id,
      created_by_user_id: input.userId,
      name: input.name,
      prefix: displayPrefix(secret),
      token_hash: hashToken(secret),
      permissions: [...new Set(input.permissions)],
      expires_at: expiresAt,
    });
    await emitApiTokenEvent(trx, row, 'created');
    return row.id;
  });
  return { token: await findApiToken(db, input.teamId, id), secret };
}

function expiryOf(expiresInDays: number | null | undefined, notAfter: Date | null): Date | null {
  const asked = expiresInDays === null ? null : new Date(Date.now() + (expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS);
  if (notAfter === null) return asked;
  if (asked !== null && asked <= notAfter) return asked;
  // The default is quietly shortened to the creating token's life; an explicit wish is refused.
  if (expiresInDays === undefined) return notAfter;
  throw ValidationFailed.field('expires_in_days', `cannot outlive the API token creating it (it expires at ${notAfter.toISOString()})`);
}

function ofTeam(db: Db, teamId: number) {
  return db('api_tokens as t').join('users as u', 'u.id', 't.created_by_user_id').where('t.team_id', teamId);
}

/** The query of listed tokens: the team's, not revoked (expired ones stay listed until revoked). */
function listed(db: Db, teamId: number) {
  return ofTeam(db, teamId).whereNull('t.revoked_at');
}

const viewColumns = [
  't.id',
  't.name',
  't.prefix',
  't.permissions',
  't.expires_at',
  't.last_used_at',
  't.last_used_ip',
  't.created_at',
  't.revoked_at',
  't.created_by_user_id',
  'u.name as created_by_name',
];

/** One page of the team's live tokens, newest first, with the total. */
export async function listApiTokens(db: Db, teamId: number, page: { page: number; pageSize: number }): Promise<{ items: ApiTokenView[]; total: number }> {
  const [items, count] = await Promise.all([
    listed(db, teamId)
      .orderBy([
        { column: 't.created_at', order: 'desc' },
        { column: 't.id', order: 'desc' },
      ])
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .select(viewColumns),
    listed(db, teamId).count<{ count: string }[]>('* as count').first(),
  ]);
  return { items, total: Number(count?.count ?? 0) };
}

/** When a token expires (null: never, or no such token). */
export async function apiTokenExpiry(db: Db, id: number): Promise<Date | null> {
  const token = await ApiToken.query(db).findById(id).select('expires_at');
  return token?.expires_at ?? null;
}

/** A live token of the team; another team's, a revoked or an unknown id: NotFound. */
export async function findApiToken(db: Db, teamId: number, id: number): Promise<ApiTokenView> {
  const token = await listed(db, teamId).where('t.id', id).first(viewColumns);
  if (!token) throw new NotFound('API token not found');
  return token;
}

/**
 * Revokes a live token of the team and answers it as revoked; its next request answers 401.
 * Another team's, an already revoked or an unknown id: NotFound.
 */
export async function revokeApiToken(db: Db, teamId: number, id: number): Promise<ApiTokenView> {
  const revoked = await db.transaction(async (trx) => {
    const [row] = await trx('api_tokens')
      .where({ id, team_id: teamId })
      .whereNull('revoked_at')
      .update({ revoked_at: trx.fn.now() })
      .returning([...TOKEN_EVENT_COLUMNS]);
    if (row) await emitApiTokenEvent(trx, row, 'revoked');
    return row;
  });
  if (!revoked) throw new NotFound('API token not found');
  return ofTeam(db, teamId).where('t.id', id).first(viewColumns);
}
