import type { Knex } from 'knex';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/knex.ts';
import { Node } from '../../db/models.ts';
import { Conflict, NotAuthenticated } from '../../errors.ts';
import type { HostFacts } from '../../agent-protocol/protocol.ts';

/** How long the agent has, after the installer starts it, to register its key. */
export const ENROLLMENT_TTL_SECONDS = 60 * 60;

/**
 * A one-time token the installer hands to the agent (in its config file, 0600). Only its hash is
 * kept; issuing another replaces it, so a retried enrollment step does not leave two valid tokens.
 */
export async function issueEnrollmentToken(trx: Knex | Knex.Transaction, nodeId: string): Promise<string> {
  const token = `berth_enr_${randomToken(32)}`;
  const updated = await Node.query(trx)
    .patch({ enrollment_token_hash: hashToken(token), enrollment_expires_at: new Date(Date.now() + ENROLLMENT_TTL_SECONDS * 1000), updated_at: new Date() })
    .where({ id: nodeId })
    .whereIn('status', ['enrolling', 'failed']);
  if (updated === 0) throw new Conflict('Only a node that is enrolling can be given an enrollment token');
  return token;
}

/**
 * The agent's first call: trades the token for the node's identity, keeping the public key it
 * generated. The token is consumed in the same update (a replay finds nothing). The node stays
 * `enrolling` until its first heartbeat shows the agent running with that key.
 */
export async function registerAgentKey(
  db: Db,
  input: { token: string; publicKey: NonNullable<Node['public_key']>; agentVersion: string; protocolVersion: number; facts: HostFacts },
): Promise<Node> {
  return db.transaction(async (trx) => {
    const node = await Node.query(trx)
      .findOne({ enrollment_token_hash: hashToken(input.token) })
      .forUpdate();
    if (!node || !node.enrollment_expires_at || node.enrollment_expires_at.getTime() <= Date.now() || node.status === 'disabled') {
      throw new NotAuthenticated('Invalid, used or expired enrollment token');
    }
    const now = new Date();
    await Node.query(trx)
      .patch({
        enrollment_token_hash: null,
        enrollment_expires_at: null,
        public_key: input.publicKey as never,
        agent_version: input.agentVersion,
        protocol_version: input.protocolVersion,
        facts: input.facts as never,
        enrolled_at: now,
        updated_at: now,
      })
      .where({ id: node.id });
    return (await Node.query(trx).findById(node.id))!;
  });
}

/** A node whose agent registered its key. */
export type EnrolledNode = Node & { public_key: NonNullable<Node['public_key']> };

/** The node an agent token names, if its agent registered a key; undefined for an unknown or unenrolled node. */
export async function findEnrolledNode(db: Db, nodeId: string): Promise<EnrolledNode | undefined> {
  if (!/^[0-9a-f-]{36}$/.test(nodeId)) return undefined;
  const node = await Node.query(db).findById(nodeId);
  return node?.public_key ? (node as EnrolledNode) : undefined;
}
