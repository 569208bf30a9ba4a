import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { readInventory } from '../../shared/domains/wordpress/inventory.ts';
import { environmentOf, markEnvironment } from '../environments/environment-context.ts';
import {
  createDatabase,
  ensureContainer,
  escapeHtml,
  prepareFiles,
  prepareNodeServices,
  recordInventory,
  recordInventoryAnswer,
  routeEdge,
  verifyFrontPage,
  writeConfig,
} from '../environments/environment-steps.ts';
import { environmentUrl } from '../environments/site-runtime.ts';
import { runHelper } from '../environments/wordpress-helper.ts';
import { claimWordpressTree, refillWordpressPool } from '../environments/wordpress-pool.ts';
import type { Runbook, StepContext } from '../operations/runbook.ts';

/** WordPress installed; the admin's one-time password link goes straight to their mailbox, nowhere else. */
async function installWordpress(step: StepContext<OperationInput<'site.create'>>): Promise<unknown> {
  const { input } = step;
  const { environment } = await environmentOf(step);
  const url = environmentUrl(environment);
  const installed = await runHelper(
    step,
    'install',
    environment,
    'install',
    { title: input.title, admin_user: input.admin_user, admin_email: input.admin_email, locale: input.locale, url },
    { secretOutput: true },
  );
  const link = (installed.password_link as { url: string }).url;
  await step.deps.mailer.send({
    to: input.admin_email,
    subject: `Your WordPress site ${input.title} is ready: set your password`,
    text: `Your site ${url}/ is being set up. Set the password of its administrator ${input.admin_user} within 24 hours:\n\n${link}\n\nThen sign in at ${url}/wp-admin/.`,
    html: `<p>Your site <a href="${url}/">${url}/</a> is being set up.</p><p>Set the password of its administrator <b>${escapeHtml(input.admin_user)}</b> within 24 hours: <a href="${link}">set the password</a>.</p>`,
  });
  await step.log(
    `WordPress ${String(installed.version)} ${installed.created ? 'installed' : 'already installed'}; the password link was mailed to ${input.admin_email}`,
  );
  // the same run read what WordPress runs now: kept (checked, as the inventory step would) for that step
  const inventory = readInventory(installed.inventory);
  return {
    created: installed.created,
    admin_user: installed.admin_user,
    url: installed.url,
    locale: installed.locale,
    version: installed.version,
    password_link_mailed_to: input.admin_email,
    ...('inventory' in inventory ? { inventory: inventory.inventory } : {}),
  };
}

/** What the install read is recorded without loading WordPress again; a checkpoint without it (an older one) asks the helper. */
async function recordInstalledInventory(step: StepContext<OperationInput<'site.create'>>): Promise<unknown> {
  const installed = (step.results.install as { inventory?: unknown } | undefined)?.inventory;
  if (installed === undefined) return recordInventory(step);
  const { environment } = await environmentOf(step);
  return recordInventoryAnswer(step, environment, installed);
}

/**
 * The container (PHP-FPM started, WordPress copied into the files) while the node's MariaDB makes
 * the environment's database, which needs nothing of the container: the database step's node
 * command starts here, and that step collects its outcome (the command's id is the operation's and
 * the step's, so it runs once). A failure is left to the database step to report and retry, with
 * a fresh command.
 */
async function startContainer(step: StepContext<OperationInput<'site.create'>>): Promise<unknown> {
  const quiet = { ...step, log: async () => {} };
  const [container] = await Promise.all([ensureContainer(step), createDatabase(quiet).catch(() => undefined)]);
  return container;
}

/** The files directory from a WordPress tree copied ahead when the node's pool has one, then as every environment's. */
async function claimOrPrepareFiles(step: StepContext<OperationInput<'site.create'>>): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const tree = await claimWordpressTree(step, 'files', environment, node, environment.php_version);
  const prepared = (await prepareFiles(step)) as Record<string, unknown>;
  if (tree.slot !== null) await step.log(`WordPress files from the tree copied ahead (slot ${tree.slot})`);
  return { ...prepared, prepared_tree: tree.slot, empty_slots: tree.missing };
}

/** After the site answers: the node's pool gets back the tree this site took (or found missing), for the next site. */
async function refillPool(step: StepContext<OperationInput<'site.create'>>): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const files = step.results.files as { prepared_tree?: number | null; empty_slots?: number[] } | undefined;
  const slots = [...(files?.prepared_tree ? [files.prepared_tree] : []), ...(files?.empty_slots ?? [])];
  return refillWordpressPool(step, 'pool', node, environment.php_version, slots);
}

/** The last check passed: the site is live. */
async function verifyAndActivate(step: StepContext<{ environment_id: number }>): Promise<unknown> {
  const verified = await verifyFrontPage(step);
  await markEnvironment(step.deps, step.input.environment_id, 'active');
  return verified;
}

/** `site.create` (POST /v1/sites): the environment built on its node, step by step, until its front page answers. */
export const siteCreateRunbook: Runbook<'site.create'> = {
  steps: {
    node_services: prepareNodeServices,
    files: claimOrPrepareFiles,
    container: startContainer,
    database: createDatabase,
    configure: writeConfig,
    install: installWordpress,
    route: routeEdge,
    inventory: recordInstalledInventory,
    verify: verifyAndActivate,
    pool: refillPool,
  },
  result: (results) => {
    const { inventory: _read, ...install } = (results.install ?? {}) as Record<string, unknown>;
    return { ...(results.verify as Record<string, unknown>), install, wordpress: results.inventory };
  },
  onFailed: (deps, _operation, input) => markEnvironment(deps, input.environment_id, 'failed'),
};
