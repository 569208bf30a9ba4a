import type { Environment, Operation } from '../../shared/db/models.ts';
import { AgentCommandRow, Backup, EnvironmentBackupRepository, TeamEntitlements } from '../../shared/db/models.ts';
import { unseal } from '../../shared/crypto/sealed.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { agentCommand } from '../environments/environment-context.ts';
import { siteHost } from '../environments/site-runtime.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { backupOf, repositoryKey, type BackupStep } from './backup-context.ts';
import {
  backupContainerName,
  backupContainerPayload,
  backupFilesDir,
  FORGET_EXPIRED_SCRIPT,
  parseSnapshotRun,
  repositoryDir,
  resticEnv,
  SECRETS_TO_FILES,
  SNAPSHOT_SCRIPT,
} from '../../shared/domains/backups/restic.ts';
import { beyondRetention, type RetentionKeep } from '../../shared/domains/backups/retention.ts';
import { QUICK_KEY_SCRIPT } from '../../shared/domains/backups/restic-quick-key.ts';
import { legacyToMove, moveLegacySnapshots } from './move-legacy-snapshots.ts';
import { resticRun } from './restic-run.ts';

/** Reading a large site into the repository takes time; the operation's deadline (an hour) bounds it. */
const SNAPSHOT_TIMEOUT_SECONDS = 50 * 60;
const RESTIC_TIMEOUT_SECONDS = 10 * 60;

/**
 * The environment's own repository (initialised once; the backups it still has in the node's old
 * shared repository moved into it first) and this backup's throwaway container, which sees this
 * environment's files only, through a view that follows no link.
 */
export async function openRepository(step: BackupStep): Promise<unknown> {
  const { backup, environment, node } = await backupOf(step);
  await Backup.query(step.deps.db).patch({ status: 'running' }).where({ id: backup.id, status: 'pending' });
  const command = agentCommand(step, 'repository', node.id);
  const { key, initialized, quickKey } = await repositoryKey(step, environment);
  if (step.deps.config.backupStorage.kind === 'local' && !initialized) {
    await runAgentCommand(step.deps, { ...command, part: 'directory', kind: 'directory.ensure', payload: { path: repositoryDir(key.location), mode: 0o700 } });
  }
  const legacy = await legacyToMove(step, environment);
  const container = backupContainerName(node, backup);
  await runAgentCommand(step.deps, {
    ...command,
    part: 'container',
    kind: 'container.ensure',
    payload: backupContainerPayload(step.deps.config, node, environment, backup, legacy ?? undefined),
  });
  if (!initialized || !quickKey) {
    // `restic cat config` succeeds on a repository that exists: init only when it does not (a retry after init);
    // then its key replaced by a quick one (a node-local repository made before that, at its next backup)
    await resticRun('opening the repository', step.deps.config.backupStorage, () =>
      runAgentCommand(step.deps, {
        ...command,
        part: 'init',
        kind: 'container.exec',
        timeoutSeconds: RESTIC_TIMEOUT_SECONDS,
        payload: { name: container, cmd: ['bash', '-c', INIT_SCRIPT], env: resticEnv(key) },
      }),
    );
    const now = new Date();
    await EnvironmentBackupRepository.query(step.deps.db)
      .patch({ initialized_at: EnvironmentBackupRepository.raw('coalesce(initialized_at, ?)', [now]), quick_key_at: now })
      .where({ environment_id: environment.id });
  }
  if (legacy) await moveLegacySnapshots(step, command, container, key, legacy, environment);
  await step.log(`repository of the environment on ${node.name} ready; ${container} mounts ${backupFilesDir(environment)} read-only, following no link`);
  return { container };
}

const INIT_SCRIPT = String.raw`
set -euo pipefail
${SECRETS_TO_FILES}
restic cat config >/dev/null 2>&1 || restic init
${QUICK_KEY_SCRIPT}
quick_key
`;

/**
 * The database dumped (one consistent transaction, as the environment's own MariaDB user) and the
 * files read into one restic snapshot tagged with the backup's id. A retry finds that snapshot and
 * records it instead of taking another; a run that could not read every file (restic's exit 3)
 * forgets its partial snapshot and fails, so an incomplete backup is never recorded as one.
 */
