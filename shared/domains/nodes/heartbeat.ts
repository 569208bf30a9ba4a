import type { Db } from '../../db/knex.ts';
import { Node } from '../../db/models.ts';
import type { NodeMetrics } from '../../agent-protocol/protocol.ts';
import { renewLeases } from '../agent/agent-commands.ts';
import { nodeStatus, type NodeView } from './status.ts';

/**
 * A heartbeat: the node is alive, with these metrics, running these commands (their leases are
 * renewed). The first one after enrollment is what makes an enrolling node `online`.
 */
export async function recordHeartbeat(db: Db, node: Node, beat: { agentVersion: string; protocolVersion: number; metrics: NodeMetrics; running: string[] }): Promise<NodeView> {
  const now = new Date();
  await Node.query(db)
    .patch({
      last_heartbeat_at: now,
      metrics: beat.metrics as never,
      agent_version: beat.agentVersion,
      protocol_version: beat.protocolVersion,
      updated_at: now,
      ...(node.status === 'enrolling' && node.public_key ? { status: 'online' as const } : {}),
    })
    .where({ id: node.id });
  await renewLeases(db, node.id, beat.running);
  return nodeStatus({ status: node.status === 'enrolling' && node.public_key ? 'online' : node.status, last_heartbeat_at: now }, now);
}
