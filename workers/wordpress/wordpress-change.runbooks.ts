import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import {
  WORDPRESS_CHANGE_SUBJECTS,
  WORDPRESS_HELPER_COMMANDS,
  type PackageChangeKind,
  type PackageInstallKind,
} from '../../shared/domains/wordpress/wordpress.operations.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { agentCommand, environmentOf } from '../environments/environment-context.ts';
import { recordInventory } from '../environments/environment-steps.ts';
import { runHelper } from '../environments/wordpress-helper.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import type { Runbook, StepContext } from '../operations/runbook.ts';

type InstallStep = StepContext<OperationInput<PackageInstallKind>>;
type ChangeStep = StepContext<OperationInput<PackageChangeKind>>;

/** Where an uploaded package waits in the environment's work directory (not served), by upload id. */
function packageName(input: { upload_id: string }): string {
  return `upload-${input.upload_id}.zip`;
}

/** The uploaded zip onto the node, checked against the upload's SHA-256. */
async function fetchPackage(step: InstallStep): Promise<unknown> {
  const { input } = step;
  const { environment, node } = await environmentOf(step);
  const path = `${environmentLayout(environment).workDir}/${packageName(input)}`;
  const fetched = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'fetch', node.id),
    kind: 'files.fetch',
    payload: { upload_id: input.upload_id, sha256: input.sha256, size_bytes: input.size_bytes, path, mode: 0o644 },
  });
  await step.log(`package ${input.upload_id} on the node (${fetched.bytes} bytes)`);
  return { path, bytes: fetched.bytes };
}

/** The helper installs the fetched zip (activating it when asked), then the zip goes. */
async function installPackage(step: InstallStep): Promise<unknown> {
  const { input } = step;
  const helper = WORDPRESS_HELPER_COMMANDS[step.operation.kind as PackageInstallKind];
  const { environment, node } = await environmentOf(step);
  const answer = await runHelper(step, 'apply', environment, helper, {
    zip: `${WORDPRESS_RUNTIME.workDir}/${packageName(input)}`,
    activate: input.activate,
    overwrite: input.overwrite,
  });
  await runAgentCommand(step.deps, {
    ...agentCommand(step, 'apply', node.id, 'forget-package'),
    kind: 'directory.remove',
    payload: { path: `${environmentLayout(environment).workDir}/${packageName(input)}` },
  });
  await step.log(
    `${helper}: ${String(answer.name ?? answer.plugin ?? answer.theme)} ${String(answer.version ?? '')} installed${answer.active ? ' and active' : ''}`,
  );
  return answer;
}

/** The helper (de)activates or deletes the plugin or theme the input names. */
async function changePackage(step: ChangeStep): Promise<unknown> {
  const kind = step.operation.kind as PackageChangeKind;
  const [helper, subject] = [WORDPRESS_HELPER_COMMANDS[kind], WORDPRESS_CHANGE_SUBJECTS[kind]];
  const name = 'plugin' in step.input ? step.input.plugin : step.input.theme;
  const { environment } = await environmentOf(step);
  const answer = await runHelper(step, 'apply', environment, helper, { [subject]: name });
  await step.log(`${helper} ${name}: ${JSON.stringify(answer)}`);
  return answer;
}

const result = (results: Readonly<Record<string, unknown>>) => ({ ...(results.apply ? { change: results.apply } : {}), wordpress: results.inventory });

/** `wordpress.refresh`: the inventory read again. */
export const wordpressRefreshRunbook: Runbook<'wordpress.refresh'> = { steps: { inventory: recordInventory }, result };

/** `wordpress.plugin_install` and `wordpress.theme_install`: an uploaded zip fetched and installed. */
export const packageInstallRunbook: Runbook<PackageInstallKind> = {
  steps: { fetch: fetchPackage, apply: installPackage, inventory: recordInventory, purge_cache: purgePageCache },
  result,
};

/** Activating, deactivating or deleting a plugin or theme. */
export const packageChangeRunbook: Runbook<PackageChangeKind> = {
  steps: { apply: changePackage, inventory: recordInventory, purge_cache: purgePageCache },
  result,
};
