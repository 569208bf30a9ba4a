/**
 * How long a customer waits: from POST /v1/sites to the first 200 from the new site through the
 * node's edge, split by the operation's steps; the same for adding staging (a copy), pushing staging
 * onto production, and cloning the site. The whole stack runs here (API, workers, a real agent,
 * podman with the offline-built images), as in the site tests.
 *
 * The baseline, measured in the same run, is the floor the node's engine sets for anything that
 * starts a site: create and start a bare container from the PHP image and run `php -v` in it. Each
 * total is also given as a multiple of it, so a slower or faster machine reads the same ratios.
 * The two site.create rows have the goals (a new site serving within 3 s when it is the
 * node's first, 1 s afterwards) and say whether they are met.
 *   npm run bench -- test/bench/sites.bench.ts      (BENCH_ROUNDS, default 3, at least 2: each measured that many times, the median shown;
 *                                                    BENCH_SITES=create measures site.create alone, without staging, push and clone)
 */
import { randomBytes } from 'node:crypto';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { OperationStep } from '../../shared/db/models.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { median } from '../helpers/measure.ts';
import { wordpressImages } from '../helpers/runtime-peers.ts';
import { docker, execIn, operationOutcome, siteStackEnv, startSiteNode, type SiteNode } from '../helpers/site-node.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const rounds = Math.max(2, Number(process.env.BENCH_ROUNDS ?? 3));
const createOnly = process.env.BENCH_SITES === 'create';
/** The goals of issue 24 for a new site's first 200 through the edge. */
const CREATE_GOALS_MS: Record<string, number> = { 'site.create, first on the node': 3000, 'site.create': 1000 };

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();

