import type { Db } from '../../db/knex.ts';
import { Node, type Operation } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { startOperation, type OperationQueue } from '../operations/operations.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Starts a `node.ping` of an enrolled node (a platform operation). An offline node is pinged too:
 * the operation then fails when the command is not picked up, which is the answer a check wants.
 */
export async function pingNode(deps: OperationQueue & { db: Db }, id: string, userId: number | null): Promise<Operation> {
  if (!uuidPattern.test(id)) throw new NotFound('No such node');
  return deps.db.transaction(async (trx) => {
    const node = await Node.query(trx).findById(id).select('id', 'status');
    if (!node) throw new NotFound('No such node');
    if (node.status === 'enrolling') throw new Conflict('The node has not enrolled yet: its agent cannot answer');
    if (node.status === 'disabled') throw new Conflict('The node is disabled: its agent is refused');
    return startOperation(trx, deps, 'node.ping', { node_id: node.id }, { teamId: null, target: { type: 'node', id: node.id }, createdByUserId: userId });
  });
}
