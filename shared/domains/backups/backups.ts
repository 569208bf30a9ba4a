import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { Backup, Environment, type Operation } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { startOperation, startOperations, type OperationDeps, type OperationQueue } from '../operations/operations.ts';
import { environmentIds, findEnvironment } from '../sites/environments.ts';
import { environmentKey } from '../sites/sites.ts';
import { insertBackup, type BackupRequest } from './backup-rows.ts';
import { backupCreate, RESTORING_KINDS } from './backups.operations.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A backup row and the `backup.create` operation that makes it, in the caller's transaction (the
 * operation is handed to the workers after commit). The operation waits for any other operation on the
 * environment (its serial key), so a backup never reads a half-pushed site. For a schedule's slot
 * already taken, null: that slot's backup exists.
 */
export async function requestBackup(
  trx: Knex.Transaction,
  queue: OperationQueue,
  request: BackupRequest,
): Promise<{ backup: Backup; operation: Operation } | null> {
  const { environment } = request;
  const id = await insertBackup(trx, request);
  if (!id) return null;
  const operation = await startOperation(
    trx,
    queue,
    'backup.create',
    { ...environmentIds(environment), backup_id: id },
    {
      teamId: request.teamId,
      target: { type: 'environment', id: environment.id },
      serialKeys: [environmentKey(environment)],
      createdByUserId: request.userId ?? null,
    },
  );
  const backup = await Backup.query(trx).patchAndFetchById(id, { operation_id: operation.id });
  return { backup, operation };
}

/**
 * The scheduler's batch: the backups of many schedule slots and their operations in four round
 * trips whatever their number (rows, operations, steps, links), not four per slot. Slots already
 * taken (unique schedule_id + slot_at) are left out. Every environment must be active (the caller
 * checks); the operations are handed to the workers after commit.
 */
export async function requestScheduledBackups(
  trx: Knex.Transaction,
  queue: OperationQueue,
  requests: ReadonlyArray<{ teamId: number; environment: Environment; schedule: { id: number; slotAt: Date } }>,
): Promise<{ made: Array<{ backupId: string; operation: Operation }>; alreadyMade: number }> {
  if (requests.length === 0) return { made: [], alreadyMade: 0 };
  const inserted = (await trx('backups')
    .insert(
      requests.map(({ teamId, environment, schedule }) => ({
        team_id: teamId,
        site_id: environment.site_id,
        environment_id: environment.id,
        node_id: environment.node_id,
        kind: 'scheduled',
        schedule_id: schedule.id,
        slot_at: schedule.slotAt,
      })),
    )
    .onConflict(['schedule_id', 'slot_at'])
    .ignore()
    .returning(['id', 'environment_id'])) as Array<{ id: string; environment_id: number }>;
  if (inserted.length === 0) return { made: [], alreadyMade: requests.length };
  const environments = new Map(requests.map(({ teamId, environment }) => [environment.id, { teamId, environment }]));
  const operations = await startOperations(
    trx,
    queue,
    'backup.create',
    inserted.map((row) => {
      const { teamId, environment } = environments.get(row.environment_id)!;
      return {
        input: { ...environmentIds(environment), backup_id: row.id },
        start: { teamId, target: { type: 'environment', id: environment.id }, serialKeys: [environmentKey(environment)] },
      };
    }),
  );
  const made = operations.map((operation) => ({ backupId: backupCreate.input.parse(operation.input).backup_id, operation }));
  await trx.raw('UPDATE backups AS b SET operation_id = v.operation_id FROM unnest(?::uuid[], ?::uuid[]) AS v(id, operation_id) WHERE b.id = v.id', [
    made.map((row) => row.backupId),
    made.map((row) => row.operation.id),
  ]);
  return { made, alreadyMade: requests.length - inserted.length };
}

/**
 * Restores a succeeded backup onto an environment of the same site (its own, or another: then the
 * backup's address is rewritten to the target's). The target is backed up first (`pre_restore`,
 * made by the restore's own steps, so it cannot wait behind the restore on the environment's key).
 */
export async function restoreBackup(
  deps: OperationDeps,
  actor: { teamId: number; userId: number },
  siteId: number,
  kind: string,
  backupId: string,
  targetKind: string,
): Promise<{ backup: Backup; safety: Backup; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const { environment: source } = await findEnvironment(trx, actor.teamId, siteId, kind);
    const backup = await lockRestorableBackup(trx, source, backupId);
    const { environment: target } = await findEnvironment(trx, actor.teamId, siteId, targetKind);
    await Environment.query(trx).findById(target.id).forUpdate();
    if (target.node_id !== backup.node_id)
      throw new Conflict('The backup is on another node than the target environment; restoring across nodes is not supported yet');
    const safetyId = (await insertBackup(trx, {
      teamId: actor.teamId,
      environment: target,
      kind: 'pre_restore',
      userId: actor.userId,
      note: `before restoring backup ${backup.id}`,
    }))!;
    const input = {
      ...environmentIds(target),
      backup_id: safetyId,
      restore_backup_id: backup.id,
      ...(backup.environment_id !== target.id ? { source_environment_id: backup.environment_id } : {}),
    };
    const operation = await startOperation(trx, deps, 'backup.restore', input, {
      teamId: actor.teamId,
      target: { type: 'environment', id: target.id },
      serialKeys: [environmentKey(target)],
      createdByUserId: actor.userId,
    });
    const safety = await Backup.query(trx).patchAndFetchById(safetyId, { operation_id: operation.id });
    return { backup, safety, operation };
  });
}

