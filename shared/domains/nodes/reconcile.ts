import type { Db } from '../../db/knex.ts';
import { Environment, Node, Operation } from '../../db/models.ts';
import { createOperation } from '../operations/operations.ts';
import { NODE_RECONCILE_KIND, NODE_RECONCILE_STEPS } from '../sites/site-plans.ts';
import { environmentKey } from '../sites/sites.ts';

/**
 * An agent that (re)started reports a new `started_at`: the node may have rebooted, lost a
 * container or had its configuration wiped. The first heartbeat carrying it records it and plans a
 * `node.reconcile` (a platform operation, after whatever runs on the node's environments), which
 * recreates what the records say the node hosts. Nothing is planned for a node hosting nothing, nor
 * twice while one is unfinished.
 */
export async function noteAgentStart(db: Db, node: Node, startedAt: Date): Promise<Operation | null> {
  return db.transaction(async (trx) => {
    const changed = await Node.query(trx)
      .patch({ agent_started_at: startedAt })
      .where({ id: node.id })
      .where((query) => query.whereNull('agent_started_at').orWhere('agent_started_at', '<>', startedAt));
    if (changed === 0) return null;
    const environments = await Environment.query(trx).where({ node_id: node.id }).whereNot('status', 'deleting').select('id');
    if (environments.length === 0) return null;
    const pending = await Operation.query(trx).where({ kind: NODE_RECONCILE_KIND, target_type: 'node', target_id: node.id }).whereIn('status', ['queued', 'running']).first();
    if (pending) return null;
    return createOperation(trx, {
      teamId: null,
      kind: NODE_RECONCILE_KIND,
      target: { type: 'node', id: node.id },
      steps: NODE_RECONCILE_STEPS,
      input: { node_id: node.id, agent_started_at: startedAt.toISOString() },
      serialKeys: [`node:${node.id}`, ...environments.map(environmentKey)],
    });
  });
}