export async function takeSnapshot(step: BackupStep): Promise<unknown> {
  const { backup, environment, node } = await backupOf(step);
  const { key } = await repositoryKey(step, environment);
  const command = agentCommand(step, 'snapshot', node.id);
  const mayExist = await commandQueuedBefore(step, command.step);
  const expiring = await expiringWith(step, backup, environment);
  // marked first: a forget that ran and a crash before the rows changed still leave the prune due
  if (expiring.length > 0) await markForgotten(step, environment.id);
  const run = await resticRun('the snapshot', step.deps.config.backupStorage, () =>
    runAgentCommand(step.deps, {
      ...command,
      timeoutSeconds: SNAPSHOT_TIMEOUT_SECONDS,
      payload: {
        name: backupContainerName(node, backup),
        cmd: ['bash', '-c', SNAPSHOT_SCRIPT],
        env: {
          ...resticEnv(key),
          BACKUP_ID: backup.id,
          SNAPSHOT_MAY_EXIST: mayExist ? '1' : '0',
          FORGET_SNAPSHOTS: expiring.map((expired) => expired.snapshot_id!).join(' '),
          ENVIRONMENT_ID: String(environment.id),
          KIND: backup.kind,
          DB_HOST: nodeLayout(node.id).mariadbContainer,
          DB_NAME: environment.db_name,
          DB_USER: environment.db_user,
          DB_PASSWORD: unseal(step.deps.secretKey, environment.db_password_sealed),
        },
      },
      kind: 'container.exec',
    }),
  );
  const taken = parseSnapshotRun(run.stdout);
  if (!taken) throw new StepFailed(`restic reported no snapshot: ${run.stdout.slice(-300)}`);
  await Backup.query(step.deps.db)
    .patch({
      status: 'succeeded',
      snapshot_id: taken.snapshot_id,
      host: siteHost(environment),
      size_bytes: taken.size_bytes,
      added_bytes: taken.added_bytes,
      file_count: taken.file_count,
      database_bytes: taken.database_bytes,
      finished_at: new Date(),
      error: null,
    })
    .where({ id: backup.id });
  await step.log(
    `snapshot ${taken.snapshot_id.slice(0, 8)}: ${taken.file_count} files, ${taken.size_bytes} bytes read, ${taken.added_bytes} new in the repository; database dump ${taken.database_bytes} bytes${taken.existing ? ' (found from an earlier try)' : ''}`,
  );
  return { ...taken, expiring: expiring.map((expired) => expired.id) };
}

/** The plan of the environment's team: how many backups of each kind it keeps. */
async function keepOf(step: BackupStep, teamId: number): Promise<RetentionKeep> {
  const plan = await TeamEntitlements.query(step.deps.db).findById(teamId);
  return { scheduled: plan?.backups_scheduled_keep ?? 14, manual: plan?.backups_manual_keep ?? 10 };
}

/** The succeeded backups the plan no longer keeps once `backup` is one of them (never `backup` itself). */
async function expiringWith(step: BackupStep, backup: Backup, environment: Pick<Environment, 'id' | 'team_id'>): Promise<Backup[]> {
  const kept = await Backup.query(step.deps.db)
    .where({ environment_id: environment.id, status: 'succeeded', repository: 'environment' })
    .whereNot('id', backup.id)
    .whereNotNull('snapshot_id')
    .select('id', 'kind', 'created_at', 'snapshot_id');
  return beyondRetention([...kept, backup], await keepOf(step, environment.team_id)).filter((expired) => expired.id !== backup.id);
}

/** Snapshots forgotten in the environment's repository since its last prune: the prune sweep will prune it. */
async function markForgotten(step: BackupStep, environmentId: number): Promise<void> {
  await EnvironmentBackupRepository.query(step.deps.db).patch({ forgotten_at: new Date() }).where({ environment_id: environmentId }).whereNull('forgotten_at');
}

/**
 * Whether an earlier try of this step queued its snapshot command: only then can the snapshot exist
 * already (a first try skips looking for it, one restic run less). runAgentCommand reuses a command
 * that has not failed, so a worker that died mid-step gets that command's own outcome.
 */
