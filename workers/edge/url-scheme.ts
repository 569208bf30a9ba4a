import { setTimeout as sleep } from 'node:timers/promises';
import { Environment, type Node } from '../../shared/db/models.ts';
import { httpsState } from '../../shared/domains/edge/edge-settings.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';
import { environmentOf } from '../environments/environment-context.ts';
import { writeWordpressConfig } from '../environments/environment-steps.ts';
import { siteHost } from '../environments/site-runtime.ts';
import { runHelper } from '../environments/wordpress-helper.ts';
import { servedCertificate, writeEdgeRoute } from './edge-route.ts';
import { describeProbe, probeEdge, probeTarget } from './edge-probe.ts';

const SETTLE_TIMEOUT_MS = 30_000;

/**
 * The search-replace pairs that carry a copy's links (a push, a new environment, a restored backup)
 * from `from` to `to`: `<fromScheme>://from` into the target's scheme first when the two differ
 * (a copy of an https production on an http staging links to http, and back), then any other
 * `//from` (the scheme a link had is kept).
 */
export function addressPairs(from: string, to: string, schemes: { from?: 'http' | 'https' | undefined; to: 'http' | 'https' }): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (schemes.from && schemes.from !== schemes.to) pairs.push([`${schemes.from}://${from}`, `${schemes.to}://${to}`]);
  if (from !== to) pairs.push([`//${from}`, `//${to}`]);
  return pairs;
}

type SchemeStep = StepContext<{ environment_id: number }>;

/**
 * WordPress's URLs moved to the scheme the environment's settings want: https when HTTPS is forced
 * (the default) and an installed certificate covers its address, else http. Turning it on:
 * wp-config.php's WP_HOME/WP_SITEURL, then every `http://<name>` of the environment in the
 * database (serialized data kept valid), recorded, and only then the edge's redirect and HSTS.
 * Turning it off: the redirect stops first, then WordPress moves back, so nobody is bounced between
 * schemes. The scheme is recorded only once WordPress moved, so a step that dies half-way does it
 * all again (each part is idempotent).
 */
export function urlSchemeStep(stepName: string) {
  return (step: SchemeStep): Promise<unknown> => applyUrlScheme(step, stepName);
}

async function applyUrlScheme(step: SchemeStep, stepName: string): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const certificate = await servedCertificate(step.deps, node, environment.id);
  const state = httpsState(environment, certificate);
  const to = state.wanted_scheme;
  if (to === environment.url_scheme) {
    await step.log(`WordPress's URLs stay ${to}://${siteHost(environment)}${why(state)}`);
    return { url_scheme: to, changed: false };
  }
  const from = environment.url_scheme;
  const moved = { ...environment, url_scheme: to } as Environment;
  const at = { operation: step.operation, step: stepName };
  // back to http: the redirect goes first (the route as it will be)
  if (to === 'http') await writeEdgeRoute(step.deps, { ...at, part: 'unforce' }, moved, node, certificate);
  await writeWordpressConfig(step, stepName, environment, node, to);
  const names = [
    ...new Set([siteHost(environment), environment.domain, ...((await verifiedDomains(step.deps.db, [environment.id])).get(environment.id) ?? [])]),
  ];
  const replaced = await runHelper(step, stepName, environment, 'search-replace', {
    pairs: names.map((name) => [`${from}://${name}`, `${to}://${name}`]),
    json_escaped: true,
  });
  await Environment.query(step.deps.db).patch({ url_scheme: to, updated_at: new Date() }).where({ id: environment.id });
  await step.log(
    `WordPress's URLs moved ${from} → ${to} (${names.join(', ')}): ${String(replaced.cells_changed)} values in ${String(replaced.rows_changed)} rows`,
  );
  if (to === 'https') await writeEdgeRoute(step.deps, { ...at, part: 'force' }, moved, node, certificate);
  await settled(step, moved, node);
  return { url_scheme: to, changed: true, from, names, cells_changed: replaced.cells_changed };
}

function why(state: ReturnType<typeof httpsState>): string {
  if (state.wanted_scheme === 'https') return '';
  if (!state.force) return ' (HTTPS is not forced)';
  return state.certificate_covers ? '' : ' (no installed certificate covers the address)';
}

/** The front page links in the new scheme: PHP's opcache may serve the old wp-config.php for its revalidation time. */
async function settled(step: SchemeStep, environment: Environment, node: Node): Promise<void> {
  const host = siteHost(environment);
  const target = probeTarget(node, environment.url_scheme);
  const wanted = `${environment.url_scheme}://${host}/`;
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const answer = await probeEdge(target, { host, environment, secretKey: step.deps.secretKey }).catch(() => undefined);
    if (answer?.status === 200 && answer.body.includes(wanted)) return;
    if (Date.now() > deadline) {
      throw new StepFailed(`${describeProbe(target, host)} does not link to ${wanted} yet (${answer ? `answered ${answer.status}` : 'no answer'})`);
    }
    await sleep(250);
  }
}
