import type { Knex } from 'knex';
import { OFFLINE_AFTER_SECONDS } from '../../agent-protocol/protocol.ts';
import type { Db } from '../../db/knex.ts';
import { Node, Operation } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import type { Queues } from '../../jobs/queues.ts';
import type { Logger } from '../../logger.ts';
import { startOperation, type OperationQueue } from '../operations/operations.ts';
import { nodeEnroll } from './nodes.operations.ts';
import { violatedConstraint } from '../teams/constraint-violations.ts';
import { assertUsableKey, authMethodOf, sealCredentials, unsealCredentials, type SshCredentials } from './ssh-credentials.ts';
import type { NodeView } from './status.ts';

export type NodeCapacity = Node['capacity'];

/**
 * A node as operators see it: the stored row, the status it shows (`offline` read off the last
 * heartbeat, `failed` read off its latest enrollment operation), and that enrollment.
 */
export type NodeRecord = Node & {
  view_status: NodeView;
  enroll_operation_id: string | null;
  enroll_status: Operation['status'] | null;
  enroll_error: Operation['error'];
};

export type NewNode = {
  name: string;
  region: string;
  publicAddress: string;
  ssh: { host: string; port: number; user: string; credentials: SshCredentials };
  capacity: NodeCapacity;
};

type Deps = { db: Db; queues: Queues; logger: Logger; secretKey: Buffer };

/**
 * Registers a node and starts its enrollment (`node.enroll`, a platform operation: team_id null) in
 * one transaction. The SSH credentials are sealed into the node row; the operation's input names
 * only how it logs in, never the secret.
 */
export async function createNode(deps: Deps, input: NewNode, userId: number): Promise<{ node: NodeRecord; operation: Operation }> {
  assertUsableKey(input.ssh.credentials);
  const operation = await deps.db.transaction(async (trx) => {
    const node = await uniqueName(input.name, () =>
      Node.query(trx).insertAndFetch({
        name: input.name,
        region: input.region,
        public_address: input.publicAddress,
        ssh_host: input.ssh.host,
        ssh_port: input.ssh.port,
        ssh_user: input.ssh.user,
        ssh_credentials_sealed: sealCredentials(deps.secretKey, input.ssh.credentials),
        capacity: input.capacity,
        created_by_user_id: userId,
      }),
    );
    return startEnrollment(trx, deps, node, authMethodOf(input.ssh.credentials), userId);
  });
  return { node: await findNode(deps.db, operation.target_id), operation };
}

/**
 * Enrolls a node whose last enrollment failed once more: with the credentials still stored, or with
 * new SSH details (`ssh` replaces host, port, user and credentials; the pinned host key is forgotten
 * when host or port change). Refused while an enrollment is under way, and for a node that is
 * enrolled or disabled.
 */
export async function retryEnrollment(deps: Deps, id: string, retry: { ssh?: NewNode['ssh'] | undefined }, userId: number): Promise<Operation> {
  if (retry.ssh) assertUsableKey(retry.ssh.credentials);
  const current = await findNode(deps.db, id);
  return deps.db.transaction(async (trx) => {
    let node = (await Node.query(trx).findById(current.id).forUpdate())!;
    if (node.status !== 'enrolling')
      throw new Conflict(node.status === 'disabled' ? 'The node is disabled; delete it and add it again' : 'The node is enrolled already');
    const latest = await Operation.query(trx)
      .where({ kind: 'node.enroll', target_type: 'node', target_id: node.id })
      .whereNull('team_id')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first();
    if (latest && (latest.status === 'queued' || latest.status === 'running'))
      throw new Conflict(`The node's enrollment is still under way (operation ${latest.id})`);
    let auth: 'private_key' | 'password';
    if (retry.ssh) {
      const moved = retry.ssh.host !== node.ssh_host || retry.ssh.port !== node.ssh_port;
      node = await Node.query(trx).patchAndFetchById(node.id, {
        ssh_host: retry.ssh.host,
        ssh_port: retry.ssh.port,
        ssh_user: retry.ssh.user,
        ssh_credentials_sealed: sealCredentials(deps.secretKey, retry.ssh.credentials),
        ...(moved ? { ssh_host_key_sha256: null } : {}),
        updated_at: new Date(),
      });
      auth = authMethodOf(retry.ssh.credentials);
    } else {
      if (!node.ssh_credentials_sealed) throw new Conflict('No SSH credentials are stored for this node: give them in `ssh`');
      auth = authMethodOf(unsealCredentials(deps.secretKey, node.ssh_credentials_sealed));
    }
    return startEnrollment(trx, deps, node, auth, userId);
  });
}