async function commandQueuedBefore(step: BackupStep, name: string): Promise<boolean> {
  const base = `${step.operation.id}:${name}`;
  const earlier = await AgentCommandRow.query(step.deps.db).where('id', base).orWhere('id', 'like', `${base}~%`).select('id').first();
  return earlier !== undefined;
}

/**
 * What the plan no longer keeps becomes `expired`: forgotten by the snapshot's own run (its result
 * says so), or else here, in one restic run (none when nothing expires). Nothing is pruned: the
 * repository is marked, and the prune sweep prunes it later (prune-sweep.processor.ts).
 */
export async function applyRetention(step: BackupStep): Promise<unknown> {
  const { backup, environment, node } = await backupOf(step);
  const keep = await keepOf(step, environment.team_id);
  const command = agentCommand(step, 'retention', node.id);
  // the snapshot step of a backup, a push's or a restore's safety backup
  const snapshot = (step.results.snapshot ?? step.results.safety_snapshot) as { forgot?: boolean; expiring?: string[] } | undefined;
  const forgotten = snapshot?.forgot === true ? (snapshot.expiring ?? []) : null;
  const expiring = forgotten ?? (await expiringWith(step, backup, environment)).map((expired) => expired.id);
  if (forgotten === null && expiring.length > 0) {
    const { key } = await repositoryKey(step, environment);
    await markForgotten(step, environment.id);
    const snapshots = await Backup.query(step.deps.db).whereIn('id', expiring).select('snapshot_id');
    await resticRun('retention', step.deps.config.backupStorage, () =>
      runAgentCommand(step.deps, {
        ...command,
        part: 'forget',
        kind: 'container.exec',
        timeoutSeconds: RESTIC_TIMEOUT_SECONDS,
        payload: {
          name: backupContainerName(node, backup),
          cmd: ['bash', '-c', FORGET_EXPIRED_SCRIPT],
          env: { ...resticEnv(key), SNAPSHOT_IDS: snapshots.map((expired) => expired.snapshot_id!).join(' ') },
        },
      }),
    );
  }
  const expired =
    expiring.length === 0 ? 0 : await Backup.query(step.deps.db).patch({ status: 'expired' }).whereIn('id', expiring).where({ status: 'succeeded' });
  await runAgentCommand(step.deps, { ...command, part: 'cleanup', kind: 'container.remove', payload: { name: backupContainerName(node, backup) } });
  await step.log(`kept ${keep.scheduled} scheduled and ${keep.manual} of each other kind: ${expired} older backup${expired === 1 ? '' : 's'} expired`);
  return { expired, removed_snapshots: expiring.length };
}

/** A failed backup says so (unless its snapshot was recorded before a later step failed), and its container goes. */
export async function backupFailed(deps: WorkerDeps, operation: Operation, input: { backup_id?: string | undefined }): Promise<void> {
  const backupId = input.backup_id;
  if (!backupId) return;
  const failed = await failureOf(deps, operation.id);
  await Backup.query(deps.db)
    .patch({ status: 'failed', error: failed, finished_at: new Date() })
    .where({ id: backupId })
    .whereIn('status', ['pending', 'running']);
  const backup = await Backup.query(deps.db).findById(backupId);
  if (!backup) return;
  try {
    await runAgentCommand(deps, {
      operation,
      step: 'retention',
      part: 'cleanup-after-failure',
      nodeId: backup.node_id,
      timeoutSeconds: 60,
      kind: 'container.remove',
      payload: { name: backupContainerName({ id: backup.node_id }, backup) },
    });
  } catch (error) {
    deps.logger.warn({ backup_id: backupId, err: (error as Error).message }, 'backup container not removed after a failure (the node will be reconciled)');
  }
}

/** The failed step and its message, as the operation recorded them. */
async function failureOf(deps: WorkerDeps, operationId: string): Promise<string> {
  const row = await deps.db('operations').where({ id: operationId }).first('error');
  const error = row?.error as { step?: string; message?: string } | null;
  return error?.message ? `${error.step ?? 'backup'}: ${error.message}` : 'the backup failed';
}

export const backupCreateRunbook: Runbook<'backup.create'> = {
  steps: { repository: openRepository, snapshot: takeSnapshot, retention: applyRetention },
  result: (results) => results.snapshot,
  onFailed: backupFailed,
};