/** The environment's backups, newest first (expired ones included: they say what was removed). */
export async function listBackups(db: Db, environment: Environment, page: { page: number; pageSize: number }): Promise<{ rows: Backup[]; total: number }> {
  const query = Backup.query(db).where({ environment_id: environment.id });
  const counted = (await query.clone().count({ total: '*' }).first()) as unknown as { total: string };
  const rows = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset((page.page - 1) * page.pageSize)
    .limit(page.pageSize);
  return { rows, total: Number(counted.total) };
}

/**
 * The backup to restore, locked: a deletion of it waits for the restore's operation to be recorded
 * (and then refuses, seeing it), or has deleted it first (NotFound). Only a succeeded one is taken.
 */
export async function lockRestorableBackup(trx: Knex.Transaction, environment: Environment, id: string): Promise<Backup & { snapshot_id: string }> {
  const found = await findBackup(trx, environment, id);
  const backup = await Backup.query(trx).findById(found.id).forUpdate();
  if (!backup) throw new NotFound('No such backup');
  if (backup.status !== 'succeeded' || !backup.snapshot_id) throw new Conflict(`This backup is ${backup.status}: only a succeeded backup can be restored`);
  return backup as Backup & { snapshot_id: string };
}

/** One backup of the environment; another environment's, an unknown or a malformed id is NotFound. */
export async function findBackup(db: Db | Knex.Transaction, environment: Environment, id: string): Promise<Backup> {
  if (!UUID.test(id)) throw new NotFound('No such backup');
  const backup = await Backup.query(db).findOne({ id, environment_id: environment.id });
  if (!backup) throw new NotFound('No such backup');
  return backup;
}

/** A backup asked for in the API (`manual`), of the team's site's environment of that kind. */
export async function createManualBackup(
  deps: OperationDeps,
  actor: { teamId: number; userId: number },
  siteId: number,
  kind: string,
  note: string | null,
): Promise<{ backup: Backup; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await findEnvironment(trx, actor.teamId, siteId, kind);
    await Environment.query(trx).findById(environment.id).forUpdate();
    return (await requestBackup(trx, deps, { teamId: actor.teamId, environment, kind: 'manual', userId: actor.userId, note }))!;
  });
}

export type BackupState = { status: 'pending' | 'running' | 'succeeded' | 'failed' | 'expired'; error: string | null };

/**
 * What a backup's state is now. Its row says once the snapshot is recorded (or expired, or failed
 * through the runbook); before that its operation does, which also covers a backup failed by the
 * sweeper at its deadline, where no runbook code ran.
 */
export async function backupStates(db: Db | Knex.Transaction, backups: readonly Backup[]): Promise<Map<string, BackupState>> {
  const open = backups.filter((backup) => (backup.status === 'pending' || backup.status === 'running') && backup.operation_id);
  const operations =
    open.length === 0
      ? []
      : await db('operations')
          .whereIn(
            'id',
            open.map((backup) => backup.operation_id!),
          )
          .select('id', 'status', 'error');
  const byId = new Map(operations.map((row: { id: string; status: string; error: { step?: string; message?: string } | null }) => [row.id, row]));
  return new Map(
    backups.map((backup) => {
      const operation = backup.operation_id ? byId.get(backup.operation_id) : undefined;
      if (!operation || !(backup.status === 'pending' || backup.status === 'running')) return [backup.id, { status: backup.status, error: backup.error }];
      if (operation.status === 'failed' || operation.status === 'cancelled') {
        return [
          backup.id,
          {
            status: 'failed',
            error: operation.error?.message ? `${operation.error.step ?? 'backup'}: ${operation.error.message}` : `the operation was ${operation.status}`,
          },
        ];
      }
      return [backup.id, { status: operation.status === 'running' ? 'running' : backup.status, error: null }];
    }),
  );
}

/**
 * Deletes a backup. One with a snapshot is forgotten from the node's repository by a `backup.delete`
 * operation (the row goes when the snapshot has); one without (failed, expired) goes at once. A
 * backup still being made, or being restored from, is a 409.
 */
export async function deleteBackup(
  deps: OperationDeps,
  actor: { teamId: number; userId: number },
  siteId: number,
  kind: string,
  backupId: string,
): Promise<{ operation: Operation | null }> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await findEnvironment(trx, actor.teamId, siteId, kind);
    const backup = await findBackup(trx, environment, backupId);
    await Backup.query(trx).findById(backup.id).forUpdate();
    const state = (await backupStates(trx, [backup])).get(backup.id)!;
    if (state.status === 'pending' || state.status === 'running') throw new Conflict('This backup is still being made; delete it once it has finished');
    const restoring = await trx('operations')
      .whereIn('kind', RESTORING_KINDS)
      .whereIn('status', ['queued', 'running'])
      .whereRaw("input->>'restore_backup_id' = ?", [backup.id])
      .first('id');
    if (restoring) throw new Conflict('This backup is being restored; delete it once the restore has finished');
    if (state.status !== 'succeeded' || !backup.snapshot_id) {
      await Backup.query(trx).deleteById(backup.id);
      return { operation: null };
    }
    const operation = await startOperation(
      trx,
      deps,
      'backup.delete',
      { ...environmentIds(environment), backup_id: backup.id },
      {
        teamId: actor.teamId,
        target: { type: 'environment', id: environment.id },
        serialKeys: [environmentKey(environment)],
        createdByUserId: actor.userId,
      },
    );
    return { operation };
  });
}
