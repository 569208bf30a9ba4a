import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { AgentCommandRow } from '../../db/models.ts';
import { COMMAND_LEASE_SECONDS, type AgentCommand, type CommandResult } from '../../agent-protocol/protocol.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { signalTopics, type Signals } from './signals.ts';

type Deps = { db: Db; signals: Signals };

/**
 * A report (progress or result) for a command of this node that is not leased to it now: still
 * pending (never delivered, so the agent cannot have run it), or for progress, already ended. An
 * agent reports only on what it was handed, so anything else is refused rather than recorded.
 */
export class CommandNotLeased extends Conflict {
  readonly status: string;
  constructor(commandId: string, status: string) {
    super(
      status === 'pending'
        ? `Command ${commandId} has not been delivered to this node yet: report only on commands taken from GET /v1/agent/commands`
        : `Command ${commandId} already ${status}: it takes no more progress`,
    );
    this.status = status;
  }
}

export type NewAgentCommand = { id: string; nodeId: string; operationId: string | null; kind: string; payload: unknown; deadlineAt: Date };

/**
 * Queues a command for a node. The id is deterministic, so queueing the same command again (a
 * retried step) finds the first one, finished or not, instead of running the work twice.
 */
export async function queueAgentCommand(deps: Deps, command: NewAgentCommand): Promise<AgentCommandRow> {
  return (await queueAgentCommandOnce(deps, command)).row;
}

/** queueAgentCommand, saying whether this call made the row (`inserted`) or found one queued before. */
export async function queueAgentCommandOnce(deps: Deps, command: NewAgentCommand): Promise<{ row: AgentCommandRow; inserted: boolean }> {
  const [inserted] = (await deps.db('agent_commands').insert(commandRow(command)).onConflict('id').ignore().returning('*')) as Array<Record<string, unknown>>;
  // a new row is read back by the insert itself; only one queued before is looked up
  const row = inserted ? AgentCommandRow.fromDatabaseJson(inserted) : (await AgentCommandRow.query(deps.db).findById(command.id))!;
  if (row.node_id !== command.nodeId || row.kind !== command.kind) throw new Conflict(`agent command ${command.id} already exists for another node or kind`);
  if (row.status === 'pending') await deps.signals.publish(signalTopics.nodeHasWork(command.nodeId));
  return { row, inserted: inserted !== undefined };
}

/**
 * The command's row, in the caller's transaction when it must exist with another change (a
 * revocation the node must hear even if the operation carrying it fails); the caller wakes the node
 * (`signalTopics.nodeHasWork`) after commit. A command with that id already is left as it is.
 */
export async function insertAgentCommand(db: Db | Knex.Transaction, command: NewAgentCommand): Promise<void> {
  await db('agent_commands').insert(commandRow(command)).onConflict('id').ignore();
}

function commandRow(command: NewAgentCommand) {
  return {
    id: command.id,
    node_id: command.nodeId,
    operation_id: command.operationId,
    kind: command.kind,
    payload: JSON.stringify(command.payload ?? {}),
    deadline_at: command.deadlineAt,
  };
}

/**
 * Withdraws a command the node has not taken yet (a download whose caller went away: its payload
 * holds a repository password that should not wait in the table). One it took finishes as it will.
 */
export async function withdrawPendingCommand(db: Db, commandId: string): Promise<boolean> {
  return (await db('agent_commands').where({ id: commandId, status: 'pending' }).delete()) > 0;
}

/**
 * Hands the node its next commands: pending ones, and delivered ones whose lease ran out (the agent
 * died or lost the answer). SKIP LOCKED lets two long-polls of one node never take the same command.
 */
export async function claimCommands(db: Db, nodeId: string, limit: number): Promise<AgentCommand[]> {
  const rows = (await db.raw(
    `UPDATE agent_commands SET status = 'delivered', deliveries = deliveries + 1, delivered_at = now(),
            lease_until = now() + make_interval(secs => ?)
      WHERE id IN (
        SELECT id FROM agent_commands
         WHERE node_id = ? AND deadline_at > now()
           AND (status = 'pending' OR (status = 'delivered' AND lease_until < now()))
         ORDER BY created_at, id
         LIMIT ? FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, payload, deadline_at, deliveries, created_at`,
    [COMMAND_LEASE_SECONDS, nodeId, limit],
  )) as { rows: Array<{ id: string; kind: string; payload: unknown; deadline_at: Date; deliveries: number; created_at: Date }> };
  return rows.rows
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
    .map((row) => ({ id: row.id, kind: row.kind, payload: row.payload, deadline_at: row.deadline_at.toISOString(), delivery: row.deliveries }));
}

