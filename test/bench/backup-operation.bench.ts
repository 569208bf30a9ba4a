/**
 * A backup as a customer waits for it (issue 24): POST a backup of a fresh WordPress through the API
 * with the whole stack (API, workers, a real agent, podman) until its operation has succeeded —
 * container, dump, snapshot, retention — against the floor measured in the same run: `tar | zstd -T0`
 * of the same files plus `mariadb-dump | zstd` of the same database, in a container of the same image
 * already running (so the floor pays no engine start-up). The plan keeps 2 manual backups, so from the
 * third on every backup also expires one (a daily schedule's steady state).
 *
 * Then push staging → production (its safety backup of production, the copy, the check), timed to its
 * operation's success, with its steps.
 *   npm run bench -- test/bench/backup-operation.bench.ts   (BENCH_ROUNDS, default 5: backups after the first; BENCH_PUSHES, default 3)
 */
import os from 'node:os';
import path from 'node:path';
import { unseal } from '../../shared/crypto/sealed.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { Backup, OperationStep } from '../../shared/db/models.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { backupsPath } from '../helpers/backups.ts';
import { median } from '../helpers/measure.ts';
import { wordpressImages } from '../helpers/runtime-peers.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { docker, execChecked, operationOutcome } from '../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../helpers/site-on-node.ts';

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const pushes = Math.max(0, Number(process.env.BENCH_PUSHES ?? 3));
const RATIO_GOAL = 0.8;
const PUSH_GOAL_MS = 5_000;

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();

type Timed = { ms: number; steps: Record<string, number> };

