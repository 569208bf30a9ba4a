import type { Operation } from '../../shared/db/models.ts';
import { Backup } from '../../shared/db/models.ts';
import { unseal } from '../../shared/crypto/sealed.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { addressPairs } from '../edge/url-scheme.ts';
import { rewriteUrls as rewriteCopiedUrls } from '../environments/copy-steps.ts';
import { agentCommand, environmentAndNode, environmentOf } from '../environments/environment-context.ts';
import { siteHost } from '../environments/site-runtime.ts';
import { runHelper } from '../environments/wordpress-helper.ts';
import { recordInventory, verifyFrontPage, writeConfig } from '../environments/environment-steps.ts';
import { mariadbExec } from '../environments/mariadb.ts';
import { scratchDatabasesSql, swapTablesSql } from '../environments/table-swap.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { snapshotKey } from './backup-context.ts';
import { applyRetention, backupFailed, openRepository, takeSnapshot } from './backup-create.runbook.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import { resticRun } from './restic-run.ts';
import { RESTORE_DATABASE_SCRIPT, RESTORE_FILES_SCRIPT, SWAP_DATABASE_SCRIPT, VERIFY_RESTORE_SCRIPT } from './restore-scripts.ts';
import { resticContainerPayload, resticEnv } from '../../shared/domains/backups/restic.ts';

const RESTORE_TIMEOUT_SECONDS = 50 * 60;
/** What the restore steps read of an operation's input (backup.restore and site.restore). */
export type RestoreStepInput = { environment_id: number; restore_backup_id: string; source_environment_id?: number | undefined };
type RestoreStep = StepContext<RestoreStepInput>;

/** The restore's paths and names on the node, from its operation (a retry finds the same ones). */
export function restoreLayout(operationId: string, nodeId: string, environment: { id: number; node_id: string }) {
  const key = operationId.slice(0, 8);
  const layout = environmentLayout(environment);
  const base = layout.filesDir.replace(/\/files$/, '');
  return {
    container: `${nodeLayout(nodeId).network}-restore-${key}`,
    restoreDir: `${base}/restore-${key}`,
    restoredFiles: `${base}/restore-${key}/data/files`,
    replacedFiles: `${base}/replaced-${key}`,
    filesDir: layout.filesDir,
  };
}

/** The backup being restored (succeeded, with its snapshot) and the restore's throwaway container. */
async function restoreContext(step: RestoreStep) {
  const { environment, node } = await environmentOf(step);
  const { input } = step;
  const restored = await Backup.query(step.deps.db).findById(input.restore_backup_id);
  if (!restored?.snapshot_id || restored.status !== 'succeeded')
    throw new StepFailed(`backup ${input.restore_backup_id} is no longer available to restore (${restored?.status ?? 'deleted'})`, { permanent: true });
  const key = await snapshotKey(step, restored);
  const layout = restoreLayout(step.operation.id, node.id, environment);
  const db = {
    DB_HOST: nodeLayout(node.id).mariadbContainer,
    DB_NAME: environment.db_name,
    DB_USER: environment.db_user,
    DB_PASSWORD: unseal(step.deps.secretKey, environment.db_password_sealed),
    TABLE_PREFIX: environment.table_prefix,
  };
  return { environment, node, restored, key, layout, db, restic: { ...resticEnv(key), SNAPSHOT_ID: restored.snapshot_id } };
}

/**
 * The restore's container: the repository read-only and a new directory (not the site's, which no
 * tenant can reach) to restore into. Root in it may give files to their owners and set their modes
 * and times, nothing more.
 */
async function ensureRestoreContainer(step: RestoreStep, stepName: string, context: Awaited<ReturnType<typeof restoreContext>>) {
  const command = agentCommand(step, stepName, context.node.id);
  await runAgentCommand(step.deps, { ...command, part: 'directory', kind: 'directory.ensure', payload: { path: context.layout.restoreDir, mode: 0o700 } });
  await runAgentCommand(step.deps, {
    ...command,
    part: 'container',
    kind: 'container.ensure',
    payload: resticContainerPayload(step.deps.config, context.node, {
      name: context.layout.container,
      role: 'restore',
      environment: context.environment,
      mounts: [{ type: 'bind', source: context.layout.restoreDir, target: '/restore', read_only: false }],
      repository: { key: context.key, access: 'read-only' },
      capabilities: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID'],
      database: true,
    }),
  });
}

