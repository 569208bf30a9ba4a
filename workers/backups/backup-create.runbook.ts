import type { BackupStorage } from '../../shared/config/config.ts';
import type { Operation } from '../../shared/db/models.ts';
import { Backup, BackupRepository, TeamEntitlements } from '../../shared/db/models.ts';
import { BACKUP_CREATE_KIND, BACKUP_CREATE_STEPS } from '../../shared/domains/backups/backup-plans.ts';
import { unseal } from '../../shared/crypto/sealed.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type RunbookStep, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { agentCommand } from '../sites/environment-context.ts';
import { siteHost } from '../sites/site-runtime.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { backupOf, repositoryKey, type BackupInput } from './backup-context.ts';
import { BACKUP_RUNTIME, backupContainerName, backupContainerPayload, backupFilesDir, parseSnapshotRun, removedSnapshots, resticEnv, RETENTION_SCRIPT, SNAPSHOT_SCRIPT } from '../../shared/domains/backups/restic.ts';

/** Reading a large site into the repository takes time; the operation's deadline (an hour) bounds it. */
const SNAPSHOT_TIMEOUT_SECONDS = 50 * 60;
const RESTIC_TIMEOUT_SECONDS = 10 * 60;

/** The node's repository (initialised once) and this backup's throwaway container, which sees this environment's files only. */
export async function repository(step: StepContext): Promise<unknown> {
  const { backup, environment, node } = await backupOf(step);
  await Backup.query(step.deps.db).patch({ status: 'running' }).where({ id: backup.id, status: 'pending' });
  const command = agentCommand(step, 'repository', node.id);
  await runAgentCommand(step.deps, { ...command, part: 'directory', kind: 'directory.ensure', payload: { path: BACKUP_RUNTIME.repositoryDir, mode: 0o700 } });
  const container = backupContainerName(node, backup);
  await runAgentCommand(step.deps, { ...command, part: 'container', kind: 'container.ensure', payload: backupContainerPayload(step.deps.config, node, environment, backup) });
  const { key, initialized } = await repositoryKey(step, node);
  if (!initialized) {
    // `restic cat config` succeeds on a repository that exists: init only when it does not (a retry after init, another backup's init)
    await resticRun('opening the repository', step.deps.config.backupStorage, () => runAgentCommand(step.deps, {
      ...command, part: 'init', kind: 'container.exec', timeoutSeconds: RESTIC_TIMEOUT_SECONDS,
      payload: { name: container, cmd: ['sh', '-c', 'restic cat config >/dev/null 2>&1 || restic init'], env: resticEnv(key) },
    }));
    await BackupRepository.query(step.deps.db).patch({ initialized_at: new Date() }).where({ node_id: node.id }).whereNull('initialized_at');
  }
  await step.log(`repository on ${node.name} ready; ${container} mounts ${backupFilesDir(environment)} read-only`);
  return { container };
}

/**
 * The database dumped (one consistent transaction, as the environment's own MariaDB user) and the
 * files read into one restic snapshot tagged with the backup's id. A retry finds that snapshot and
 * records it instead of taking another; a run that could not read every file (restic's exit 3)
 * forgets its partial snapshot and fails, so an incomplete backup is never recorded as one.
 */
export async function snapshot(step: StepContext): Promise<unknown> {
  const { backup, environment, node } = await backupOf(step);
  const { key } = await repositoryKey(step, node);
  const run = await resticRun('the snapshot', step.deps.config.backupStorage, () => runAgentCommand(step.deps, {
    ...agentCommand(step, 'snapshot', node.id), timeoutSeconds: SNAPSHOT_TIMEOUT_SECONDS,
    payload: {
      name: backupContainerName(node, backup),
      cmd: ['bash', '-c', SNAPSHOT_SCRIPT],
      env: {
        ...resticEnv(key),
        BACKUP_ID: backup.id, ENVIRONMENT_ID: String(environment.id), KIND: backup.kind,
        DB_HOST: nodeLayout(node.id).mariadbContainer, DB_NAME: environment.db_name, DB_USER: environment.db_user,
        DB_PASSWORD: unseal(step.deps.secretKey, environment.db_password_sealed),
      },
    },
    kind: 'container.exec',
  }));
  const taken = parseSnapshotRun(run.stdout);
  if (!taken) throw new StepFailed(`restic reported no snapshot: ${run.stdout.slice(-300)}`);
  await Backup.query(step.deps.db).patch({
    status: 'succeeded', snapshot_id: taken.snapshot_id, host: siteHost(environment), size_bytes: taken.size_bytes, added_bytes: taken.added_bytes,
    file_count: taken.file_count, database_bytes: taken.database_bytes, finished_at: new Date(), error: null,
  }).where({ id: backup.id });
  await step.log(`snapshot ${taken.snapshot_id.slice(0, 8)}: ${taken.file_count} files, ${taken.size_bytes} bytes read, ${taken.added_bytes} new in the repository; database dump ${taken.database_bytes} bytes${taken.existing ? ' (found from an earlier try)' : ''}`);
  return taken;
}

