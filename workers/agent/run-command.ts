import { AgentCommandRow, Node, type Operation } from '../../shared/db/models.ts';
import { commandKinds, type CommandKind, type CommandOutput, type CommandPayload } from '../../shared/agent-protocol/commands.ts';
import { forgetCommandEnvironment, forgetCommandResult, queueAgentCommand, queueAgentCommandOnce } from '../../shared/domains/agent/agent-commands.ts';
import { signalTopics, type Signals } from '../../shared/domains/agent/signals.ts';
import { nodeStatus } from '../../shared/domains/nodes/status.ts';
import type { Db } from '../../shared/db/knex.ts';
import { StepFailed } from '../operations/runbook.ts';

/** How often a waiting step looks at Postgres itself, in case a signal was lost. */
const POLL_MS = 2_000;

export type AgentCommandRequest<Kind extends CommandKind> = {
  operation: Pick<Operation, 'id'>;
  /** The step issuing it; `part` tells apart several commands of one step. */
  step: string;
  part?: string;
  nodeId: string;
  kind: Kind;
  payload: CommandPayload<Kind>;
  /** How long the node has to finish it, from the first time it is queued. */
  timeoutSeconds: number;
  /**
   * The result holds a secret: the stored copy is dropped once read. The command cannot be reused
   * after that, so the caller names each try apart (the step's attempt in `part`).
   */
  forgetResult?: boolean;
  /**
   * How long the step waits for the outcome, when shorter than `timeoutSeconds`: the command stays
   * queued for the node after the step gave up (a revocation must reach a node that is away).
   */
  waitSeconds?: number;
};

/**
 * `<base>` the first time; after a run that failed (and the step is being retried) `<base>~2`, `~3`...:
 * a fresh id, since the agent's journal would answer the old one with its recorded failure. A run
 * that has not failed (pending, running, succeeded) is reused, so a crash never doubles the work.
 */
async function commandIdFor(db: Db, base: string): Promise<string> {
  const runs = await AgentCommandRow.query(db)
    .where('id', base)
    .orWhere('id', 'like', `${base.replace(/[\\%_]/g, '\\$&')}~%`)
    .select('id', 'status');
  if (runs.length === 0) return base;
  const latest = runs.reduce((a, b) => (runNumber(b.id) > runNumber(a.id) ? b : a));
  return latest.status === 'failed' ? `${base}~${runNumber(latest.id) + 1}` : latest.id;
}

function runNumber(id: string): number {
  const match = /~(\d+)$/.exec(id);
  return match ? Number(match[1]) : 1;
}

/**
 * Has a node run one command and waits for its outcome. The command id is deterministic
 * (`<operation>:<step>[:<part>]`), so a step retried after a worker crash finds the command it
 * queued before — finished, running or still pending — and never queues the work twice.
 */
export async function runAgentCommand<Kind extends CommandKind>(
  deps: { db: Db; signals: Signals },
  request: AgentCommandRequest<Kind>,
): Promise<CommandOutput<Kind>> {
  const base = [request.operation.id, request.step, request.part].filter(Boolean).join(':');
  const payload = commandKinds[request.kind].payload.parse(request.payload);
  const command = (id: string) => ({
    id,
    nodeId: request.nodeId,
    operationId: request.operation.id,
    kind: request.kind,
    payload,
    deadlineAt: new Date(Date.now() + request.timeoutSeconds * 1000),
  });
  // Listening before the command can be taken: a result reported between queueing it (or reading
  // its row) and waiting would otherwise be seen only by the next look at Postgres.
  let id = base;
  let topic = signalTopics.commandFinished(id);
  let armed = armWait(deps.signals, topic, POLL_MS);
  try {
    // the first run of a step's command (the common case) is its base id: queued without a look first
    const queued = await queueAgentCommandOnce(deps, command(base));
    let row = queued.row;
    if (!queued.inserted) {
      id = await commandIdFor(deps.db, base);
      if (id !== base) {
        armed.cancel();
        topic = signalTopics.commandFinished(id);
        armed = armWait(deps.signals, topic, POLL_MS);
        row = await queueAgentCommand(deps, command(id));
      }
    }
    const waitUntil = request.waitSeconds === undefined ? Infinity : Date.now() + request.waitSeconds * 1000;
    while (row.status === 'pending' || row.status === 'delivered') {
      if (Date.now() >= waitUntil && Date.now() < row.deadline_at.getTime()) {
        const node = await Node.query(deps.db).findById(request.nodeId);
        throw new StepFailed(
          `Node ${node?.name ?? request.nodeId} (${node ? nodeStatus(node) : 'gone'}) has not ${row.status === 'pending' ? 'picked up' : 'finished'} ${request.kind} within ${request.waitSeconds} s; it stays queued for the node until ${row.deadline_at.toISOString()}`,
          { permanent: true },
        );
      }
      if (Date.now() >= row.deadline_at.getTime()) {
        await forgetCommandEnvironment(deps.db, id);
        const node = await Node.query(deps.db).findById(request.nodeId);
        const state = node ? nodeStatus(node) : 'gone';
        throw new StepFailed(
          row.status === 'pending'
            ? `Node ${node?.name ?? request.nodeId} (${state}) did not pick up ${request.kind} within ${request.timeoutSeconds} s`
            : `Node ${node?.name ?? request.nodeId} (${state}) did not finish ${request.kind} within ${request.timeoutSeconds} s`,
          { permanent: true },
        );
      }
      await armed.woken;
      armed = armWait(deps.signals, topic, Math.min(POLL_MS, Math.max(0, Math.min(waitUntil, row.deadline_at.getTime()) - Date.now())));
      row = (await AgentCommandRow.query(deps.db).findById(id))!;
    }
    return await outcomeOf(deps.db, request, id, row);
  } finally {
    armed.cancel();
  }
}

/** A wait on `topic` that has started listening already; `cancel` stops it when it is not needed. */
function armWait(signals: Signals, topic: string, ms: number): { woken: Promise<boolean>; cancel(): void } {
  const controller = new AbortController();
  return { woken: signals.wait(topic, ms, controller.signal), cancel: () => controller.abort() };
}

async function outcomeOf<Kind extends CommandKind>(db: Db, request: AgentCommandRequest<Kind>, id: string, row: AgentCommandRow): Promise<CommandOutput<Kind>> {
  if (row.status === 'failed') {
    const error = row.error!;
    throw new StepFailed(error.message, { permanent: error.permanent, exitCode: error.exit_code, stderrTail: error.stderr_tail });
  }
  const parsed = commandKinds[request.kind].result.safeParse(row.result);
  if (request.forgetResult) await forgetCommandResult(db, id);
  if (!parsed.success)
    throw new StepFailed(`The agent answered ${request.kind} with a result this control plane cannot read: ${parsed.error.message}`, { permanent: true });
  return parsed.data as CommandOutput<Kind>;
}