/** A command of this node, or 404: one node's credentials never reach another node's commands. */
async function commandOfNode(db: Db, nodeId: string, commandId: string): Promise<AgentCommandRow> {
  const row = await AgentCommandRow.query(db).findById(commandId);
  if (!row || row.node_id !== nodeId) throw new NotFound('No such command for this node');
  return row;
}

/**
 * Log lines and progress from a running command: the lease is renewed, the lines join the operation's
 * log. Only while the command is delivered to this node (CommandNotLeased otherwise).
 */
export async function recordProgress(
  db: Db,
  nodeId: string,
  commandId: string,
  logs: Array<{ stream: 'info' | 'stdout' | 'stderr'; line: string }>,
): Promise<void> {
  const row = await commandOfNode(db, nodeId, commandId);
  if (row.status !== 'delivered') throw new CommandNotLeased(commandId, row.status);
  await renewLeases(db, nodeId, [commandId]);
  if (row.operation_id && logs.length > 0) {
    const step = stepOf(row);
    const hidden = hiddenValuesOf(row.payload);
    await db('operation_logs').insert(logs.map((log) => ({ operation_id: row.operation_id, step, stream: log.stream, line: hide(log.line, hidden) })));
  }
}

/** Exec environment variables whose values a team must not read in its operation's log (secrets, the platform's stores). */
const HIDDEN_ENV = /PASSWORD|SECRET|TOKEN|KEY|REPOSITORY|ENDPOINT|^AWS_/;

/** The values (and, for URLs, their hosts) that the command's own output must not carry into the log. */
function hiddenValuesOf(payload: unknown): string[] {
  const env = (payload as { env?: unknown } | null)?.env;
  if (!env || typeof env !== 'object') return [];
  const values = Object.entries(env as Record<string, unknown>)
    .filter((entry): entry is [string, string] => HIDDEN_ENV.test(entry[0]) && typeof entry[1] === 'string' && entry[1].length >= 6 && entry[1] !== FORGOTTEN)
    .flatMap(([, value]) => {
      const url = /^(?:s3:)?(https?:\/\/[^/\s]+)/.exec(value)?.[1];
      return url ? [value, url, new URL(url).host, new URL(url).hostname] : [value];
    });
  return [...new Set(values)].filter((value) => value.length >= 6).sort((a, b) => b.length - a.length);
}

function hide(line: string, hidden: readonly string[]): string {
  return hidden.reduce((shown, value) => shown.split(value).join('<hidden>'), line);
}

export async function renewLeases(db: Db, nodeId: string, commandIds: readonly string[]): Promise<void> {
  if (commandIds.length === 0) return;
  await db('agent_commands')
    .where({ node_id: nodeId, status: 'delivered' })
    .whereIn('id', commandIds)
    .update({ lease_until: db.raw('now() + make_interval(secs => ?)', [COMMAND_LEASE_SECONDS]) });
}

/**
 * The outcome of a command, reported once, by the node it is delivered to: a pending command (never
 * leased, so never run) is refused (CommandNotLeased). A repeat of the same outcome (the agent did
 * not get the first answer) is accepted again; a different outcome for a finished command is a
 * conflict. A redelivered command is `delivered` again (claimCommands), so an agent that finds it in
 * its journal reports the recorded outcome as usual.
 */
