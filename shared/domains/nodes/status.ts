import { OFFLINE_AFTER_SECONDS } from '../../agent-protocol/protocol.ts';
import type { Node } from '../../db/models.ts';

export type NodeView = 'enrolling' | 'online' | 'offline' | 'draining' | 'disabled' | 'failed';

/**
 * The status a node shows: `offline` is not stored but read off the heartbeat, so a node whose
 * agent died is offline three missed heartbeats later without anyone having to notice it.
 */
export function nodeStatus(node: Pick<Node, 'status' | 'last_heartbeat_at'>, now = new Date()): NodeView {
  if (node.status !== 'online' && node.status !== 'draining') return node.status;
  const silentFor = node.last_heartbeat_at ? (now.getTime() - node.last_heartbeat_at.getTime()) / 1000 : Infinity;
  return silentFor > OFFLINE_AFTER_SECONDS ? 'offline' : node.status;
}