/** The `node.enroll` operation of a node, in the caller's transaction; its input never holds the secret. */
function startEnrollment(trx: Knex.Transaction, queue: OperationQueue, node: Node, auth: 'private_key' | 'password', userId: number): Promise<Operation> {
  return startOperation(
    trx,
    queue,
    'node.enroll',
    { node_id: node.id, name: node.name, ssh: { host: node.ssh_host, port: node.ssh_port, user: node.ssh_user, auth } },
    {
      teamId: null,
      target: { type: 'node', id: node.id },
      serialKeys: [`node:${node.id}`],
      createdByUserId: userId,
    },
  );
}

/**
 * Nodes with the status they show. `offline`: online or draining, but silent for longer than
 * OFFLINE_AFTER_SECONDS (as shared/domains/nodes/status.ts reads it). `failed`: still enrolling, and
 * its latest enrollment ended without success, whichever way it ended (a step, the deadline sweeper,
 * a cancel); an agent that registers later still turns it online.
 */
function nodesWithStatus(db: Db) {
  return db('nodes as n')
    .joinRaw(
      `LEFT JOIN LATERAL (SELECT o.id, o.status, o.error FROM operations o
        WHERE o.team_id IS NULL AND o.kind = ? AND o.target_type = 'node' AND o.target_id = n.id::text
        ORDER BY o.created_at DESC, o.id DESC LIMIT 1) AS e ON true`,
      [nodeEnroll.kind],
    )
    .select(
      'n.*',
      'e.id as enroll_operation_id',
      'e.status as enroll_status',
      'e.error as enroll_error',
      db.raw(
        `CASE WHEN n.status = 'enrolling' AND e.status IN ('failed', 'cancelled') THEN 'failed'
          WHEN n.status IN ('online', 'draining') AND (n.last_heartbeat_at IS NULL OR n.last_heartbeat_at < now() - make_interval(secs => ?)) THEN 'offline'
          ELSE n.status END AS view_status`,
        [OFFLINE_AFTER_SECONDS],
      ),
    );
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findNode(db: Db, id: string): Promise<NodeRecord> {
  if (!uuidPattern.test(id)) throw new NotFound('No such node');
  const row = await db.from(nodesWithStatus(db).as('v')).where('v.id', id).first();
  if (!row) throw new NotFound('No such node');
  return row as NodeRecord;
}

export type NodeFilters = { status?: NodeView | undefined; region?: string | undefined };

/** Nodes by name; filters apply to the status nodes show (so `offline` and `failed` can be asked for). */
export async function listNodes(db: Db, filters: NodeFilters, page: { page: number; pageSize: number }): Promise<{ nodes: NodeRecord[]; total: number }> {
  const base = db.from(nodesWithStatus(db).as('v')).modify((query) => {
    if (filters.status) query.where('v.view_status', filters.status);
    if (filters.region) query.where('v.region', filters.region);
  });
  const [{ count }] = (await base.clone().count({ count: '*' })) as [{ count: string }];
  const nodes = await base
    .clone()
    .select('v.*')
    .orderBy([{ column: 'v.name' }, { column: 'v.id' }])
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { nodes: nodes as NodeRecord[], total: Number(count) };
}

export type NodeChanges = {
  name?: string | undefined;
  region?: string | undefined;
  publicAddress?: string | undefined;
  /** Replaces the whole capacity object. */
  capacity?: NodeCapacity | undefined;
  status?: 'online' | 'draining' | 'disabled' | undefined;
  /** The host port its edge serves HTTPS on (null: none); its edge is remade with it at the next site operation or reconcile. */
  edgeHttpsPort?: number | null | undefined;
};

/**
 * Edits a node and moves it between the states operators set: online <-> draining (no new sites,
 * the ones it has stay), anything -> disabled (its agent is refused from its next request on: the
 * agent API reads the node on every request), disabled -> online for an enrolled node. Enrollment
 * alone moves a node out of `enrolling`. Commands already queued for a disabled node are left as
 * they are: nobody can fetch them, and they fail by their deadline.
 */
export async function updateNode(db: Db, id: string, changes: NodeChanges): Promise<NodeRecord> {
  const current = await findNode(db, id);
  await db.transaction(async (trx) => {
    const node = (await Node.query(trx).findById(current.id).forUpdate())!;
    const now = new Date();
    const patch: Partial<Node> = {};
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.region !== undefined) patch.region = changes.region;
    if (changes.publicAddress !== undefined) patch.public_address = changes.publicAddress;
    if (changes.capacity !== undefined) patch.capacity = changes.capacity;
    if (changes.edgeHttpsPort !== undefined) {
      if (changes.edgeHttpsPort !== null && changes.edgeHttpsPort === node.edge_http_port)
        throw ValidationFailed.field('edge_https_port', "must differ from the node's HTTP port");
      if (changes.edgeHttpsPort === null && node.edge_https_port !== null) {
        // the edge would lose its certificates while sites' routes still name them: every reload there would fail
        const certificates = await trx('certificates as c').join('environments as e', 'e.id', 'c.environment_id').where('e.node_id', node.id).first('c.id');
        if (certificates) throw new Conflict('Sites on this node have certificates: remove them (or move the sites) before turning HTTPS off');
      }
      patch.edge_https_port = changes.edgeHttpsPort;
    }
    if (changes.status !== undefined && changes.status !== node.status) Object.assign(patch, transition(node, changes.status, now));
    if (Object.keys(patch).length === 0) return;
    await uniqueName(changes.name ?? node.name, () =>
      Node.query(trx)
        .patch({ ...patch, updated_at: now })
        .where({ id: node.id }),
    );
  });
  return findNode(db, id);
}

