import { Environment } from '../../shared/db/models.ts';
import type { EnvironmentDomainsInput } from '../../shared/domains/site-domains/site-domains.operations.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import { environmentOf } from '../environments/environment-context.ts';
import { routeEdge, writeConfig } from '../environments/environment-steps.ts';
import { urlSchemeStep } from '../edge/url-scheme.ts';
import { describeProbe, probeEdge, probeTarget, type EdgeAnswer } from '../edge/edge-probe.ts';
import { environmentUrl, siteHost } from '../environments/site-runtime.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import { runHelper } from '../environments/wordpress-helper.ts';

const VERIFY_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type DomainsStep = StepContext<EnvironmentDomainsInput>;

/** The move of the primary host, from what is recorded now (or, on a retry after it was recorded, from the operation's input). */
function primaryMove(step: DomainsStep, environment: Environment): { from: string; to: string } | null {
  const { primary_from: plannedFrom, primary_to: to } = step.input;
  if (to === undefined) return null;
  const now = siteHost(environment);
  return { from: now === to ? (plannedFrom ?? now) : now, to };
}

/** The new primary host recorded on the environment (null for the default address), so every later step uses it. */
async function recordPrimary(step: DomainsStep): Promise<unknown> {
  const { environment } = await environmentOf(step);
  const move = primaryMove(step, environment);
  if (!move) return { skipped: true };
  if (move.to !== environment.domain && !((await verifiedDomains(step.deps.db, [environment.id])).get(environment.id) ?? []).includes(move.to)) {
    // removed (or taken elsewhere) while this operation waited: the site stays where it is
    throw new StepFailed(`${move.to} is no longer a verified domain of this environment; the primary address stays ${move.from}`, { permanent: true });
  }
  await Environment.query(step.deps.db)
    .patch({ primary_domain: move.to === environment.domain ? null : move.to, updated_at: new Date() })
    .where({ id: environment.id });
  await step.log(`primary address: ${move.from} → ${move.to}`);
  return move;
}

/** wp-config.php written again for the new primary (WP_HOME, WP_SITEURL). */
async function configureWhenMoved(step: DomainsStep): Promise<unknown> {
  return step.input.primary_to === undefined ? { skipped: true } : writeConfig(step);
}

/** Every mention of the old primary in the database becomes the new one (serialized data kept valid). */
async function rewritePrimaryUrls(step: DomainsStep): Promise<unknown> {
  const move = step.results.primary as { from: string; to: string } | { skipped: true } | undefined;
  if (!move || 'skipped' in move || move.from === move.to) return { skipped: true };
  const { environment } = await environmentOf(step);
  const replaced = await runHelper(step, 'rewrite_urls', environment, 'search-replace', { old: `//${move.from}`, new: `//${move.to}`, json_escaped: true });
  await step.log(
    `${move.from} → ${move.to}: ${String(replaced.cells_changed)} values in ${String(replaced.rows_changed)} rows (${String(replaced.serialized_values)} serialized)`,
  );
  return { ...move, rows_changed: replaced.rows_changed, cells_changed: replaced.cells_changed };
}

/**
 * The primary host answers with the site (200); every other verified domain sends the visitor to
 * it (the edge's redirect), never the edge's answer for a host it does not know.
 */
async function verifyDomains(step: DomainsStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const domains = [...new Set([siteHost(environment), ...((await verifiedDomains(step.deps.db, [environment.id])).get(environment.id) ?? [])])];
  const home = environmentUrl(environment);
  const answers: Record<string, number> = {};
  for (const domain of domains) {
    const deadline = Date.now() + VERIFY_TIMEOUT_MS;
    const isPrimary = domain === siteHost(environment);
    // the primary over the scheme WordPress uses; the others as a visitor typing them would, over HTTP
    const target = probeTarget(node, isPrimary ? environment.url_scheme : 'http');
    // the primary answers with pages that link to it: PHP may hold the old wp-config.php for its opcache's revalidation time (2 s)
    const served = (answer: EdgeAnswer) =>
      isPrimary
        ? answer.status === 200 && answer.body.includes(`//${domain}/`)
        : [301, 302].includes(answer.status) && (answer.location ?? '').startsWith(`${home}/`);
    let answer: EdgeAnswer | { error: string };
    for (;;) {
      answer = await probeEdge(target, { host: domain, environment, secretKey: step.deps.secretKey }).catch((error: Error) => ({ error: error.message }));
      if (('status' in answer && served(answer)) || Date.now() > deadline) break;
      await sleep(250);
    }
    const where = describeProbe(target, domain);
    if (!('status' in answer)) throw new StepFailed(`${where} did not answer: ${answer.error}`);
    if (!served(answer)) {
      const what = isPrimary ? `the site with links to ${domain}` : `a redirect to ${home}/`;
      throw new StepFailed(`${where} answered ${answer.status}${answer.location ? ` (to ${answer.location})` : ''}, not ${what}`);
    }
    answers[domain] = answer.status;
  }
  await step.log(
    domains.length === 0 ? 'no custom domains on the edge' : `the edge serves ${domains.map((domain) => `${domain} (${answers[domain]})`).join(', ')}`,
  );
  return { domains: answers };
}

/** `environment.domains`: the environment's edge route rewritten with its verified domains, then checked. */
export const environmentDomainsRunbook: Runbook<'environment.domains'> = {
  steps: {
    primary: recordPrimary,
    route: routeEdge,
    configure: configureWhenMoved,
    rewrite_urls: rewritePrimaryUrls,
    scheme: urlSchemeStep('scheme'),
    verify_domains: verifyDomains,
    purge_cache: purgePageCache,
  },
  result: (results) => ({ ...(results.route as Record<string, unknown>), ...(results.verify_domains as Record<string, unknown>), urls: results.rewrite_urls }),
};
