import { Node } from '../../shared/db/models.ts';
import { NODE_PING_COMMAND_SECONDS } from '../../shared/domains/nodes/nodes.operations.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook } from '../operations/runbook.ts';

/**
 * `node.ping`: one no-op command to the node's agent. Its checkpoint says who answered and how long
 * the command took from being queued to its result being read here.
 */
export const pingRunbook: Runbook<'node.ping'> = {
  steps: {
    async ping(step) {
      const node = await Node.query(step.deps.db).findById(step.input.node_id).select('id', 'name');
      if (!node) throw new StepFailed('the node was deleted meanwhile', { permanent: true });
      const sent = performance.now();
      const answer = await runAgentCommand(step.deps, {
        operation: step.operation,
        step: 'ping',
        nodeId: node.id,
        kind: 'agent.ping',
        payload: {},
        timeoutSeconds: NODE_PING_COMMAND_SECONDS,
      });
      const roundTripMs = Math.round((performance.now() - sent) * 10) / 10;
      return { node: node.name, agent_version: answer.agent_version, agent_time: answer.agent_time, round_trip_ms: roundTripMs };
    },
  },
};
