import { SITE_CREATE_KIND, SITE_CREATE_STEPS } from '../../shared/domains/sites/site-plans.ts';
import type { Runbook, RunbookStep, StepContext } from '../operations/runbook.ts';
import { environmentOf, markEnvironment } from './environment-context.ts';
import { configure, container, database, escapeHtml, files, inventory, node_services, route, verify } from './environment-steps.ts';
import { environmentUrl } from './site-runtime.ts';
import { runHelper } from './wordpress-helper.ts';

type CreateInput = { environment_id: number; title: string; admin_user: string; admin_email: string; locale: string };

/** WordPress installed; the admin's one-time password link goes straight to their mailbox, nowhere else. */
async function install(step: StepContext): Promise<unknown> {
  const { environment } = await environmentOf(step);
  const input = step.operation.input as CreateInput;
  const url = environmentUrl(environment);
  const installed = await runHelper(step, 'install', environment, 'install', { title: input.title, admin_user: input.admin_user, admin_email: input.admin_email, locale: input.locale, url }, { secretOutput: true });
  const link = (installed.password_link as { url: string }).url;
  await step.deps.mailer.send({
    to: input.admin_email,
    subject: `Your WordPress site ${input.title} is ready: set your password`,
    text: `Your site ${url}/ is being set up. Set the password of its administrator ${input.admin_user} within 24 hours:\n\n${link}\n\nThen sign in at ${url}/wp-admin/.`,
    html: `<p>Your site <a href="${url}/">${url}/</a> is being set up.</p><p>Set the password of its administrator <b>${escapeHtml(input.admin_user)}</b> within 24 hours: <a href="${link}">set the password</a>.</p>`,
  });
  await step.log(`WordPress ${String(installed.version)} ${installed.created ? 'installed' : 'already installed'}; the password link was mailed to ${input.admin_email}`);
  return { created: installed.created, admin_user: installed.admin_user, url: installed.url, locale: installed.locale, version: installed.version, password_link_mailed_to: input.admin_email };
}

/** The last check passed: the site is live. */
async function verifyAndActivate(step: StepContext): Promise<unknown> {
  const verified = await verify(step);
  await markEnvironment(step.deps, step.operation, 'active');
  return verified;
}

const steps: Record<string, RunbookStep['run']> = { node_services, database, files, container, configure, install, route, inventory, verify: verifyAndActivate };

/** `site.create` (POST /v1/sites): the environment built on its node, step by step, until its front page answers. */
export const siteCreateRunbook: Runbook = {
  kind: SITE_CREATE_KIND,
  steps: SITE_CREATE_STEPS.map((plan) => ({ ...plan, run: steps[plan.name]! })),
  result: (results) => ({ ...(results.verify as Record<string, unknown>), install: results.install, wordpress: results.inventory }),
  onFailed: (deps, operation) => markEnvironment(deps, operation, 'failed'),
};