/** What the plan no longer keeps is forgotten and pruned; those backups become `expired`. */
export async function retention(step: StepContext): Promise<unknown> {
  const { backup, environment, node } = await backupOf(step);
  const plan = await TeamEntitlements.query(step.deps.db).findById(environment.team_id);
  const keep = { scheduled: plan?.backups_scheduled_keep ?? 14, manual: plan?.backups_manual_keep ?? 10 };
  const { key } = await repositoryKey(step, node);
  const command = agentCommand(step, 'retention', node.id);
  const run = await resticRun('retention', step.deps.config.backupStorage, () => runAgentCommand(step.deps, {
    ...command, part: 'forget', kind: 'container.exec', timeoutSeconds: RESTIC_TIMEOUT_SECONDS,
    payload: {
      name: backupContainerName(node, backup),
      cmd: ['bash', '-c', RETENTION_SCRIPT],
      env: { ...resticEnv(key), ENVIRONMENT_ID: String(environment.id), KEEP_SCHEDULED: String(keep.scheduled), KEEP_MANUAL: String(keep.manual) },
    },
  }));
  const removed = removedSnapshots(run.stdout);
  const expired = removed.length === 0 ? 0 : await Backup.query(step.deps.db).patch({ status: 'expired' }).where({ environment_id: environment.id }).whereIn('snapshot_id', removed);
  await runAgentCommand(step.deps, { ...command, part: 'cleanup', kind: 'container.remove', payload: { name: backupContainerName(node, backup) } });
  await step.log(`kept ${keep.scheduled} scheduled and ${keep.manual} of each other kind: ${expired} older backup${expired === 1 ? '' : 's'} expired`);
  return { expired, removed_snapshots: removed.length };
}

/**
 * A script's failure told in restic's own last words (its stderr), not with the script quoted: the
 * message is what a customer reads on the backup, so the platform's object store (its address,
 * bucket and key id) is left out of it.
 */
export async function resticRun<T>(what: string, storage: BackupStorage, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof StepFailed) || error.exitCode === null) throw error;
    const tail = error.stderrTail === null || error.stderrTail === undefined ? error.stderrTail : withoutStorage(error.stderrTail, storage);
    const said = (tail ?? '').trim().split('\n').filter(Boolean).slice(-3).join('; ');
    throw new StepFailed(`${what} failed (exit ${error.exitCode}): ${said || 'no message'}`, { permanent: error.permanent, exitCode: error.exitCode, stderrTail: tail ?? null, cause: error });
  }
}

/** The store's endpoint, host, address, bucket and access key id, each replaced by words that name none of them. */
export function withoutStorage(text: string, storage: BackupStorage): string {
  if (storage.kind !== 's3') return text;
  const secrets = [storage.endpoint, new URL(storage.endpoint).host, new URL(storage.endpoint).hostname, storage.accessKeyId, storage.bucket]
    .filter((value) => value.length >= 3)
    .sort((a, b) => b.length - a.length);
  const named = secrets.reduce((said, secret) => said.split(secret).join('<backup storage>'), text);
  // Go's network errors name the address the store resolved to
  return named.replace(/dial tcp (\[[^\]]+\]|[^\s:]+):\d+/g, 'dial tcp <backup storage>');
}

/** A failed backup says so (unless its snapshot was recorded before a later step failed), and its container goes. */
export async function backupFailed(deps: WorkerDeps, operation: Operation): Promise<void> {
  const { backup_id: backupId } = operation.input as BackupInput;
  const failed = await failureOf(deps, operation.id);
  await Backup.query(deps.db).patch({ status: 'failed', error: failed, finished_at: new Date() }).where({ id: backupId }).whereIn('status', ['pending', 'running']);
  const backup = await Backup.query(deps.db).findById(backupId);
  if (!backup) return;
  try {
    await runAgentCommand(deps, {
      operation, step: 'retention', part: 'cleanup-after-failure', nodeId: backup.node_id, timeoutSeconds: 60,
      kind: 'container.remove', payload: { name: backupContainerName({ id: backup.node_id }, backup) },
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

const run: Record<string, RunbookStep['run']> = { repository, snapshot, retention };

export const backupCreateRunbook: Runbook = {
  kind: BACKUP_CREATE_KIND,
  steps: BACKUP_CREATE_STEPS.map((plan) => ({ ...plan, run: run[plan.name]! })),
  result: (results) => results.snapshot,
  onFailed: backupFailed,
};
