import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { environmentOf, markEnvironment } from '../environments/environment-context.ts';
import {
  createDatabase,
  ensureContainer,
  escapeHtml,
  prepareFiles,
  prepareNodeServices,
  recordInventory,
  routeEdge,
  verifyFrontPage,
  writeConfig,
} from '../environments/environment-steps.ts';
import { environmentUrl } from '../environments/site-runtime.ts';
import { runHelper } from '../environments/wordpress-helper.ts';
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
  return {
    created: installed.created,
    admin_user: installed.admin_user,
    url: installed.url,
    locale: installed.locale,
    version: installed.version,
    password_link_mailed_to: input.admin_email,
  };
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
    database: createDatabase,
    files: prepareFiles,
    container: ensureContainer,
    configure: writeConfig,
    install: installWordpress,
    route: routeEdge,
    inventory: recordInventory,
    verify: verifyAndActivate,
  },
  result: (results) => ({ ...(results.verify as Record<string, unknown>), install: results.install, wordpress: results.inventory }),
  onFailed: (deps, _operation, input) => markEnvironment(deps, input.environment_id, 'failed'),
};
