import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { Environment, TeamEntitlements, type EnvironmentKind, type Operation, type Site } from '../../db/models.ts';
import { Conflict, NotFound, PaymentRequired, ValidationFailed } from '../../errors.ts';
import type { OperationInput, OperationKind } from '../operations/operation-kinds.ts';
import { startOperation, type OperationDeps } from '../operations/operations.ts';
import { insertBackup } from '../backups/backup-rows.ts';
import { newEnvironmentCredentials } from '../edge/environment-protection.ts';
import { reserveDisk } from './entitlements.ts';
import { environmentPhpChange } from './sites.operations.ts';
import { environmentKey, findSite, insertEnvironment, lockSiteForChange, type SiteSettings } from './sites.ts';

export const ENVIRONMENT_KINDS = ['production', 'staging', 'development'] as const satisfies readonly EnvironmentKind[];

export type Actor = { teamId: number; userId: number };
type WordpressKind = Extract<OperationKind, `wordpress.${string}`>;

/** The team's site and its environment of that kind; 404 for either missing (another team's site included). */
export async function findEnvironment(
  db: Db | Knex.Transaction,
  teamId: number,
  siteId: number,
  kind: string,
): Promise<{ site: Site; environment: Environment }> {
  const site = await findSite(db, teamId, siteId);
  const environment = (ENVIRONMENT_KINDS as readonly string[]).includes(kind) ? await Environment.query(db).findOne({ site_id: site.id, kind }) : undefined;
  if (!environment) throw new NotFound(`This site has no ${kind} environment`);
  return { site, environment };
}

export async function listEnvironments(db: Db, teamId: number, siteId: number): Promise<Environment[]> {
  const site = await findSite(db, teamId, siteId);
  return Environment.query(db).where({ site_id: site.id }).orderBy('id');
}

/** The environment of a site locked for a change: the site must not be deleting, nor the environment. */
export async function lockEnvironmentForChange(
  trx: Knex.Transaction,
  teamId: number,
  siteId: number,
  kind: string,
): Promise<{ site: Site; environment: Environment }> {
  const site = await lockSiteForChange(trx, teamId, siteId);
  const { environment } = await findEnvironment(trx, teamId, site.id, kind);
  if (environment.status === 'deleting') throw new Conflict(`The ${kind} environment is being deleted`);
  return { site, environment };
}

function activeSource(environment: Environment): Environment {
  if (environment.status !== 'active') throw new Conflict(`The ${environment.kind} environment is ${environment.status}, not active: it cannot be copied now`);
  return environment;
}

/** What every operation on an environment names in its input. */
export function environmentIds(environment: Pick<Environment, 'id' | 'site_id'>): { site_id: number; environment_id: number } {
  return { site_id: environment.site_id, environment_id: environment.id };
}

/** An operation on the environment, after whatever runs on it (and on `alsoSerialOn`, a copy's source). */
export function startOn<K extends OperationKind>(
  trx: Knex.Transaction,
  deps: OperationDeps,
  actor: Actor,
  environment: Environment,
  kind: K,
  input: OperationInput<K>,
  alsoSerialOn: Environment[] = [],
): Promise<Operation> {
  return startOperation(trx, deps, kind, input, {
    teamId: actor.teamId,
    target: { type: 'environment', id: environment.id },
    serialKeys: [environmentKey(environment), ...alsoSerialOn.map(environmentKey)],
    createdByUserId: actor.userId,
  });
}

/**
 * A staging or development environment, made as a copy of another environment of the site
 * (production unless told) on the same node, its address `<kind>-<slug>.<base domain>`. Each
 * environment reserves disk from the plan (402 when none is left); 409 when the site has one of
 * that kind already or the source is not active.
 */
export async function addEnvironment(
  deps: OperationDeps,
  settings: SiteSettings,
  actor: Actor,
  siteId: number,
  input: { kind: Exclude<EnvironmentKind, 'production'>; sourceKind: EnvironmentKind },
): Promise<{ environment: Environment; operation: Operation; credentials: { username: string; password: string } }> {
  if (input.kind === input.sourceKind) throw ValidationFailed.field('source', 'must be another environment than the one created');
  return deps.db.transaction(async (trx) => {
    const site = await lockSiteForChange(trx, actor.teamId, siteId);
    if (await Environment.query(trx).findOne({ site_id: site.id, kind: input.kind })) throw new Conflict(`This site already has a ${input.kind} environment`);
    const { environment: found } = await findEnvironment(trx, actor.teamId, site.id, input.sourceKind);
    const source = activeSource(found);
    const plan = await TeamEntitlements.query(trx).findById(actor.teamId).forUpdate();
    if (!plan) throw new PaymentRequired('Your team has no plan; choose a plan first', 'plan');
    await reserveDisk(trx, plan, 1);
    const inserted = await insertEnvironment(trx, settings, {
      site,
      kind: input.kind,
      nodeId: source.node_id,
      phpVersion: source.php_version,
      tablePrefix: source.table_prefix,
      plan,
    });
    // a copy of a live site is kept from strangers and search engines by default: basic auth at the edge
    const credentials = newEnvironmentCredentials(input.kind);
    const environment = await Environment.query(trx).patchAndFetchById(inserted.id, {
      password_protection_username: credentials.username,
      password_protection_hash: credentials.hash,
    });
    const operation = await startOn(trx, deps, actor, environment, 'environment.create', { ...environmentIds(environment), source_environment_id: source.id }, [
      source,
    ]);
    return { environment, operation, credentials: { username: credentials.username, password: credentials.password } };
  });
}

