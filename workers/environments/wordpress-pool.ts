import { createHash } from 'node:crypto';
import { LABELS } from '../../shared/agent-protocol/commands.ts';
import type { Environment, Node } from '../../shared/db/models.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { StepContext } from '../operations/runbook.ts';
import { agentCommand } from './environment-context.ts';
import { phpImage, SITE_PIDS_LIMIT } from './site-runtime.ts';

/**
 * A node's pool of WordPress trees copied ahead (SITE_WORDPRESS_POOL_SIZE per PHP image): a new
 * site claims one with a rename of its files directory instead of copying WordPress's ~3,000
 * files on its critical path, and its operation copies the next one once the site answers.
 *
 * A tree is written by a throwaway container of the PHP image that mounts that tree alone, runs no
 * php-fpm and is removed once the copy is done; it is never mounted by a site's container before
 * it is claimed, and the rename moves it, so no tree is ever claimed twice or served to two sites.
 * The trees sit outside the node's sites directory, so the edge does not see them.
 */

/** Below the agent's data directory, one folder per PHP image: an image with another WordPress never gets an older tree. */
function poolDir(image: string): string {
  return `wordpress-pool/${createHash('sha256').update(image).digest('hex').slice(0, 16)}`;
}

function slotPath(image: string, slot: number): string {
  return `${poolDir(image)}/slot-${slot}`;
}

/**
 * The environment's files directory from a prepared tree, when the pool has one: the slot it came
 * from, or null (the container's entrypoint then copies WordPress itself). Must run before anything
 * makes the files directory. `missing` lists the slots found empty, for `refillWordpressPool`.
 */
export async function claimWordpressTree(
  step: StepContext,
  stepName: string,
  environment: Environment,
  node: Node,
  phpVersion: string,
): Promise<{ slot: number | null; missing: number[] }> {
  const image = step.deps.config.sites.phpImages[phpVersion];
  // a version without an image fails at the container step, which says so
  const size = image ? step.deps.config.sites.wordpressPoolSize : 0;
  const missing: number[] = [];
  for (let slot = 1; slot <= size; slot += 1) {
    try {
      const claimed = await runAgentCommand(step.deps, {
        ...agentCommand(step, stepName, node.id, `claim-${slot}`),
        kind: 'directory.rename',
        payload: { from: slotPath(image!, slot), to: environmentLayout(environment).filesDir },
      });
      // not renamed: the files directory is there already (a retried step), whatever it holds stays
      return { slot: claimed.renamed ? slot : null, missing };
    } catch {
      // empty (not filled yet, or claimed by another site a moment ago): the next slot, else a copy as before
      missing.push(slot);
    }
  }
  return { slot: null, missing };
}

/**
 * Copies WordPress into each of `slots` (those this operation emptied or found empty) for the
 * node's next sites. Never fails its operation: a tree not made now is a site that copies
 * WordPress itself, as without a pool; what went wrong is logged.
 */
export async function refillWordpressPool(step: StepContext, stepName: string, node: Node, phpVersion: string, slots: number[]): Promise<unknown> {
  if (slots.length === 0) return { refilled: [] };
  const image = phpImage(step.deps.config, phpVersion);
  const refilled: number[] = [];
  for (const slot of slots) {
    try {
      if (await fillSlot(step, stepName, node, image, slot)) refilled.push(slot);
    } catch (error) {
      await step.log(`the WordPress tree for the node's next site (slot ${slot}) was not prepared: ${(error as Error).message}`, 'stderr');
    }
  }
  if (refilled.length > 0) await step.log(`WordPress copied ahead for the node's next site (PHP ${phpVersion}, slot ${refilled.join(', ')})`);
  return { refilled };
}

/** One tree: copied into a fresh directory by a throwaway container, then renamed into its slot (false: filled meanwhile by another operation). */
async function fillSlot(step: StepContext, stepName: string, node: Node, image: string, slot: number): Promise<boolean> {
  const command = (part: string) => agentCommand(step, stepName, node.id, `${part}-${slot}`);
  // the operation's id keeps two operations filling the same slot apart
  const filling = `${poolDir(image)}/filling-${step.operation.id}-${slot}`;
  const name = `${nodeLayout(node.id).network}-wordpress-pool-${step.operation.id.slice(0, 8)}-${slot}`;
  await runAgentCommand(step.deps, {
    ...command('filler'),
    kind: 'container.ensure',
    payload: {
      name,
      image,
      labels: { [LABELS.role]: 'wordpress-pool' },
      network: 'none',
      // the entrypoint copies WordPress into the mount, then this waits to be removed; no php-fpm, no socket, no network
      cmd: ['sleep', '600'],
      mounts: [{ type: 'bind', source: filling, target: WORDPRESS_RUNTIME.docroot }],
      pids_limit: SITE_PIDS_LIMIT,
      no_new_privileges: true,
      cap_drop: ['ALL'],
      cap_add: WORDPRESS_RUNTIME.siteCapabilities,
    },
  });
  try {
    await runAgentCommand(step.deps, { ...command('copy'), kind: 'container.exec', payload: { name, cmd: WORDPRESS_RUNTIME.seedCommand } });
  } finally {
    await runAgentCommand(step.deps, { ...command('filler-remove'), kind: 'container.remove', payload: { name } });
  }
  try {
    await runAgentCommand(step.deps, { ...command('ready'), kind: 'directory.rename', payload: { from: filling, to: slotPath(image, slot) } });
    return true;
  } catch {
    await runAgentCommand(step.deps, { ...command('discard'), kind: 'directory.remove', payload: { path: filling } });
    return false;
  }
}