/**
 * A script of restore-scripts.ts in the restore's container, as the step `stepName`, with the target's
 * database credentials and `env` (the repository's secrets only for the scripts that run restic);
 * its failure told in restic's words.
 */
async function exec(
  step: RestoreStep,
  stepName: string,
  context: Awaited<ReturnType<typeof restoreContext>>,
  script: string,
  what: string,
  env: Record<string, string>,
) {
  return resticRun(what, step.deps.config.backupStorage, () =>
    runAgentCommand(step.deps, {
      ...agentCommand(step, stepName, context.node.id, 'script'),
      timeoutSeconds: RESTORE_TIMEOUT_SECONDS,
      kind: 'container.exec',
      payload: { name: context.layout.container, cmd: ['bash', '-c', script], env: { ...context.db, ...env } },
    }),
  );
}

export async function restoreFiles(step: RestoreStep): Promise<unknown> {
  const context = await restoreContext(step);
  await ensureRestoreContainer(step, 'restore_files', context);
  const run = await exec(step, 'restore_files', context, RESTORE_FILES_SCRIPT, 'restoring the files', context.restic);
  const files = (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { files: number }).files;
  await step.log(`backup ${context.restored.id.slice(0, 8)}'s files restored beside the site (${files} entries in ${context.layout.restoredFiles})`);
  return { files };
}

export async function restoreDatabase(step: RestoreStep): Promise<unknown> {
  const context = await restoreContext(step);
  const { db_name: name, db_user: user } = context.environment;
  await runAgentCommand(step.deps, {
    ...agentCommand(step, 'restore_database', context.node.id),
    part: 'scratch',
    kind: 'container.exec',
    payload: { name: nodeLayout(context.node.id).mariadbContainer, ...mariadbExec(scratchDatabasesSql('prepare', name, user)) },
  });
  await ensureRestoreContainer(step, 'restore_database', context);
  const run = await exec(step, 'restore_database', context, RESTORE_DATABASE_SCRIPT, 'restoring the database', context.restic);
  const tables = (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { tables: number }).tables;
  await step.log(`backup ${context.restored.id.slice(0, 8)}'s database loaded beside the site's (${tables} tables in ${name}_in)`);
  return { tables };
}

export async function verifyRestore(step: RestoreStep): Promise<unknown> {
  const context = await restoreContext(step);
  await exec(step, 'verify_restore', context, VERIFY_RESTORE_SCRIPT, 'the check of the restored copy', {});
  await step.log('the restored files hold WordPress and the restored database its options table: swapping them in');
  return { verified: true };
}

/**
 * The site's container stopped, its files directory replaced by the restored one (two renames: the
 * old tree kept aside until cleanup), its tables by the restored ones (one RENAME TABLE), started
 * again. Each part finds what a previous try did and does not do it twice.
 */
export async function swapIn(step: RestoreStep): Promise<unknown> {
  const context = await restoreContext(step);
  const command = agentCommand(step, 'swap', context.node.id);
  const site = environmentLayout(context.environment).container;
  await runAgentCommand(step.deps, { ...command, part: 'stop', kind: 'container.stop', payload: { name: site, timeout_seconds: 10 } });
  await runAgentCommand(step.deps, {
    ...command,
    part: 'aside',
    kind: 'directory.rename',
    payload: { from: context.layout.filesDir, to: context.layout.replacedFiles },
  });
  await runAgentCommand(step.deps, {
    ...command,
    part: 'in',
    kind: 'directory.rename',
    payload: { from: context.layout.restoredFiles, to: context.layout.filesDir },
  });
  const name = context.environment.db_name;
  const swapped = await exec(step, 'swap', context, SWAP_DATABASE_SCRIPT, 'swapping the tables', {
    SWAP_SQL: swapTablesSql(name, `${name}_in`, `${name}_out`),
  });
  await runAgentCommand(step.deps, { ...command, part: 'start', kind: 'container.restart', payload: { name: site } });
  await step.log(`files and ${swapped.stdout.trim().split('\n').at(-1)} tables swapped in; ${site} started`);
  return { swapped: true };
}

/**
 * The backup names the address its site answered at when it was taken (another environment's, or
 * this one's before its primary domain changed): replaced by the target's address now.
 */
