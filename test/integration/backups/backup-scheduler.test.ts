import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backup, BackupSchedule } from '../../../shared/db/models.ts';
import { fireDueSchedules } from '../../../shared/domains/backups/schedules.ts';
import { finishOperation } from '../../../shared/domains/operations/operations.ts';
import { tickBackupSchedules } from '../../../workers/backups/schedule-tick.processor.ts';
import { createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { testDatabaseUrl, testRedisUrl } from '../../helpers/services.ts';
import { startStack, workerDepsOf, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

const cli = path.resolve('cli/berth.ts');
/**
 * Each worker process gets a Redis prefix of its own, so each runs its own tick every 100 ms and the
 * two overlap freely (one deployment's job scheduler would space them out); only Postgres is shared.
 */
const redisPrefix = () => `sched-${randomBytes(4).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-scheduler-'));

let stack: Stack;
let owner: TestUser;
const children = new Set<ChildProcess>();
beforeAll(async () => {
  stack = await startStack({ workers: false });
  owner = await createOwner(stack.ctx.db);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (stack) {
    // The backups' operations target a node that exists only as a row: end them, so no other file's sweeper picks them up.
    const unfinished = await stack.ctx.db('operations').where({ team_id: owner.teamId }).whereIn('status', ['queued', 'running']).pluck('id');
    for (const id of unfinished) await stack.ctx.db.transaction((trx) => finishOperation(trx, id, 'cancelled', { error: null }));
  }
  await stack?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `berth worker` as its own process with its own Redis connections, ticking every 100 ms; resolves once it runs. */
async function startWorkerProcess(name: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [cli, 'worker'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      DATABASE_URL: testDatabaseUrl,
      REDIS_URL: testRedisUrl,
      REDIS_PREFIX: redisPrefix(),
      DATA_DIR: path.join(dataDir, name),
      PUBLIC_URL: 'http://panel.berth.test',
      LOG_LEVEL: 'info',
      BACKUP_SCHEDULER_INTERVAL_MS: '100',
      OPERATION_SWEEP_INTERVAL_MS: '600000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('"workers running"')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker ${name} did not start:\n${output}`);
    await pause(50);
  }
  return { child, output: () => output };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Environments of the owner's team, each in its own site, on a node that is only a row. */
