import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import type { ActivityOutcome, ActivityVia } from './record-activity.ts';

/** One entry as the API shows it; times in ISO 8601 UTC. */
export type ActivityEntry = {
  id: number;
  action: string;
  outcome: ActivityOutcome;
  status: number | null;
  actor: { user_id: number | null; name: string | null; email: string | null; via: ActivityVia; api_token_id: number | null };
  target: { type: string; id: string | null };
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
};

export type ActivityFilters = {
  actorUserId?: number | undefined;
  /** An exact action, or a prefix ending in `*` (`member.*`). */
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Inclusive. */
  since?: Date | undefined;
  /** Exclusive. */
  until?: Date | undefined;
};

type ActivityRow = {
  id: number;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  actor_api_token_id: number | null;
  actor_via: ActivityVia;
  action: string;
  target_type: string;
  target_id: string | null;
  outcome: ActivityOutcome;
  status: number | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
};

/** One page of a team's trail, newest first, with the number of entries matching the filters. */
export async function listActivity(
  db: Db,
  teamId: number,
  filters: ActivityFilters,
  page: { page: number; pageSize: number },
): Promise<{ items: ActivityEntry[]; total: number }> {
  const matching = () => applyFilters(db('activity').where({ team_id: teamId }), filters);
  const [rows, counted] = await Promise.all([
    matching()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .select<ActivityRow[]>('*'),
    matching().count<Array<{ count: number }>>({ count: '*' }),
  ]);
  return { items: rows.map(toEntry), total: Number(counted[0]?.count ?? 0) };
}

/** One entry of the team's trail; another team's id is not found. */
export async function findActivity(db: Db, teamId: number, id: number): Promise<ActivityEntry> {
  const row: ActivityRow | undefined = await db('activity').where({ team_id: teamId, id }).first();
  if (!row) throw new NotFound('No such activity entry');
  return toEntry(row);
}

function applyFilters(query: Knex.QueryBuilder, filters: ActivityFilters): Knex.QueryBuilder {
  if (filters.actorUserId !== undefined) query.where('actor_user_id', filters.actorUserId);
  if (filters.action !== undefined) {
    if (filters.action.endsWith('*')) {
      const prefix = filters.action.slice(0, -1);
      if (prefix !== '') query.where('action', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}%`);
    } else {
      query.where('action', filters.action);
    }
  }
  if (filters.targetType !== undefined) query.where('target_type', filters.targetType);
  if (filters.targetId !== undefined) query.where('target_id', filters.targetId);
  if (filters.since !== undefined) query.where('created_at', '>=', filters.since);
  if (filters.until !== undefined) query.where('created_at', '<', filters.until);
  return query;
}

function toEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    action: row.action,
    outcome: row.outcome,
    status: row.status,
    actor: { user_id: row.actor_user_id, name: row.actor_name, email: row.actor_email, via: row.actor_via, api_token_id: row.actor_api_token_id },
    target: { type: row.target_type, id: row.target_id },
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
  };
}