function transition(node: Node, to: 'online' | 'draining' | 'disabled', now: Date): Partial<Node> {
  if (to === 'disabled') return { status: 'disabled', disabled_at: now, enrollment_token_hash: null, enrollment_expires_at: null };
  if (to === 'draining') {
    if (node.status !== 'online') throw new Conflict(`Only an online node can be drained; this one is ${node.status}`);
    return { status: 'draining' };
  }
  if (node.status === 'draining') return { status: 'online' };
  if (node.status === 'disabled') {
    if (!node.public_key) throw new Conflict('This node was disabled before its agent enrolled; delete it and add it again');
    return { status: 'online', disabled_at: null };
  }
  throw new Conflict(`A node that is ${node.status} turns online by enrolling, not by an edit`);
}

/**
 * Removes a node that holds nothing: no agent command or operation still to finish (sites will
 * count here too). Its finished operations stay readable as history; its agent, if still running,
 * is refused from then on (its key is gone with the row).
 */
export async function deleteNode(db: Db, id: string): Promise<NodeRecord> {
  const current = await findNode(db, id);
  await db.transaction(async (trx) => {
    await Node.query(trx).findById(current.id).forUpdate();
    const [{ commands }] = (await trx('agent_commands')
      .where({ node_id: current.id })
      .whereIn('status', ['pending', 'delivered'])
      .count({ commands: '*' })) as [{ commands: string }];
    const [{ operations }] = (await trx('operations')
      .where({ target_type: 'node', target_id: current.id })
      .whereIn('status', ['queued', 'running'])
      .count({ operations: '*' })) as [{ operations: string }];
    if (Number(commands) > 0 || Number(operations) > 0) {
      throw new Conflict(
        `The node is not empty: ${Number(operations)} unfinished operation(s) and ${Number(commands)} unfinished agent command(s); wait for them, or cancel them, first`,
      );
    }
    await Node.query(trx).deleteById(current.id);
  });
  return current;
}

async function uniqueName<T>(name: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatedConstraint(error, '23505') === 'nodes_name_unique') throw new Conflict(`A node named "${name}" exists already`);
    throw error;
  }
}
