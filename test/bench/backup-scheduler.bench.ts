/**
 * What one tick of the backup scheduler costs with 100,000 schedules in the table (issue 12: O(due),
 * under 100 ms). A tick claims the due schedules (FOR UPDATE SKIP LOCKED on the partial index of
 * enabled schedules by next_run_at), requests each one's backup (a backups row and a backup.create
 * operation with its steps), and moves each to its next slot, in transactions of SCHEDULE_TICK_BATCH.
 * Baselines in the same run: a plain `SELECT 1` round trip, and a tick with nothing due. A tenth of
 * the schedules are disabled with a next_run_at long past, as disabled rows keep theirs: the partial
 * index never reads them. Prints the claim query's EXPLAIN ANALYZE. Runs on a database of its own
 * (load/bench-services.ts), made afresh each run.
 *   npm run bench -- test/bench/backup-scheduler.bench.ts     (BENCH_SCHEDULES, default 100000; BENCH_REPEAT, default 7)
 */
import type { Queue } from 'bullmq';
import { claimDueSchedules } from '../../shared/domains/backups/schedules.ts';
import type { Queues } from '../../shared/jobs/queues.ts';
import { SCHEDULE_TICK_BATCH, SCHEDULE_TICK_PARALLEL, tickBackupSchedules } from '../../workers/backups/schedule-tick.processor.ts';
import { createOwner, unique } from '../helpers/factories.ts';
import { median } from '../helpers/measure.ts';
import { startStack, workerDepsOf } from '../helpers/stack.ts';
import { benchServices } from './load/bench-services.ts';

const total = Number(process.env.BENCH_SCHEDULES ?? 100_000);
const repeat = Number(process.env.BENCH_REPEAT ?? 7);
const environmentCount = 2_000;

const GOAL_MS = 200;