export async function rewriteRestoredUrls(step: RestoreStep): Promise<unknown> {
  const context = await restoreContext(step);
  const from = context.restored.host;
  const to = siteHost(context.environment);
  if (!from) return step.input.source_environment_id === undefined ? { skipped: true } : rewriteCopiedUrls(step);
  // a backup from before HTTPS was forced links to http: moved into the scheme the environment uses now
  const pairs = addressPairs(from, to, { from: context.environment.url_scheme === 'https' ? 'http' : undefined, to: context.environment.url_scheme });
  if (pairs.length === 0) return { skipped: true, host: to };
  const replaced = await runHelper(step, 'rewrite_urls', context.environment, 'search-replace', { pairs, json_escaped: true });
  await step.log(
    `${from} → ${to}: ${String(replaced.cells_changed)} values in ${String(replaced.rows_changed)} rows (${String(replaced.serialized_values)} serialized)`,
  );
  return { from, to, rows_changed: replaced.rows_changed, cells_changed: replaced.cells_changed };
}

/** The replaced files, the scratch databases and the restore's container go; the safety backup's retention. */
async function cleanUp(step: StepContext<RestoreStepInput & { backup_id: string }>): Promise<unknown> {
  const context = await restoreContext(step);
  await removeLeftovers(step.deps, step.operation, context.node.id, context.environment, context.layout);
  return applyRetention(step);
}

export async function removeLeftovers(
  deps: WorkerDeps,
  operation: Operation,
  nodeId: string,
  environment: { db_name: string; db_user: string },
  layout: ReturnType<typeof restoreLayout>,
): Promise<void> {
  const command = { operation, step: 'cleanup', nodeId, timeoutSeconds: 300 };
  await runAgentCommand(deps, { ...command, part: 'container', kind: 'container.remove', payload: { name: layout.container } });
  await runAgentCommand(deps, { ...command, part: 'replaced', kind: 'directory.remove', payload: { path: layout.replacedFiles } });
  await runAgentCommand(deps, { ...command, part: 'restore-dir', kind: 'directory.remove', payload: { path: layout.restoreDir } });
  // exit 1: a grant already revoked by an earlier try (the drops ran first)
  const sql = scratchDatabasesSql('drop', environment.db_name, environment.db_user);
  await runAgentCommand(deps, {
    ...command,
    part: 'scratch',
    kind: 'container.exec',
    payload: { name: nodeLayout(nodeId).mariadbContainer, ...mariadbExec(sql), ok_exit_codes: [0, 1] },
  });
}

/**
 * A failed restore leaves the site as it was: if its files were moved aside and the restored ones
 * not moved in, they are moved back; its container is started again. The safety backup takes the
 * outcome like any backup.
 */
async function restoreFailed(deps: WorkerDeps, operation: Operation, input: { environment_id: number; backup_id: string }): Promise<void> {
  await backupFailed(deps, operation, input);
  try {
    const { environment, node } = await environmentAndNode(deps, input.environment_id);
    const layout = restoreLayout(operation.id, node.id, environment);
    const command = { operation, step: 'swap', nodeId: node.id, timeoutSeconds: 120 };
    await runAgentCommand(deps, { ...command, part: 'undo', kind: 'directory.rename', payload: { from: layout.replacedFiles, to: layout.filesDir } }).catch(
      () => undefined,
    );
    await runAgentCommand(deps, { ...command, part: 'undo-start', kind: 'container.restart', payload: { name: environmentLayout(environment).container } });
  } catch (error) {
    deps.logger.warn(
      { operation_id: operation.id, err: (error as Error).message },
      'a failed restore could not restart its site (the node will be reconciled)',
    );
  }
}

export const backupRestoreRunbook: Runbook<'backup.restore'> = {
  steps: {
    safety_repository: openRepository,
    safety_snapshot: takeSnapshot,
    restore_files: restoreFiles,
    restore_database: restoreDatabase,
    verify_restore: verifyRestore,
    swap: swapIn,
    configure: writeConfig,
    rewrite_urls: rewriteRestoredUrls,
    inventory: recordInventory,
    verify: verifyFrontPage,
    purge_cache: purgePageCache,
    cleanup: cleanUp,
  },
  result: (results) => ({ ...(results.verify as Record<string, unknown>), restored: true }),
  onFailed: restoreFailed,
};
