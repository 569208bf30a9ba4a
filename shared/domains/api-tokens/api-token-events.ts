import type { Knex } from 'knex';
import type { ApiTokenEventData } from '../webhooks/event-catalogue.ts';
import { emitEvent } from '../webhooks/events.ts';

type TokenRow = { id: number; team_id: number; name: string; prefix: string; permissions: string[]; expires_at: Date | null; created_by_user_id: number };

/** The columns an event needs, for `.returning()` where tokens are revoked in bulk. */
export const TOKEN_EVENT_COLUMNS = ['id', 'team_id', 'name', 'prefix', 'permissions', 'expires_at', 'created_by_user_id'] as const;

/** `api_token.created` / `api_token.revoked` in the team's outbox, in the change's transaction: what the token is, never its secret. */
export async function emitApiTokenEvent(trx: Knex.Transaction | Knex, row: TokenRow, reason: ApiTokenEventData['reason']): Promise<void> {
  const data: ApiTokenEventData = {
    api_token: {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      permissions: row.permissions,
      expires_at: row.expires_at?.toISOString() ?? null,
      created_by_user_id: row.created_by_user_id,
    },
    reason,
  };
  await emitEvent(trx, { teamId: row.team_id, type: reason === 'created' ? 'api_token.created' : 'api_token.revoked', data });
}
