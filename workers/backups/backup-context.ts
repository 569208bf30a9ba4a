import { Backup, type Environment, type Node } from '../../shared/db/models.ts';
import { backupRepositoryKey, environmentRepositoryKey } from '../../shared/domains/backups/repository-keys.ts';
import type { RepositoryKey } from '../../shared/domains/backups/restic.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { environmentOf } from '../environments/environment-context.ts';

/** What the backup steps read of an operation's input: the environment, and the backup they make. */
export type BackupStepInput = { environment_id: number; backup_id: string };
export type BackupStep = StepContext<BackupStepInput>;

export async function backupOf(step: BackupStep): Promise<{ backup: Backup; environment: Environment; node: Node }> {
  const backup = await Backup.query(step.deps.db).findById(step.input.backup_id);
  if (!backup) throw new StepFailed('the backup was deleted meanwhile', { permanent: true });
  const { environment, node } = await environmentOf(step);
  return { backup, environment, node };
}

const keysOf = (deps: WorkerDeps) => ({ db: deps.db, secretKey: deps.secretKey, storage: deps.config.backupStorage });

/** The environment's own repository key (made the first time); `initialized`: see environmentRepositoryKey. */
export function repositoryKey(
  step: StepContext,
  environment: Pick<Environment, 'id' | 'node_id'>,
): Promise<{ key: RepositoryKey; initialized: boolean; quickKey: boolean }> {
  return environmentRepositoryKey(keysOf(step.deps), environment);
}

/** The key of the repository holding the backup's snapshot; a node repository that is gone fails the step (nothing of it is left to read). */
export async function snapshotKey(step: StepContext, backup: Backup): Promise<RepositoryKey> {
  const key = await backupRepositoryKey(keysOf(step.deps), backup);
  if (!key) throw new StepFailed(`backup ${backup.id.slice(0, 8)}'s repository is gone`, { permanent: true });
  return key;
}

export { keysOf as repositoryKeysOf };