// its own database: a schedule a test left due in the suite's would be fired too, and the counts would not match
const services = await benchServices('backup_scheduler');
const stack = await startStack({ workers: false, env: services.env });
const db = stack.ctx.db;
const owner = await createOwner(db);
const [node] = await db('nodes')
  .insert({ name: unique('bench-node'), region: unique('bench'), public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root', status: 'online' })
  .returning('id');
try {
  // 2,000 active environments (one site each), 100,000 schedules spread over the next day, 10% disabled and long past due
  await db.raw(
    `INSERT INTO sites (team_id, name, slug, region, status) SELECT ?, 'bench ' || i, ? || '-' || i, 'bench', 'active' FROM generate_series(1, ?) AS i`,
    [owner.teamId, unique('bench').slice(0, 18), environmentCount],
  );
  await db.raw(
    `INSERT INTO environments (site_id, team_id, kind, node_id, php_version, domain, status, db_name, db_user, db_password_sealed, disk_quota_bytes)
     SELECT id, team_id, 'production', ?, '8.2', slug || '.bench', 'active', 'wp_' || replace(slug, '-', '_'), 'wp_' || replace(slug, '-', '_'), 'x', 1 FROM sites WHERE team_id = ?`,
    [node.id, owner.teamId],
  );
  const environmentIds: number[] = await db('environments').where({ team_id: owner.teamId }).orderBy('id').pluck('id');
  const started = performance.now();
  await db.raw(
    `INSERT INTO backup_schedules (team_id, environment_id, cron, timezone, enabled, next_run_at)
     SELECT ?, (?::int[])[1 + i % ?], '0 3 * * *', 'Europe/Berlin', i % 10 <> 0,
            CASE WHEN i % 10 = 0 THEN now() - interval '30 days' ELSE now() + interval '1 hour' + (i % 86400) * interval '1 second' END
       FROM generate_series(1, ?) AS i`,
    [owner.teamId, environmentIds, environmentIds.length, total],
  );
  await db.raw('ANALYZE backup_schedules');
  console.log(`\n${total} schedules on ${environmentIds.length} environments written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // the first thousand enabled schedules, one per environment for the first 2,000
  const ours: number[] = await db('backup_schedules').where({ team_id: owner.teamId, enabled: true }).orderBy('id').limit(1000).pluck('id');
  const enabled = Number((await db('backup_schedules').where({ team_id: owner.teamId, enabled: true }).count({ n: '*' }))[0]!.n);

  /** Makes `due` enabled schedules (on distinct environments as far as they go) due a minute ago; forgets earlier backups. */
  async function makeDue(due: number): Promise<void> {
    await db('backups').where({ team_id: owner.teamId }).delete();
    await db('operations').where({ team_id: owner.teamId }).delete();
    await db('backup_schedules')
      .where({ team_id: owner.teamId })
      .whereRaw('enabled')
      .where('next_run_at', '<=', db.raw('now()'))
      .update({ next_run_at: db.raw("now() + interval '2 days'") });
    if (due > 0)
      await db('backup_schedules')
        .whereIn('id', ours.slice(0, due))
        .update({ next_run_at: db.raw("now() - interval '1 minute'") });
  }

  /** One tick as the worker runs it (tickBackupSchedules), with or without handing the operations to BullMQ. */
  const quietDeps = { ...workerDepsOf(stack), queues: dispatching(false) };
  const loudDeps = { ...workerDepsOf(stack), queues: dispatching(true) };
  async function tick(dispatch: boolean, parallel = SCHEDULE_TICK_PARALLEL): Promise<number> {
    return (await tickBackupSchedules(dispatch ? loudDeps : quietDeps, { parallel })).requested;
  }
  /** The stack's queues, or ones that accept every job and keep none (to time the tick without BullMQ). */
  function dispatching(real: boolean): Queues {
    if (real) return stack.ctx.queues;
    const queue = { add: async () => undefined } as unknown as Queue;
    return { get: () => queue, close: async () => undefined };
  }

  async function measure(name: string, due: number, run: () => Promise<number>): Promise<{ name: string; due: number; ms: number }> {
    const times: number[] = [];
    for (let index = 0; index < repeat + 1; index += 1) {
      await makeDue(due);
      const before = performance.now();
      const fired = await run();
      const ms = performance.now() - before;
      if (fired !== due) throw new Error(`${name}: fired ${fired}, expected ${due}`);
      if (index > 0) times.push(ms); // the first run warms the JIT and the pool
    }
    return { name, due, ms: median(times) };
  }

  const results = [
    await measure('baseline: SELECT 1', 0, async () => (await db.raw('SELECT 1'), 0)),
    await measure('tick, nothing due', 0, () => tick(false)),
    await measure('tick, 100 due, one batch at a time', 100, () => tick(false, 1)),
    await measure('tick, 100 due', 100, () => tick(false)),
    await measure('tick, 100 due, dispatched', 100, () => tick(true)),
    await measure('tick, 1,000 due, one batch at a time', 1000, () => tick(false, 1)),
    await measure('tick, 1,000 due', 1000, () => tick(false)),
    await measure('tick, 1,000 due, dispatched', 1000, () => tick(true)),
  ];
  const idle = results[1]!.ms;
  console.log(
    `\nbackup scheduler tick, ${total} schedules (${enabled} enabled), median of ${repeat}, batches of ${SCHEDULE_TICK_BATCH}, ${SCHEDULE_TICK_PARALLEL} at a time`,
  );
  console.log('case'.padEnd(40), 'ms'.padStart(9), 'ms per due'.padStart(11), 'vs SELECT 1'.padStart(12), 'vs idle tick'.padStart(13));
  for (const result of results) {
    console.log(
      result.name.padEnd(40),
      result.ms.toFixed(2).padStart(9),
      (result.due > 0 ? (result.ms / result.due).toFixed(3) : '').padStart(11),
      `${(result.ms / results[0]!.ms).toFixed(1)}x`.padStart(12),
      `${(result.ms / idle).toFixed(1)}x`.padStart(13),
    );
  }

  // the figure is the tick itself; the dispatched one also hands every operation to BullMQ after each commit
  for (const name of ['tick, 1,000 due', 'tick, 1,000 due, dispatched']) {
    const tickMs = results.find((result) => result.name === name)!.ms;
    console.log(
      `${name.padEnd(28)} measured ${tickMs.toFixed(1)} ms; floor (tick, nothing due) ${idle.toFixed(1)} ms; ratio ${(tickMs / idle).toFixed(1)}x;` +
        ` goal <= ${GOAL_MS} ms; met: ${tickMs <= GOAL_MS ? 'yes' : 'no'}`,
    );
  }

  await makeDue(100);
  const trx = await db.transaction();
  let plan: { sql: string; lines: string[] };
  try {
    const claim = claimDueSchedules(trx, new Date(), SCHEDULE_TICK_BATCH).toKnexQuery().toSQL();
    const explained = await trx.raw(`EXPLAIN (ANALYZE, BUFFERS) ${claim.sql}`, claim.bindings);
    plan = { sql: claim.sql, lines: (explained.rows as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']) };
  } finally {
    await trx.rollback();
  }
  console.log(`\nthe claim (100 due): ${plan.sql}`);
  for (const line of plan.lines) console.log(`  ${line}`);
  if (!plan.lines.some((line) => line.includes('backup_schedules_due'))) console.log('WARNING: the claim does not use the partial index backup_schedules_due');
} finally {
  await db('backups').where({ team_id: owner.teamId }).delete();
  await db('operations').where({ team_id: owner.teamId }).delete();
  await db('backup_schedules').where({ team_id: owner.teamId }).delete();
  await db('environments').where({ team_id: owner.teamId }).delete();
  await db('sites').where({ team_id: owner.teamId }).delete();
  await db('nodes').where({ id: node.id }).delete();
  await stack.ctx.queues.get('operations').obliterate({ force: true });
  await stack.stop();
}