type Measurement = { total: number; succeeded?: number; steps: Record<string, number> };
const images = wordpressImages();
const stack: Stack = await startStack({ env: siteStackEnv() });
let node: SiteNode | undefined;
try {
  node = await startSiteNode(stack, 'bench');
  const owner = await createOwner(stack.ctx.db);
  await stack.ctx.db('team_entitlements').insert({ team_id: owner.teamId, plan: 'bench', max_sites: 100, max_disk_bytes: 1000 * 1024 ** 3 });
  const token = await accessTokenOf(stack.client(), owner);
  const auth = { headers: { authorization: `Bearer ${token}` } };

  /** The first time `domain` is served through the edge (`served`), polled every 50 ms; bounded, so a bench never hangs. */
  const firstServed = async (domain: string, served: (status: number) => boolean, limitMs: number): Promise<number> => {
    for (const deadline = Date.now() + limitMs; ;) {
      const status = await node!.throughEdge(`http://${domain}/`).then(
        (answer) => answer.status,
        () => 0, // the node's first edge may not listen yet
      );
      if (served(status)) return performance.now();
      if (Date.now() > deadline) throw new Error(`http://${domain}/ still answers ${status} after ${limitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /**
   * Starts the operation with `post`, then waits for it and for the edge to serve `domain` (200; a
   * protected environment's 401 is its password gate, served by the same route); the time and the
   * steps' times. With `watchFromPost` (a new domain, which nothing served before) the edge is
   * polled from the POST on, as a customer waiting for the new site would: `total` is its first 200,
   * `succeeded` when the operation was seen succeeded (its last steps check the site and record it).
   */
  const measure = async (
    post: () => Promise<{ status: number; body: any }>,
    domainOf: (body: any) => Promise<string>,
    options: { served?: (status: number) => boolean; watchFromPost?: boolean } = {},
  ): Promise<Measurement & { body: any }> => {
    const served = options.served ?? ((status: number) => status === 200);
    const started = performance.now();
    const reply = await post();
    if (reply.status !== 202) throw new Error(`answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    const domain = await domainOf(reply.body);
    const watched = options.watchFromPost ? firstServed(domain, served, 600_000) : undefined;
    watched?.catch(() => {}); // awaited below; a failed operation is reported first
    const outcome = await operationOutcome(stack, token, reply.body.data.operation.id, 600_000);
    if (outcome.status !== 'succeeded') throw new Error(`${outcome.kind} ${outcome.status}: ${JSON.stringify(outcome.error)}`);
    const succeeded = performance.now() - started;
    const total = (await (watched ?? firstServed(domain, served, 60_000))) - started;
    const steps = await OperationStep.query(stack.ctx.db).where({ operation_id: reply.body.data.operation.id }).orderBy('position');
    return {
      total,
      succeeded,
      body: reply.body,
      steps: Object.fromEntries(steps.map((step) => [step.name, step.finished_at!.getTime() - step.started_at!.getTime()])),
    };
  };

  // the node's first site also makes its edge proxy and MariaDB: measured apart from the others
  const results: Record<string, Measurement[]> = {
    baseline: [],
    'site.create, first on the node': [],
    'site.create': [],
    'environment.create (staging)': [],
    'environment.push (files + database)': [],
    'site.clone': [],
  };
  for (let round = 0; round < rounds; round += 1) {
    results.baseline!.push({ total: await bareContainer(images.php[0]!.image), steps: {} });

    const created = await measure(
      () =>
        stack.client().post(
          '/v1/sites',
          {
            name: `Bench ${randomBytes(3).toString('hex')}`,
            region: node!.region,
            php_version: images.php[0]!.version,
            wordpress: { title: 'Bench', admin_user: 'admin', admin_email: 'bench@example.test' },
          },
          auth,
        ),
      async (body) => body.data.site.environments[0].domain,
      { watchFromPost: true },
    );
    results[round === 0 ? 'site.create, first on the node' : 'site.create']!.push(created);
    const siteId = created.body.data.site.id as number;
    if (createOnly) continue;

    const staging = await measure(
      () => stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, auth),
      async (body) => body.data.environment.domain,
      { served: (status) => status === 200 || status === 401 },
    );
    results['environment.create (staging)']!.push(staging);
    results['environment.push (files + database)']!.push(
      await measure(
        () => stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production' }, auth),
        async (body) => body.data.environment.domain,
      ),
    );
    results['site.clone']!.push(
      await measure(
        () => stack.client().post(`/v1/sites/${siteId}/clone`, { name: `Clone ${randomBytes(3).toString('hex')}` }, auth),
        async (body) => body.data.site.environments[0].domain,
      ),
    );
  }

  const baseline = median(results.baseline!.map((entry) => entry.total));
  console.log(`\nSites, ${rounds} round(s), median per operation; baseline = create + start a bare PHP container and run php -v (${baseline.toFixed(0)} ms)`);
  console.log('operation'.padEnd(38), 'to 200 ms'.padStart(10), 'x baseline'.padStart(11), ' slowest steps (ms)');
  for (const [name, measurements] of Object.entries(results)) {
    if (measurements.length === 0) continue;
    const total = median(measurements.map((entry) => entry.total));
    const stepNames = Object.keys(measurements[0]!.steps);
    const steps = stepNames
      .map((step) => [step, median(measurements.map((entry) => entry.steps[step] ?? 0))] as const)
      .sort((a, b) => b[1] - a[1])
      .map(([step, ms]) => `${step} ${ms.toFixed(0)}`)
      .join(', ');
    console.log(name.padEnd(38), total.toFixed(0).padStart(10), `${(total / baseline).toFixed(1)}x`.padStart(11), ` ${steps}`);
  }
  console.log('\nPOST /v1/sites to the first 200 through the edge (median ms)');
  for (const [name, goal] of Object.entries(CREATE_GOALS_MS)) {
    const measurements = results[name]!;
    if (measurements.length === 0) continue;
    const total = median(measurements.map((entry) => entry.total));
    const succeeded = median(measurements.map((entry) => entry.succeeded ?? entry.total));
    console.log(
      `${name.padEnd(32)} measured ${total.toFixed(0)} ms, floor ${baseline.toFixed(0)} ms (bare PHP container + php -v), ratio ${(total / baseline).toFixed(1)}x, goal <= ${goal} ms, met ${total <= goal ? 'yes' : 'no'} (operation seen succeeded at ${succeeded.toFixed(0)} ms)`,
    );
  }
} finally {
  await node?.remove();
  await stack.stop();
}

/** The engine's floor: a container from the image, started, one exec, removed. */
async function bareContainer(image: string): Promise<number> {
  const started = performance.now();
  const container = await docker.createContainer({ Image: image, Cmd: ['sleep', '60'], Entrypoint: [], Labels: { 'berth.bench': 'baseline' } });
  await container.start();
  await execIn(container.id, ['php', '-v']);
  const elapsed = performance.now() - started;
  await container.remove({ force: true });
  return elapsed;
}
