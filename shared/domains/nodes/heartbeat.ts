import type { Db } from '../../db/knex.ts';
import { Node } from '../../db/models.ts';
import type { NodeMetrics } from '../../agent-protocol/protocol.ts';
import { renewLeases } from '../agent/agent-commands.ts';
import { nodeStatus, type NodeView } from './status.ts';

/**
 * A heartbeat: the node is alive, with these metrics, running these commands (their leases are
 * renewed).
 */
export async function recordHeartbeat(
  db: Db,
  node: Node,
  beat: {
    agentVersion: string;
    protocolVersion: number;
    metrics: NodeMetrics;
    running: string[];
    sftp?: { port: number; host_key: string; host_key_fingerprint: string } | undefined;
  },
): Promise<NodeView> {
  const now = new Date();
  // A node enrolled by a `node.enroll` operation turns online when that operation has finished
  // (its last step proves the agent runs commands); one enrolled by a token alone (the local agent
  // of `berth start`) at its first heartbeat.
  const comesOnline =
    node.status === 'enrolling' &&
    node.public_key !== null &&
    !(await db('operations').where({ kind: 'node.enroll', target_type: 'node', target_id: node.id }).first('id'));
  await Node.query(db)
    .patch({
      last_heartbeat_at: now,
      metrics: beat.metrics as never,
      agent_version: beat.agentVersion,
      protocol_version: beat.protocolVersion,
      updated_at: now,
      ...(beat.sftp ? { sftp_port: beat.sftp.port, sftp_host_key: beat.sftp.host_key, sftp_host_key_fingerprint: beat.sftp.host_key_fingerprint } : {}),
      ...(comesOnline ? { status: 'online' as const } : {}),
    })
    .where({ id: node.id });
  await renewLeases(db, node.id, beat.running);
  return nodeStatus({ status: comesOnline ? 'online' : node.status, last_heartbeat_at: now }, now);
}