/** The operation's time from the POST to its success, and each step's own. */
async function timedOperation(site: SiteOnNode, post: () => Promise<{ status: number; body: any }>): Promise<Timed & { body: any }> {
  const started = performance.now();
  const reply = await post();
  if (reply.status !== 202) throw new Error(`answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id, 600_000);
  const ms = performance.now() - started;
  if (outcome.status !== 'succeeded') throw new Error(`${outcome.kind} ${outcome.status}: ${JSON.stringify(outcome.error)}`);
  const steps = await OperationStep.query(site.stack.ctx.db).where({ operation_id: reply.body.data.operation.id }).orderBy('position');
  return {
    ms,
    body: reply.body,
    steps: Object.fromEntries(
      steps.filter((step) => step.started_at && step.finished_at).map((step) => [step.name, step.finished_at!.getTime() - step.started_at!.getTime()]),
    ),
  };
}

const stepsLine = (measurements: Timed[]) =>
  Object.keys(measurements[0]!.steps)
    .map((step) => `${step} ${median(measurements.map((entry) => entry.steps[step] ?? 0)).toFixed(0)}`)
    .join(', ');

const loadAtStart = os.loadavg()[0]!;
const site = await startSiteOnNode('backup-bench', { plan: { backups_manual_keep: 2, backups_scheduled_keep: 2 } });
let floorContainer: string | undefined;
try {
  const { stack, node, production } = site;
  const layout = nodeLayout(node.nodeId);
  const files = path.join(node.dataDir, environmentLayout(production).filesDir);

  // the floor's container: the backup image, the same files read-only, MariaDB at its address on the node's network
  const mariadb = await docker.getContainer(layout.mariadbContainer).inspect();
  const mariadbAddress = (Object.values(mariadb.NetworkSettings.Networks)[0] as { IPAddress: string }).IPAddress;
  const created = await docker.createContainer({
    Image: wordpressImages().backup,
    Cmd: ['sleep', 'infinity'],
    Labels: { 'berth.test': 'backup-operation-bench' },
    HostConfig: { Binds: [`${files}:/data:ro`], NetworkMode: layout.network, Memory: 1024 ** 3, PidsLimit: 256 },
  });
  floorContainer = created.id;
  await created.start();
  const dbEnv = {
    MYSQL_PWD: unseal(stack.ctx.config.secrets.secretKey, production.db_password_sealed),
    DB_HOST: mariadbAddress,
    DB_USER: production.db_user,
    DB_NAME: production.db_name,
  };
  const dump = `mariadb-dump -h "$DB_HOST" -u "$DB_USER" --skip-ssl --single-transaction --quick --skip-lock-tables --no-tablespaces "$DB_NAME"`;
  const [filesBytes, dumpBytes, fileCount] = (
    await execChecked(floorContainer, ['bash', '-c', `set -euo pipefail; du -sb /data | cut -f1; ${dump} | wc -c; find /data -type f | wc -l`], dbEnv)
  )
    .trim()
    .split('\n')
    .map(Number) as [number, number, number];
  const inputBytes = filesBytes + dumpBytes;
  const floor = async () => {
    const started = performance.now();
    await execChecked(
      floorContainer!,
      ['bash', '-c', `set -euo pipefail; tar -cf - /data 2>/dev/null | zstd -q -3 -T0 > /tmp/files.tar.zst; ${dump} | zstd -q -3 -T0 > /tmp/database.sql.zst`],
      dbEnv,
    );
    return performance.now() - started;
  };
  const backUp = () => timedOperation(site, () => stack.client().post(backupsPath(site.siteId), {}, site.bearer()));

  // the first backup of the environment makes its repository; every later one finds it
  const floors: number[] = [await floor()];
  const first = await backUp();
  const later: Timed[] = [];
  for (let round = 0; round < rounds; round += 1) {
    floors.push(await floor());
    later.push(await backUp());
  }

  const pushed: Timed[] = [];
  if (pushes > 0) {
    await site.succeeded(await stack.client().post(`/v1/sites/${site.siteId}/environments`, { kind: 'staging' }, site.bearer()));
    for (let round = 0; round < pushes; round += 1) {
      pushed.push(
        await timedOperation(site, () => stack.client().post(`/v1/sites/${site.siteId}/environments/staging/push`, { target: 'production' }, site.bearer())),
      );
    }
  }

  const floorMs = median(floors);
  const rate = (ms: number) => `${(inputBytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;
  const verdict = (label: string, ms: number) => {
    const ratio = floorMs / ms;
    console.log(
      `  ${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${rate(ms).padStart(11)}   floor ${floorMs.toFixed(0)} ms (${rate(floorMs)})  ratio ${ratio.toFixed(2)}  goal >= ${RATIO_GOAL}  met ${ratio >= RATIO_GOAL ? 'yes' : 'no'}`,
    );
  };
  console.log(
    `\nbackup-operation: a fresh WordPress, ${fileCount} files, ${(filesBytes / 1e6).toFixed(1)} MB + a ${(dumpBytes / 1e6).toFixed(1)} MB dump; ` +
      `${rounds} later backups (median) and ${pushes} pushes; ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`,
  );
  console.log(
    `  floor: tar | zstd -3 -T0 of the files + mariadb-dump | zstd of the database, ${floors.length} runs: ${floors.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  );
  verdict('backup, first (makes the repository)', first.ms);
  console.log(`    steps (ms): ${stepsLine([first])}`);
  verdict('backup, later (median)', median(later.map((entry) => entry.ms)));
  console.log(`    all: ${later.map((entry) => entry.ms.toFixed(0)).join(', ')} ms; steps, median (ms): ${stepsLine(later)}`);
  if (pushed.length > 0) {
    const pushMs = median(pushed.map((entry) => entry.ms));
    console.log(
      `  push staging -> production (median) ${pushMs.toFixed(0).padStart(6)} ms   all: ${pushed.map((entry) => entry.ms.toFixed(0)).join(', ')} ms   goal <= ${PUSH_GOAL_MS} ms  met ${pushMs <= PUSH_GOAL_MS ? 'yes' : 'no'}`,
    );
    console.log(`    steps, median (ms): ${stepsLine(pushed)}`);
  }
  // incremental: each later snapshot has the one before as its parent, so it stores only what changed
  const added = await Backup.query(stack.ctx.db).where({ environment_id: production.id }).whereNotNull('added_bytes').orderBy('created_at');
  console.log(
    `  bytes added to the repository per backup (${added.map((backup) => backup.kind).join(', ')}): ${added.map((backup) => backup.added_bytes).join(', ')}`,
  );
} finally {
  if (floorContainer) await docker.getContainer(floorContainer).remove({ force: true });
  await site.stop();
}