async function environments(count: number, status: 'active' | 'creating' = 'active'): Promise<number[]> {
  const db = stack.ctx.db;
  const [node] = await db('nodes')
    .insert({ name: unique('node'), region: unique('region'), public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root', status: 'online' })
    .returning('id');
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const slug = unique('s').slice(0, 20);
    const [site] = await db('sites').insert({ team_id: owner.teamId, name: slug, slug, region: 'test', status: 'active' }).returning('id');
    const [environment] = await db('environments')
      .insert({
        site_id: site.id,
        team_id: owner.teamId,
        kind: 'production',
        node_id: node.id,
        php_version: '8.2',
        domain: `${slug}.test`,
        status,
        db_name: `wp_${slug}`,
        db_user: `wp_${slug}`,
        db_password_sealed: 'x',
        disk_quota_bytes: 1,
      })
      .returning('id');
    ids.push(environment.id);
  }
  return ids;
}

async function scheduleOn(environmentId: number, fields: { cron: string; timezone?: string; next_run_at: Date; enabled?: boolean }): Promise<BackupSchedule> {
  return BackupSchedule.query(stack.ctx.db).insertAndFetch({ team_id: owner.teamId, environment_id: environmentId, timezone: 'UTC', enabled: true, ...fields });
}

describe('the backup scheduler', () => {
  it('fires each slot exactly once across two worker processes, concurrent ticks and a killed, restarted worker', { timeout: 120_000 }, async () => {
    const db = stack.ctx.db;
    // Yearly: the latest slot of the cron is long past, so the slot a round makes due is its next_run_at, set by the round.
    const active = await environments(24);
    const notActive = await environments(2, 'creating');
    const far = new Date(Date.UTC(2100, 0, 1));
    const schedules = await Promise.all(active.map((environmentId) => scheduleOn(environmentId, { cron: '0 0 1 1 *', next_run_at: far })));
    const skipped = await Promise.all(notActive.map((environmentId) => scheduleOn(environmentId, { cron: '0 0 1 1 *', next_run_at: far })));
    const disabled = await scheduleOn(active[0]!, { cron: '0 0 1 1 *', next_run_at: new Date(Date.now() - 3600_000), enabled: false });
    const ours = [...schedules, ...skipped].map((schedule) => schedule.id);

    let a = await startWorkerProcess('a');
    let b = await startWorkerProcess('b');
    const outputs: Record<string, () => string> = { a: a.output, b: b.output };
    // Two more tickers in this process, on connections of their own, hammering the same rows.
    const deps = workerDepsOf(stack);
    let hammering = true;
    let hammersPaused = false;
    const hammers = [0, 1].map(async () => {
      let ticks = 0;
      while (hammering) {
        if (!hammersPaused) {
          await tickBackupSchedules(deps, { batch: 7 });
          ticks += 1;
        }
        await pause(20);
      }
      return ticks;
    });

    // Rounds: everyone; a killed just as the slots fall due; b alone; a restarted alone; everyone again.
    const whenDue: Array<() => Promise<void>> = [
      async () => undefined,
      async () => undefined,
      async () => {
        await pause(30);
        await kill(a.child);
      },
      async () => undefined,
      async () => undefined,
      async () => undefined,
    ];
    const before: Array<() => Promise<void>> = [
      async () => undefined,
      async () => undefined,
      async () => undefined,
      async () => {
        hammersPaused = true;
      },
      async () => {
        await kill(b.child);
        a = await startWorkerProcess('a-restarted');
        outputs['a-restarted'] = a.output;
      },
      async () => {
        b = await startWorkerProcess('b-restarted');
        outputs['b-restarted'] = b.output;
        hammersPaused = false;
      },
    ];
    const firedBy = (name: string) =>
      outputs[name]!()
        .split('\n')
        .filter((line) => line.includes('"backup schedules fired"')).length;
    const slots: Date[] = [];
    for (let round = 0; round < whenDue.length; round += 1) {
      await before[round]!();
      const slot = new Date(Date.now() - 1000 - round);
      slots.push(slot);
      await BackupSchedule.query(db).patch({ next_run_at: slot }).whereIn('id', ours);
      await whenDue[round]!();
      const deadline = Date.now() + 20_000;
      while ((await BackupSchedule.query(db).whereIn('id', ours).where('next_run_at', '<=', new Date()).resultSize()) > 0) {
        if (Date.now() > deadline) throw new Error(`round ${round}: schedules still due\n${a.output().slice(-2000)}`);
        await pause(20);
      }
      // b alone fired round 3, the restarted a alone round 4 (their log lines may follow the commit by a moment)
      if (round === 3) await until(() => firedBy('b') > 0, 'b fired', 20_000, 20);
      if (round === 4) await until(() => firedBy('a-restarted') > 0, 'the restarted a fired', 20_000, 20);
    }
    hammering = false;
    const ticks = await Promise.all(hammers);
    // each in-test ticker really ran beside the workers (how often depends on the machine's load)
    expect(Math.min(...ticks)).toBeGreaterThan(0);
    console.log(
      `ticks that fired schedules: ${Object.keys(outputs)
        .map((name) => `${name} ${firedBy(name)}`)
        .join(', ')}; in-test tickers ${ticks.join(', ')} ticks`,
    );
    await kill(a.child);
    await kill(b.child);

    // every (schedule, slot) has exactly one backup, and each backup exactly one backup.create operation
    const backups = await Backup.query(db).whereIn('schedule_id', ours);
    const made = new Map<string, number>();
    for (const backup of backups)
      made.set(`${backup.schedule_id}@${backup.slot_at!.toISOString()}`, (made.get(`${backup.schedule_id}@${backup.slot_at!.toISOString()}`) ?? 0) + 1);
    const expected = schedules.flatMap((schedule) => slots.map((slot) => `${schedule.id}@${slot.toISOString()}`)).sort();
    expect([...made.keys()].sort()).toEqual(expected);
    expect([...made.values()].every((count) => count === 1)).toBe(true);
    expect(backups.every((backup) => backup.kind === 'scheduled' && backup.team_id === owner.teamId)).toBe(true);
    const operations = await db('operations').where({ team_id: owner.teamId, kind: 'backup.create' }).select('id', 'input');
    expect(operations.length).toBe(backups.length);
    expect(new Set(backups.map((backup) => backup.operation_id)).size).toBe(backups.length);
    expect(new Set(operations.map((operation: { id: string }) => operation.id))).toEqual(new Set(backups.map((backup) => backup.operation_id)));
    expect(new Set(operations.map((operation: { input: { backup_id: string } }) => operation.input.backup_id))).toEqual(
      new Set(backups.map((backup) => backup.id)),
    );

    // environments that are not active skipped every slot, yet moved on; the disabled schedule never fired
    const after = await BackupSchedule.query(db).whereIn('id', [...ours, disabled.id]);
    for (const schedule of after) {
      if (schedule.id === disabled.id) {
        expect(schedule.last_slot_at).toBeNull();
        continue;
      }
      expect(schedule.last_slot_at!.toISOString()).toBe(slots.at(-1)!.toISOString());
      expect(schedule.next_run_at.getUTCFullYear()).toBe(new Date().getUTCFullYear() + 1);
    }
    expect(
      await Backup.query(db)
        .whereIn('schedule_id', [...skipped.map((schedule) => schedule.id), disabled.id])
        .resultSize(),
    ).toBe(0);
  });

  it('after downtime fires the most recent missed slot once, not each missed one, and moves to the next slot after now', async () => {
    const [environmentId] = await environments(1);
    // In a transaction never committed, at a time long past: no other ticker (another file's workers) sees the row.
    const trx = await stack.ctx.db.transaction();
    try {
      const now = new Date('2001-06-10T12:34:56Z');
      const schedule = await BackupSchedule.query(trx).insertAndFetch({
        team_id: owner.teamId,
        environment_id: environmentId!,
        cron: '0 * * * *',
        timezone: 'Europe/Berlin',
        next_run_at: new Date('2001-06-10T07:00:00Z'),
      });
      const first = await fireDueSchedules({ db: trx, queues: stack.ctx.queues, logger: stack.ctx.logger }, { now, batch: 10 });
      expect(first).toMatchObject({ claimed: 1, requested: 1, alreadyMade: 0 });
      expect((await Backup.query(trx).where({ schedule_id: schedule.id })).map((backup) => backup.slot_at!.toISOString())).toEqual([
        '2001-06-10T12:00:00.000Z',
      ]);
      const moved = (await BackupSchedule.query(trx).findById(schedule.id))!;
      expect(moved.next_run_at.toISOString()).toBe('2001-06-10T13:00:00.000Z');
      expect(moved.last_slot_at!.toISOString()).toBe('2001-06-10T12:00:00.000Z');
      expect((await fireDueSchedules({ db: trx, queues: stack.ctx.queues, logger: stack.ctx.logger }, { now, batch: 10 })).claimed).toBe(0);
      // the same slot asked again (a tick that died after its commit, a clock behind) makes nothing new
      await BackupSchedule.query(trx)
        .patch({ next_run_at: new Date('2001-06-10T12:00:00Z') })
        .where({ id: schedule.id });
      expect(await fireDueSchedules({ db: trx, queues: stack.ctx.queues, logger: stack.ctx.logger }, { now, batch: 10 })).toMatchObject({
        claimed: 1,
        requested: 0,
        alreadyMade: 1,
        operations: [],
      });
      expect(await Backup.query(trx).where({ schedule_id: schedule.id }).resultSize()).toBe(1);
    } finally {
      await trx.rollback();
    }
  });
});
