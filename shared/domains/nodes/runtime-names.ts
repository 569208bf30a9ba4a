/**
 * Names of what the agent creates on a node for the node itself. They carry the node id, since
 * several nodes may share one Docker engine (tests, or nodes re-enrolled on the same host), and an
 * agent never touches an object another node's agent made.
 */
export function nodeNetworkName(nodeId: string): string {
  return `berth-${nodeId.replace(/-/g, '').slice(0, 12)}`;
}
