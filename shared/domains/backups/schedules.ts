import type { OperationDeps } from '../operations/operations.ts';
import parser from 'cron-parser';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { BackupSchedule, Environment, type Operation } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../../errors.ts';
import { requestBackup, requestScheduledBackups } from './backups.ts';

/** A hosting panel backs an environment up a few times a day at most; five schedules cover daily, weekly and monthly. */
export const MAX_SCHEDULES_PER_ENVIRONMENT = 5;

const CRON_MAX_LENGTH = 100;
/** An IANA name (`Europe/Berlin`, `UTC`, `America/Argentina/Buenos_Aires`), never a bare offset like `+01:00`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** A cron expression and its time zone; once checked, the zone's case is canonical (`europe/berlin` becomes `Europe/Berlin`). */
export type Cadence = { cron: string; timezone: string };

/**
 * Checks a 5-field cron expression (minute hour day-of-month month day-of-week) and an IANA time
 * zone, and returns them normalised; every problem is named by its field (`cron`, `timezone`).
 * Refused: seconds (6 fields), `@daily`-style aliases, and expressions firing more than once an
 * hour (the minute field must name one minute): a backup takes minutes and a plan keeps a few
 * dozen, so a tighter cadence would only churn the retention.
 */
export function checkCadence(input: Cadence): Cadence {
  const problems: FieldProblem[] = [];
  const timezone = canonicalZone(input.timezone);
  if (!timezone) problems.push({ field: 'timezone', message: 'must be an IANA time zone such as Europe/Berlin or UTC' });
  const cron = input.cron.trim().split(/\s+/).join(' ');
  const cronProblem = cronProblemOf(cron, timezone ?? 'UTC');
  if (cronProblem) problems.push({ field: 'cron', message: cronProblem });
  if (problems.length > 0) throw new ValidationFailed(problems);
  return { cron, timezone: timezone! };
}

