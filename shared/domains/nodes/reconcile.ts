import { Environment, Node, Operation } from '../../db/models.ts';
import { startOperation, type OperationDeps } from '../operations/operations.ts';
import { environmentKey } from '../sites/sites.ts';

/**
 * An agent that (re)started reports a new `started_at`: the node may have rebooted, lost a
 * container or had its configuration wiped. The first heartbeat carrying it records it and plans a
 * `node.reconcile` (a platform operation, after whatever runs on the node's environments), which
 * recreates what the records say the node hosts. Nothing is planned for a node hosting nothing, nor
 * twice while one is unfinished.
 */
export async function noteAgentStart(deps: OperationDeps, node: Node, startedAt: Date): Promise<Operation | null> {
  return deps.db.transaction(async (trx) => {
    const changed = await Node.query(trx)
      .patch({ agent_started_at: startedAt })
      .where({ id: node.id })
      .where((query) => query.whereNull('agent_started_at').orWhere('agent_started_at', '<>', startedAt));
    if (changed === 0) return null;
    const environments = await Environment.query(trx).where({ node_id: node.id }).whereNot('status', 'deleting').select('id');
    if (environments.length === 0) return null;
    const pending = await Operation.query(trx)
      .where({ kind: 'node.reconcile', target_type: 'node', target_id: node.id })
      .whereIn('status', ['queued', 'running'])
      .first();
    if (pending) return null;
    return startOperation(
      trx,
      deps,
      'node.reconcile',
      { node_id: node.id, agent_started_at: startedAt.toISOString() },
      {
        teamId: null,
        target: { type: 'node', id: node.id },
        serialKeys: [`node:${node.id}`, ...environments.map(environmentKey)],
      },
    );
  });
}
