import { randomBytes } from 'node:crypto';
import { seal, unseal } from '../../shared/crypto/sealed.ts';
import { Backup, BackupRepository, type Environment, type Node } from '../../shared/db/models.ts';
import type { RepositoryKey } from '../../shared/domains/backups/restic.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';
import { environmentOf } from '../sites/environment-context.ts';

/** The input every backup operation carries (shared/domains/backups plans it). */
export type BackupInput = { environment_id: number; backup_id: string };

export async function backupOf(step: StepContext): Promise<{ backup: Backup; environment: Environment; node: Node }> {
  const { backup_id: backupId } = step.operation.input as BackupInput;
  const backup = await Backup.query(step.deps.db).findById(backupId);
  if (!backup) throw new StepFailed('the backup was deleted meanwhile', { permanent: true });
  const { environment, node } = await environmentOf(step);
  return { backup, environment, node };
}

/**
 * The node's repository key; its password is made (and sealed) the first time a backup runs there. Several
 * backups may ask at once: the first insert wins and everyone reads the row back.
 *
 * `initialized` tells the runbook whether to run its own `restic init`: for a node-local repository
 * once per node (recorded in the row); for one in object storage never, since the row cannot tell
 * which store it was made in and an unanswered `restic init` would retry for 15 minutes: each
 * script's REPOSITORY_CHECK opens it, or makes it, under a deadline instead.
 */
export async function repositoryKey(step: StepContext, node: Pick<Node, 'id'>): Promise<{ key: RepositoryKey; initialized: boolean }> {
  await BackupRepository.query(step.deps.db)
    .insert({ node_id: node.id, password_sealed: seal(step.deps.secretKey, randomBytes(32).toString('base64url')) })
    .onConflict('node_id')
    .ignore();
  const repository = (await BackupRepository.query(step.deps.db).findById(node.id))!;
  const storage = step.deps.config.backupStorage;
  return {
    key: { password: unseal(step.deps.secretKey, repository.password_sealed), nodeId: node.id, storage },
    initialized: storage.kind === 's3' || repository.initialized_at !== null,
  };
}

