import { ENVIRONMENT_DOMAINS_KIND, ENVIRONMENT_DOMAINS_STEPS } from '../../shared/domains/site-domains/domain-plans.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { StepFailed, type Runbook, type RunbookStep, type StepContext } from '../operations/runbook.ts';
import { environmentOf } from './environment-context.ts';
import { getThroughEdge, route } from './environment-steps.ts';
import { environmentUrl } from './site-runtime.ts';

const VERIFY_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each verified domain reaches the site through the edge: the site answers (200), or WordPress
 * sends the visitor to the site's address (a redirect to it), never the edge's answer for a host
 * it does not know.
 */
async function verify_domains(step: StepContext): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const domains = (await verifiedDomains(step.deps.db, [environment.id])).get(environment.id) ?? [];
  const address = node.public_address ?? node.ssh_host;
  const home = environmentUrl(environment);
  const answers: Record<string, number> = {};
  for (const domain of domains) {
    const deadline = Date.now() + VERIFY_TIMEOUT_MS;
    let answer: { status: number; location?: string | undefined } | { error: string };
    for (;;) {
      answer = await getThroughEdge(address, node.edge_http_port, domain).catch((error: Error) => ({ error: error.message }));
      if (('status' in answer && answer.status !== 502 && answer.status !== 504) || Date.now() > deadline) break;
      await sleep(250);
    }
    const where = `http://${address}:${node.edge_http_port}/ (Host: ${domain})`;
    if (!('status' in answer)) throw new StepFailed(`${where} did not answer: ${answer.error}`);
    const served = answer.status === 200 || ([301, 302].includes(answer.status) && (answer.location ?? '').startsWith(home));
    if (!served) throw new StepFailed(`${where} answered ${answer.status}${answer.location ? ` (to ${answer.location})` : ''}: the edge does not serve the site there`);
    answers[domain] = answer.status;
  }
  await step.log(domains.length === 0 ? 'no custom domains on the edge' : `the edge serves ${domains.map((domain) => `${domain} (${answers[domain]})`).join(', ')}`);
  return { domains: answers };
}

const run: Record<string, RunbookStep['run']> = { route, verify_domains };

/** `environment.domains`: the environment's edge route rewritten with its verified domains, then checked. */
export const environmentDomainsRunbook: Runbook = {
  kind: ENVIRONMENT_DOMAINS_KIND,
  steps: ENVIRONMENT_DOMAINS_STEPS.map((plan) => ({ ...plan, run: run[plan.name]! })),
  result: (results) => ({ ...(results.route as Record<string, unknown>), ...(results.verify_domains as Record<string, unknown>) }),
};