export async function recordResult(deps: Deps, nodeId: string, commandId: string, outcome: CommandResult): Promise<AgentCommandRow> {
  const updated = await deps.db.transaction(async (trx) => {
    const row = await AgentCommandRow.query(trx).findById(commandId).forUpdate();
    if (!row || row.node_id !== nodeId) throw new NotFound('No such command for this node');
    if (row.status === 'succeeded' || row.status === 'failed') {
      if (row.status !== outcome.status) throw new Conflict(`The command already ${row.status}`);
      return row;
    }
    if (row.status !== 'delivered') throw new CommandNotLeased(commandId, row.status);
    const [ended] = await AgentCommandRow.query(trx)
      .patch({
        status: outcome.status,
        finished_at: new Date(),
        lease_until: null,
        ...(outcome.status === 'succeeded' ? { result: JSON.stringify(outcome.result ?? null) as never } : { error: outcome.error }),
      })
      .where({ id: commandId })
      .returning('*');
    // most commands carry nothing to forget: their payload, read above, says so without a round trip
    if (!holdsSecrets(row)) return ended!;
    await forgetCommandEnvironment(trx, commandId);
    return (await AgentCommandRow.query(trx).findById(commandId))!;
  });
  await deps.signals.publish(signalTopics.commandFinished(commandId));
  return updated;
}

/** Whether forgetCommandEnvironment has anything to drop from this command's payload. */
function holdsSecrets(row: Pick<AgentCommandRow, 'kind' | 'payload'>): boolean {
  const payload = row.payload as { env?: unknown; files?: unknown; users?: unknown } | null;
  if (!payload || typeof payload !== 'object') return false;
  if (payload.env !== null && typeof payload.env === 'object' && !Array.isArray(payload.env)) return true;
  if (Array.isArray(payload.files) && payload.files.some((file) => (file as { secret?: unknown } | null)?.secret === true)) return true;
  return (row.kind === 'sftp.users.put' || row.kind === 'sftp.users.sync') && Array.isArray(payload.users);
}

/** The placeholder of a value the control plane no longer keeps. */
export const FORGOTTEN = '[forgotten]';

/**
 * An exec's environment is where a step puts what must not be in a command line (a database
 * password, the helper's input): once the command has ended nobody needs it again (a finished
 * command is never delivered again), so its values are dropped from the stored payload.
 */
export async function forgetCommandEnvironment(db: Db | Knex.Transaction, commandId: string): Promise<void> {
  await db('agent_commands')
    .where({ id: commandId })
    .whereRaw("jsonb_typeof(payload->'env') = 'object'")
    .update({
      payload: db.raw(
        `payload || jsonb_build_object('env', (SELECT coalesce(jsonb_object_agg(key, to_jsonb(?::text)), '{}'::jsonb) FROM jsonb_object_keys(payload->'env') AS key))`,
        [FORGOTTEN],
      ),
    });
  // files.put's secret files (a certificate's private key) likewise
  await db('agent_commands')
    .where({ id: commandId })
    .whereRaw(`payload->'files' @> '[{"secret": true}]'::jsonb`)
    .update({
      payload: db.raw(
        `jsonb_set(payload, '{files}', (SELECT jsonb_agg(CASE WHEN file->>'secret' = 'true' THEN file || jsonb_build_object('content_base64', ?::text) ELSE file END) FROM jsonb_array_elements(payload->'files') AS file))`,
        [FORGOTTEN],
      ),
    });
  // sftp.users.put's and .sync's password hashes: a hash is not a password, but nobody needs this copy again
  await db('agent_commands')
    .where({ id: commandId })
    .whereIn('kind', ['sftp.users.put', 'sftp.users.sync'])
    // a sync may carry no user at all (jsonb_agg of nothing is null, and so would the payload be)
    .whereRaw("jsonb_typeof(payload->'users') = 'array'")
    .update({
      payload: db.raw(
        `jsonb_set(payload, '{users}', (SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(u->'password_hash') = 'string' THEN u || jsonb_build_object('password_hash', ?::text) ELSE u END), '[]'::jsonb) FROM jsonb_array_elements(payload->'users') AS u))`,
        [FORGOTTEN],
      ),
    });
}

/** A result that held a secret (a password link read back from a node), dropped once the step has it. */
export async function forgetCommandResult(db: Db, commandId: string): Promise<void> {
  await db('agent_commands')
    .where({ id: commandId })
    .update({ result: JSON.stringify(FORGOTTEN) });
}

/** `<operation id>:<step>[:<part>][~<run>]` → the step, for the operation's log. */
function stepOf(row: AgentCommandRow): string | null {
  if (!row.operation_id || !row.id.startsWith(`${row.operation_id}:`)) return null;
  return (
    row.id
      .slice(row.operation_id.length + 1)
      .split(':')[0]
      ?.replace(/~\d+$/, '') ?? null
  );
}