/** Removes a staging or development environment (production goes with its site: 409). */
export async function deleteEnvironment(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
): Promise<{ environment: Environment; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    if (environment.kind === 'production') throw new Conflict('The production environment goes with its site: delete the site instead');
    const deleting = await Environment.query(trx).patchAndFetchById(environment.id, { status: 'deleting', updated_at: new Date() });
    const operation = await startOn(trx, deps, actor, environment, 'environment.delete', { ...environmentIds(environment), environment_ids: [environment.id] });
    return { environment: deleting, operation };
  });
}

/**
 * Copies one environment's files and/or database onto another of the same site, rewriting its URLs.
 * The target keeps its own wp-config.php (database, address). Both environments wait for each
 * other's running operations, so the copy sees neither half-changed.
 */
export async function pushEnvironment(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  sourceKind: string,
  input: { targetKind: EnvironmentKind; files: boolean; database: boolean },
): Promise<{ source: Environment; target: Environment; operation: Operation }> {
  if (!input.files && !input.database) throw ValidationFailed.field('files', 'push files, the database or both');
  if (input.targetKind === sourceKind) throw ValidationFailed.field('target', 'must be another environment than the source');
  return deps.db.transaction(async (trx) => {
    const { environment: found } = await lockEnvironmentForChange(trx, actor.teamId, siteId, sourceKind);
    const source = activeSource(found);
    const { environment: target } = await lockEnvironmentForChange(trx, actor.teamId, siteId, input.targetKind);
    if (target.node_id !== source.node_id) throw new Conflict('The two environments are on different nodes; pushing between nodes is not supported yet');
    // Production is backed up before anything is pushed onto it, by the push's own first steps.
    const safetyId =
      target.kind === 'production'
        ? await insertBackup(trx, {
            teamId: actor.teamId,
            environment: target,
            kind: 'pre_push',
            userId: actor.userId,
            note: `before the push from ${source.kind}`,
          })
        : null;
    const pushed = {
      ...environmentIds(target),
      source_environment_id: source.id,
      files: input.files,
      database: input.database,
      ...(safetyId ? { backup_id: safetyId } : {}),
    };
    const operation = await startOn(trx, deps, actor, target, 'environment.push', pushed, [source]);
    if (safetyId) await trx('backups').where({ id: safetyId }).update({ operation_id: operation.id });
    return { source, target, operation };
  });
}

/** Another PHP version for an environment: its container is recreated from that version's image. */
export async function changePhpVersion(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  phpVersion: string,
): Promise<{ environment: Environment; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    // a change already planned counts: the environment will run that version by then
    const planned = await trx('operations')
      .where({ kind: 'environment.php_change', target_type: 'environment', target_id: String(environment.id) })
      .whereIn('status', ['queued', 'running'])
      .orderBy('created_at', 'desc')
      .first('input');
    const plannedVersion = planned ? environmentPhpChange.input.safeParse(planned.input).data?.php_version : undefined;
    if ((plannedVersion ?? environment.php_version) === phpVersion)
      throw new Conflict(`The ${kind} environment runs PHP ${phpVersion} already (or will once the change under way ends)`);
    const operation = await startOn(trx, deps, actor, environment, 'environment.php_change', {
      ...environmentIds(environment),
      php_version: phpVersion,
      previous_php_version: environment.php_version,
    });
    return { environment, operation };
  });
}

export async function restartEnvironment(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
): Promise<{ environment: Environment; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    const operation = await startOn(trx, deps, actor, environment, 'environment.restart', environmentIds(environment));
    return { environment, operation };
  });
}

/** An operation on an environment's WordPress (plugins, themes, a fresh inventory). */
export async function changeWordpress<K extends WordpressKind>(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  environmentKind: string,
  change: { kind: K; input: (ids: { site_id: number; environment_id: number }) => OperationInput<K> },
): Promise<{ environment: Environment; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, environmentKind);
    return { environment, operation: await startOn(trx, deps, actor, environment, change.kind, change.input(environmentIds(environment))) };
  });
}
