import type { Knex } from 'knex';
import { OFFLINE_AFTER_SECONDS } from '../../agent-protocol/protocol.ts';
import { Node } from '../../db/models.ts';
import { Conflict } from '../../errors.ts';

/** A node's room when its capacity names no `max_sites`. */
export const DEFAULT_NODE_MAX_ENVIRONMENTS = 50;

/**
 * Where a new environment runs: an online node of the region (any region when none is asked for;
 * heartbeat fresh, not draining or disabled) with room for it, least loaded first. Locked, so two placements at once count each other.
 */
export async function placeEnvironment(trx: Knex.Transaction, region: string | undefined): Promise<Node> {
  const fresh = new Date(Date.now() - OFFLINE_AFTER_SECONDS * 1000);
  const candidates = await Node.query(trx)
    .where({ status: 'online', ...(region ? { region } : {}) })
    .where('last_heartbeat_at', '>=', fresh)
    .select('nodes.*', trx.raw('(SELECT count(*) FROM environments e WHERE e.node_id = nodes.id)::int AS hosted'))
    .orderBy([{ column: 'hosted' }, { column: 'created_at' }])
    .forUpdate();
  const node = (candidates as Array<Node & { hosted: number }>).find(
    (candidate) => candidate.hosted < (candidate.capacity?.max_sites ?? DEFAULT_NODE_MAX_ENVIRONMENTS),
  );
  if (!node)
    throw new Conflict(`No node${region ? ` in region ${region}` : ''} can take a site right now; try again later${region ? ' or choose another region' : ''}`);
  return node;
}
