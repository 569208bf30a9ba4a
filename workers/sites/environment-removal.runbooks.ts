import { Environment, SftpUser, Site } from '../../shared/db/models.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { edgePurgePayload } from '../edge/purge-page-cache.ts';
import { forgetEnvironmentSnapshots } from '../backups/forget-environment.ts';
import { COMMAND_TIMEOUT_SECONDS } from '../environments/environment-context.ts';
import { mariadbExec } from '../environments/mariadb.ts';
import { environmentLayout, nodeLayout } from '../../shared/domains/nodes/node-layout.ts';

/** Both removals name the environments to remove; a site's removal also the site. */
type RemovalInput = { site_id: number; environment_ids: number[] };
type RemovalStep = StepContext<RemovalInput>;

/** The environments still to remove (all of them until the last step deletes the rows). */
async function environmentsOf(step: RemovalStep): Promise<Environment[]> {
  return Environment.query(step.deps.db).whereIn('id', step.input.environment_ids).orderBy('id');
}

function agent(step: RemovalStep, name: string, environment: Environment, part: string) {
  return { operation: step.operation, step: name, part: `env-${environment.id}-${part}`, nodeId: environment.node_id, timeoutSeconds: COMMAND_TIMEOUT_SECONDS };
}

/** A node service the site would use but that was never made (its creation failed early): nothing to undo there. */
function neverMade(error: unknown): boolean {
  return error instanceof StepFailed && /^no container named /.test(error.message);
}

/**
 * The environment's SFTP users go first, for good (revoked, their sessions cut): no one works on
 * files that are about to be removed, and the node forgets them instead of keeping them for ever.
 */
async function revokeSftpUsers(step: RemovalStep, environment: Environment): Promise<void> {
  const users = await SftpUser.query(step.deps.db).where({ environment_id: environment.id }).select('id', 'username');
  if (users.length === 0) return;
  await SftpUser.query(step.deps.db)
    .patch({ status: 'revoked', revoked_at: new Date(), password_hash: null, updated_at: new Date() })
    .where({ environment_id: environment.id })
    .whereNot('status', 'revoked');
  const removed = await runAgentCommand(step.deps, {
    ...agent(step, 'route', environment, 'sftp'),
    kind: 'sftp.users.remove',
    payload: { users: users.map(({ id, username }) => ({ id, username })) },
  });
  await step.log(`${environment.domain}: ${users.length} SFTP users revoked, ${removed.sessions_closed} open sessions closed`);
}

/**
 * Its cached pages at the edge go too: no zone manages its cache directory once its route is gone.
 * Best effort: an edge that was never made, or one from an image without the purge, leaves nothing
 * a visitor can reach (the route is gone), so a failure is logged, not fatal to the removal.
 */
async function forgetCachedPages(step: RemovalStep, environment: Environment): Promise<void> {
  try {
    await runAgentCommand(step.deps, {
      ...agent(step, 'route', environment, 'page-cache'),
      kind: 'container.exec',
      payload: edgePurgePayload(environment),
    });
  } catch (error) {
    await step.log(`${environment.domain}: cached pages not removed at the edge (${(error as Error).message})`, 'stderr');
  }
}