function canonicalZone(name: string): string | null {
  if (name.length > 64 || !ZONE_NAME.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  // ICU spells some zones by their old names (Asia/Kolkata is Asia/Calcutta): keep the user's, only its case fixed
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

function cronProblemOf(cron: string, timezone: string): string | null {
  if (cron.length === 0 || cron.length > CRON_MAX_LENGTH) return `must be a cron expression of 1 to ${CRON_MAX_LENGTH} characters`;
  const fields = cron.split(' ').length;
  if (fields !== 5) return `must have 5 fields (minute hour day-of-month month day-of-week), not ${fields}${fields === 6 ? ': seconds are not supported' : ''}`;
  let minutes: readonly unknown[];
  try {
    const expression = parser.parseExpression(cron, { tz: timezone });
    minutes = expression.fields.minute;
    expression.next(); // an expression that never fires (31 February) throws here
  } catch (error) {
    return `is not a valid cron expression (${(error as Error).message})`;
  }
  if (minutes.length !== 1) return 'fires more than once an hour: backups run at most hourly, so the minute field must name one minute (e.g. "0 * * * *")';
  return null;
}

/** The first slot of the schedule strictly after `after`, as cron-parser reads the expression in its zone (DST included). */
export function nextSlotAfter(cadence: Cadence, after: Date): Date {
  return parser.parseExpression(cadence.cron, { tz: cadence.timezone, currentDate: after }).next().toDate();
}

/** The last slot of the schedule at or before `at` (cron-parser's `prev` is strict, slots are whole minutes). */
export function lastSlotAtOrBefore(cadence: Cadence, at: Date): Date {
  return parser
    .parseExpression(cadence.cron, { tz: cadence.timezone, currentDate: new Date(at.getTime() + 1) })
    .prev()
    .toDate();
}

/** Slots walked forward after downtime before `prev` is asked instead (it costs milliseconds where `next` costs tenths). */
const CATCH_UP_STEPS = 48;

/**
 * The slot a due schedule fires (`slot`: its pending one, or after downtime the latest one at or
 * before `now`) and its next slot after `now`. In the usual case, the pending slot is the only one
 * due: a single `next` gives both.
 */
export function dueSlot(cadence: Cadence, pending: Date, now: Date): { slot: Date; next: Date } {
  const slots = parser.parseExpression(cadence.cron, { tz: cadence.timezone, currentDate: pending });
  let slot = pending;
  for (let step = 0; step < CATCH_UP_STEPS; step += 1) {
    const next = slots.next().toDate();
    if (next > now) return { slot, next };
    slot = next;
  }
  const latest = lastSlotAtOrBefore(cadence, now);
  return { slot: latest > slot ? latest : slot, next: nextSlotAfter(cadence, now) };
}

/**
 * dueSlot for many schedules at one `now`, each distinct cadence and pending slot computed once:
 * schedules due together mostly share both (every daily 03:00 Europe/Berlin one is due at the same
 * instant), and cron-parser costs tenths of a millisecond a call.
 */
export function dueSlotsAt(now: Date): (cadence: Cadence, pending: Date) => { slot: Date; next: Date } {
  const known = new Map<string, { slot: Date; next: Date }>();
  return (cadence, pending) => {
    const key = `${cadence.cron}\n${cadence.timezone}\n${pending.getTime()}`;
    let slots = known.get(key);
    if (!slots) known.set(key, (slots = dueSlot(cadence, pending, now)));
    return slots;
  };
}

export type ScheduleChange = { cron?: string | undefined; timezone?: string | undefined; enabled?: boolean | undefined };

async function countOf(query: ReturnType<typeof BackupSchedule.query>): Promise<number> {
  const rows = (await query.count({ total: '*' })) as unknown as Array<{ total: number | string }>;
  return Number(rows[0]?.total ?? 0);
}

/** The environment's schedules, oldest first. */
export async function listSchedules(
  db: Db,
  environment: Environment,
  page: { page: number; pageSize: number },
): Promise<{ rows: BackupSchedule[]; total: number }> {
  const query = BackupSchedule.query(db).where({ environment_id: environment.id });
  const total = await countOf(query.clone());
  const rows = await query
    .orderBy('id')
    .offset((page.page - 1) * page.pageSize)
    .limit(page.pageSize);
  return { rows, total };
}

/** One schedule of the environment; another environment's (another team's included) or an unknown id is NotFound. */
export async function findSchedule(db: Db | Knex.Transaction, environment: Environment, id: number): Promise<BackupSchedule> {
  const schedule = await BackupSchedule.query(db).findOne({ id, environment_id: environment.id });
  if (!schedule) throw new NotFound('No such backup schedule');
  return schedule;
}

/**
 * A schedule for the environment, its first slot the next one after `now`. The environment's row
 * is locked so two creations at once cannot both take its last free place (409 past
 * MAX_SCHEDULES_PER_ENVIRONMENT, and for an environment being deleted).
 */
export async function createSchedule(db: Db, environment: Environment, input: Cadence & { enabled: boolean }, now = new Date()): Promise<BackupSchedule> {
  const cadence = checkCadence(input);
  return db.transaction(async (trx) => {
    const locked = await Environment.query(trx).findById(environment.id).forUpdate();
    if (!locked || locked.status === 'deleting') throw new Conflict(`The ${environment.kind} environment is being deleted`);
    const total = await countOf(BackupSchedule.query(trx).where({ environment_id: environment.id }));
    if (total >= MAX_SCHEDULES_PER_ENVIRONMENT)
      throw new Conflict(`An environment has at most ${MAX_SCHEDULES_PER_ENVIRONMENT} backup schedules; change or delete one`);
    return BackupSchedule.query(trx).insertAndFetch({
      team_id: environment.team_id,
      environment_id: environment.id,
      cron: cadence.cron,
      timezone: cadence.timezone,
      enabled: input.enabled,
      next_run_at: nextSlotAfter(cadence, now),
    });
  });
}

/**
 * Changes a schedule. A new cron or zone, or enabling it again, moves `next_run_at` to the next
 * slot after `now` (a schedule disabled for a month does not fire at once for the month it
 * missed); otherwise the pending slot stays. The row is locked, so a tick firing it waits.
 */
export async function updateSchedule(db: Db, environment: Environment, id: number, change: ScheduleChange, now = new Date()): Promise<BackupSchedule> {
  return db.transaction(async (trx) => {
    const current = await BackupSchedule.query(trx).findOne({ id, environment_id: environment.id }).forUpdate();
    if (!current) throw new NotFound('No such backup schedule');
    const cadence = checkCadence({ cron: change.cron ?? current.cron, timezone: change.timezone ?? current.timezone });
    const enabled = change.enabled ?? current.enabled;
    const retimed = cadence.cron !== current.cron || cadence.timezone !== current.timezone || (enabled && !current.enabled);
    return BackupSchedule.query(trx).patchAndFetchById(current.id, {
      cron: cadence.cron,
      timezone: cadence.timezone,
      enabled,
      ...(retimed ? { next_run_at: nextSlotAfter(cadence, now) } : {}),
      updated_at: now,
    });
  });
}

/** Deletes a schedule; the backups it made stay (their `schedule_id` becomes null). */
export async function deleteSchedule(db: Db, environment: Environment, id: number): Promise<BackupSchedule> {
  return db.transaction(async (trx) => {
    const schedule = await findSchedule(trx, environment, id);
    await BackupSchedule.query(trx).deleteById(schedule.id);
    return schedule;
  });
}

/**
 * The due schedules, oldest slot first, locked; rows another tick holds are skipped, not waited for.
 * `enabled` is bare, not `enabled = ?`: a bound boolean would not match the partial index's predicate.
 */
export function claimDueSchedules(trx: Knex.Transaction, now: Date, batch: number) {
  return BackupSchedule.query(trx).whereRaw('enabled').where('next_run_at', '<=', now).orderBy('next_run_at').limit(batch).forUpdate().skipLocked();
}

/** What one claim of due schedules did; its `operations` are handed to the workers once committed. */
export type FiredSchedules = { claimed: number; requested: number; alreadyMade: number; skipped: number; failed: number; operations: Operation[] };

/** A schedule's request failed inside a batch run without savepoints: the batch runs again, isolated. */
class BatchNeedsIsolation extends Error {}

/**
 * Fires up to `batch` due schedules in one transaction: claims them (`FOR UPDATE SKIP LOCKED`, on
 * the partial index of enabled schedules by `next_run_at`, so only due rows are read and a second
 * worker takes other rows or none), requests each one's backup for its slot, and moves each to its
 * next slot after `now`. The slot is the pending one, or after downtime the latest one at or before
 * `now`: missed slots are not run one by one, the most recent runs once. A slot makes one backup
 * however often it is fired (unique schedule + slot), so a tick that dies before commit and runs
 * again adds nothing. An environment that is not active skips the slot (logged). Any other failure
 * rolls the batch back and runs it again with each schedule in a savepoint, where the failing one
 * is logged and skips its slot: one bad row never holds up the others, and the usual batch does
 * not pay two round trips per schedule for savepoints.
 */
export async function fireDueSchedules(deps: OperationDeps, options: { now: Date; batch: number }): Promise<FiredSchedules> {
  const { logger } = deps;
  try {
    return await fireBatch(deps, options, false);
  } catch (error) {
    if (!(error instanceof BatchNeedsIsolation)) throw error;
    logger.warn({ err: error.message }, 'a scheduled backup failed; firing the batch again schedule by schedule');
    return fireBatch(deps, options, true);
  }
}

async function fireBatch(deps: OperationDeps, options: { now: Date; batch: number }, isolated: boolean): Promise<FiredSchedules> {
  const { now, batch } = options;
  const { logger } = deps;
  return deps.db.transaction(async (trx) => {
    const fired: FiredSchedules = { claimed: 0, requested: 0, alreadyMade: 0, skipped: 0, failed: 0, operations: [] };
    const due = await claimDueSchedules(trx, now, batch);
    fired.claimed = due.length;
    if (due.length === 0) return fired;
    const environments = new Map(
      (await Environment.query(trx).whereIn('id', [...new Set(due.map((schedule) => schedule.environment_id))])).map((environment) => [
        environment.id,
        environment,
      ]),
    );
    const moves: Array<{ id: number; next: Date; slot: Date }> = [];
    const dueSlotOf = dueSlotsAt(now);
    const batched: Parameters<typeof requestScheduledBackups>[2][number][] = [];
    for (const schedule of due) {
      const { slot: slotAt, next } = dueSlotOf(schedule, schedule.next_run_at);
      moves.push({ id: schedule.id, next, slot: slotAt });
      const environment = environments.get(schedule.environment_id)!;
      const about = { schedule_id: schedule.id, environment_id: environment.id, slot_at: slotAt.toISOString() };
      // requestBackup refuses these too; checked here first, the fast path never sees a refusal after a write
      if (environment.status !== 'active') {
        fired.skipped += 1;
        logger.info({ ...about, reason: `the environment is ${environment.status}` }, 'scheduled backup skipped');
        continue;
      }
      const request = { teamId: schedule.team_id, environment, kind: 'scheduled' as const, schedule: { id: schedule.id, slotAt } };
      // the usual case: the whole batch in four round trips, below
      if (!isolated) {
        batched.push(request);
        continue;
      }
      let made: Awaited<ReturnType<typeof requestBackup>>;
      try {
        made = await trx.transaction((savepoint) => requestBackup(savepoint, deps, request));
      } catch (error) {
        fired[error instanceof Conflict ? 'skipped' : 'failed'] += 1;
        logger[error instanceof Conflict ? 'info' : 'error'](
          { ...about, err: (error as Error).message },
          'scheduled backup not requested; its slot is skipped',
        );
        continue;
      }
      if (made) {
        fired.requested += 1;
        fired.operations.push(made.operation);
      } else fired.alreadyMade += 1;
    }
    if (batched.length > 0) {
      let result: Awaited<ReturnType<typeof requestScheduledBackups>>;
      try {
        result = await requestScheduledBackups(trx, deps, batched);
      } catch (error) {
        throw new BatchNeedsIsolation(`a batch of ${batched.length}: ${(error as Error).message}`);
      }
      fired.requested += result.made.length;
      fired.alreadyMade += result.alreadyMade;
      fired.operations.push(...result.made.map((made) => made.operation));
    }
    await trx.raw(
      `UPDATE backup_schedules AS s SET next_run_at = v.next_run_at, last_slot_at = v.slot_at
         FROM unnest(?::bigint[], ?::timestamptz[], ?::timestamptz[]) AS v(id, next_run_at, slot_at) WHERE s.id = v.id`,
      [moves.map((move) => move.id), moves.map((move) => move.next.toISOString()), moves.map((move) => move.slot.toISOString())],
    );
    return fired;
  });
}
