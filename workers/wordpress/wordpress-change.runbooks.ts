import { WORDPRESS_CHANGES, type WordpressChange } from '../../shared/domains/wordpress/wordpress-plans.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { Runbook, RunbookStep, StepContext } from '../operations/runbook.ts';
import { agentCommand, environmentOf } from '../sites/environment-context.ts';
import { inventory } from '../sites/environment-steps.ts';
import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import { runHelper } from '../sites/wordpress-helper.ts';

/** The input of a WordPress change (planned by api/v1/wordpress.routes.ts). */
type ChangeInput = {
  plugin?: string;
  theme?: string;
  upload_id?: string;
  sha256?: string;
  size_bytes?: number;
  activate?: boolean;
  overwrite?: boolean;
};

/** Where an uploaded package waits in the environment's work directory (not served), by upload id. */
function packageName(input: ChangeInput): string {
  return `upload-${input.upload_id}.zip`;
}

/** The uploaded zip onto the node, checked against the upload's SHA-256. */
async function fetch(step: StepContext): Promise<unknown> {
  const input = step.operation.input as ChangeInput;
  const { environment, node } = await environmentOf(step);
  const path = `${environmentLayout(environment).workDir}/${packageName(input)}`;
  const fetched = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'fetch', node.id),
    kind: 'files.fetch',
    payload: { upload_id: input.upload_id!, sha256: input.sha256!, size_bytes: input.size_bytes!, path, mode: 0o644 },
  });
  await step.log(`package ${input.upload_id} on the node (${fetched.bytes} bytes)`);
  return { path, bytes: fetched.bytes };
}

function apply(change: WordpressChange): RunbookStep['run'] {
  return async (step) => {
    const input = step.operation.input as ChangeInput;
    const { environment, node } = await environmentOf(step);
    if (change.upload) {
      const answer = await runHelper(step, 'apply', environment, change.helper!, { zip: `${WORDPRESS_RUNTIME.workDir}/${packageName(input)}`, activate: input.activate ?? false, overwrite: input.overwrite ?? false });
      await runAgentCommand(step.deps, { ...agentCommand(step, 'apply', node.id, 'forget-package'), kind: 'directory.remove', payload: { path: `${environmentLayout(environment).workDir}/${packageName(input)}` } });
      await step.log(`${change.helper}: ${String(answer.name ?? answer.plugin ?? answer.theme)} ${String(answer.version ?? '')} installed${answer.active ? ' and active' : ''}`);
      return answer;
    }
    const subject = change.subject!;
    const answer = await runHelper(step, 'apply', environment, change.helper!, { [subject]: input[subject] });
    await step.log(`${change.helper} ${String(input[subject])}: ${JSON.stringify(answer)}`);
    return answer;
  };
}

function changeRunbook(change: WordpressChange): Runbook {
  const steps: Record<string, RunbookStep['run']> = { fetch, inventory, ...(change.helper ? { apply: apply(change) } : {}) };
  return {
    kind: change.kind,
    steps: change.steps.map((plan) => ({ ...plan, run: steps[plan.name]! })),
    result: (results) => ({ ...(results.apply ? { change: results.apply } : {}), wordpress: results.inventory }),
  };
}

/** One runbook per change of shared/domains/wordpress/wordpress-plans.ts. */
export const wordpressRunbooks: Runbook[] = Object.values(WORDPRESS_CHANGES).map(changeRunbook);
