import type { Knex } from 'knex';
import { OFFLINE_AFTER_SECONDS } from '../../shared/agent-protocol/protocol.ts';
import { emitEvent } from '../../shared/domains/webhooks/events.ts';
import type { WorkerDeps } from '../registry.ts';

/**
 * `node.offline` and `node.online` for the teams with environments on the node. Offline is not
 * stored but read off the heartbeat (shared/domains/nodes/status.ts), so the change is noticed here:
 * `offline_announced_at` marks a silence already reported, and each transition is claimed by one
 * UPDATE, so workers doing this at once report it once.
 */
export async function announceNodeChanges(deps: Pick<WorkerDeps, 'db'>): Promise<number> {
  return deps.db.transaction(async (trx) => {
    const silent = (await trx.raw(
      `UPDATE nodes SET offline_announced_at = now()
       WHERE status IN ('online', 'draining') AND offline_announced_at IS NULL
         AND (last_heartbeat_at IS NULL OR last_heartbeat_at < now() - make_interval(secs => ?))
       RETURNING id`,
      [OFFLINE_AFTER_SECONDS],
    )) as { rows: Array<{ id: string }> };
    const back = (await trx.raw(
      `UPDATE nodes SET offline_announced_at = NULL
       WHERE offline_announced_at IS NOT NULL AND last_heartbeat_at >= now() - make_interval(secs => ?)
       RETURNING id`,
      [OFFLINE_AFTER_SECONDS],
    )) as { rows: Array<{ id: string }> };
    for (const { id } of silent.rows) await tellTeams(trx, id, 'offline');
    for (const { id } of back.rows) await tellTeams(trx, id, 'online');
    return silent.rows.length + back.rows.length;
  });
}

async function tellTeams(trx: Knex.Transaction, nodeId: string, status: 'offline' | 'online'): Promise<void> {
  const rows = (await trx('environments').where({ node_id: nodeId }).whereNot('status', 'deleting').orderBy('id').select('team_id', 'id')) as Array<{
    team_id: number;
    id: number;
  }>;
  const byTeam = new Map<number, number[]>();
  for (const row of rows) byTeam.set(row.team_id, [...(byTeam.get(row.team_id) ?? []), row.id]);
  for (const [teamId, environmentIds] of byTeam) {
    await emitEvent(trx, { teamId, type: `node.${status}`, data: { node: { id: nodeId, status }, environment_ids: environmentIds } });
  }
}