/** What a creation made, undone: each step for every environment the operation removes. */
const undo = {
  async unroute(step: RemovalStep): Promise<unknown> {
    for (const environment of await environmentsOf(step)) {
      await revokeSftpUsers(step, environment);
      const layout = environmentLayout(environment);
      const removed = await runAgentCommand(step.deps, {
        ...agent(step, 'route', environment, 'config'),
        kind: 'directory.remove',
        payload: { path: layout.edgeSiteFile },
      });
      try {
        await runAgentCommand(step.deps, {
          ...agent(step, 'route', environment, 'reload'),
          kind: 'container.exec',
          payload: { name: nodeLayout(environment.node_id).edgeContainer, cmd: WORDPRESS_RUNTIME.edgeReloadCommand },
        });
      } catch (error) {
        if (!neverMade(error)) throw error;
      }
      await forgetCachedPages(step, environment);
      // its route no longer names them (reloaded above): the certificate and its key go too
      const certificateGone = await runAgentCommand(step.deps, {
        ...agent(step, 'route', environment, 'certificate'),
        kind: 'directory.remove',
        payload: { path: layout.certificateFile },
      });
      await runAgentCommand(step.deps, {
        ...agent(step, 'route', environment, 'certificate-key'),
        kind: 'directory.remove',
        payload: { path: layout.certificateKeyFile },
      });
      await runAgentCommand(step.deps, {
        ...agent(step, 'route', environment, 'htpasswd'),
        kind: 'directory.remove',
        payload: { path: layout.htpasswdFile },
      });
      await step.log(
        `${environment.domain}: edge route ${removed.removed ? 'removed' : 'absent'}${certificateGone.removed ? ', certificate and key removed' : ''}`,
      );
    }
    return null;
  },

  async removeContainer(step: RemovalStep): Promise<unknown> {
    for (const environment of await environmentsOf(step)) {
      const layout = environmentLayout(environment);
      const removed = await runAgentCommand(step.deps, {
        ...agent(step, 'container', environment, 'remove'),
        kind: 'container.remove',
        payload: { name: layout.container },
      });
      await step.log(`${environment.domain}: container ${layout.container} ${removed.removed ? 'removed' : 'absent'}`);
    }
    return null;
  },

  async dropDatabase(step: RemovalStep): Promise<unknown> {
    for (const environment of await environmentsOf(step)) {
      // the _in/_out databases exist only while a copy onto this environment runs; a failed one may leave them
      const sql =
        ['', '_in', '_out'].map((suffix) => `DROP DATABASE IF EXISTS \`${environment.db_name}${suffix}\`; `).join('') +
        `DROP USER IF EXISTS '${environment.db_user}'@'%';`;
      try {
        await runAgentCommand(step.deps, {
          ...agent(step, 'database', environment, 'drop'),
          kind: 'container.exec',
          payload: { name: nodeLayout(environment.node_id).mariadbContainer, ...mariadbExec(sql) },
        });
      } catch (error) {
        if (!neverMade(error)) throw error;
      }
      await step.log(`${environment.domain}: database ${environment.db_name} and user ${environment.db_user} dropped`);
    }
    return null;
  },

  async forgetBackups(step: RemovalStep): Promise<unknown> {
    let forgotten = 0;
    for (const environment of await environmentsOf(step)) {
      forgotten += await forgetEnvironmentSnapshots(step, environment, { id: environment.node_id }, `env-${environment.id}`);
    }
    if (forgotten > 0) await step.log(`${forgotten} backup${forgotten === 1 ? '' : 's'} forgotten from the node's repository`);
    return { forgotten };
  },

  async removeFiles(step: RemovalStep): Promise<unknown> {
    for (const environment of await environmentsOf(step)) {
      const { filesDir } = environmentLayout(environment);
      const directory = filesDir.slice(0, filesDir.lastIndexOf('/'));
      const removed = await runAgentCommand(step.deps, {
        ...agent(step, 'files', environment, 'remove'),
        kind: 'directory.remove',
        payload: { path: directory },
      });
      await step.log(`${environment.domain}: files ${removed.removed ? 'removed' : 'absent'}`);
    }
    return null;
  },
};

/** The rows go last: until then a failed deletion can be asked again and finds what is left. */
async function deleteSiteRecords(step: RemovalStep): Promise<unknown> {
  const siteId = step.input.site_id;
  const deleted = await Site.query(step.deps.db).deleteById(siteId);
  return { site_id: siteId, deleted: deleted > 0 };
}

async function deleteEnvironmentRecords(step: RemovalStep): Promise<unknown> {
  const ids = step.input.environment_ids;
  const deleted = await Environment.query(step.deps.db).whereIn('id', ids).delete();
  return { environment_ids: ids, deleted: deleted > 0 };
}

/** A deletion that failed leaves what it removes `failed`: its owner sees it and can delete it again. */
async function markSiteFailed(deps: WorkerDeps, _operation: unknown, { site_id: siteId }: RemovalInput): Promise<void> {
  await Site.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).where({ id: siteId });
  await Environment.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).where({ site_id: siteId });
}

async function markEnvironmentsFailed(deps: WorkerDeps, _operation: unknown, { environment_ids: ids }: RemovalInput): Promise<void> {
  await Environment.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).whereIn('id', ids);
}

const removalSteps = {
  route: undo.unroute,
  container: undo.removeContainer,
  database: undo.dropDatabase,
  backups: undo.forgetBackups,
  files: undo.removeFiles,
};

/** `site.delete` (DELETE /v1/sites/{id}): everything its environments made on the node, then the rows. */
export const siteDeleteRunbook: Runbook<'site.delete'> = {
  steps: { ...removalSteps, records: deleteSiteRecords },
  result: (results) => results.records,
  onFailed: markSiteFailed,
};

/** `environment.delete` (DELETE /v1/sites/{id}/environments/{env}): one staging or development environment. */
export const environmentDeleteRunbook: Runbook<'environment.delete'> = {
  steps: { ...removalSteps, records: deleteEnvironmentRecords },
  result: (results) => results.records,
  onFailed: markEnvironmentsFailed,
};
