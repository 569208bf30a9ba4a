import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { seal } from '../../crypto/sealed.ts';
import type { Db } from '../../db/knex.ts';
import { Environment, Site, type Operation, type TeamEntitlements } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { startOperation, type OperationDeps } from '../operations/operations.ts';
import { DISK_QUOTA_PER_ENVIRONMENT_BYTES, reserveForNewSite } from './entitlements.ts';
import { placeEnvironment } from './placement.ts';
import { emitEvent } from '../webhooks/events.ts';

/** Site slugs: 3 to 30 lower-case letters, digits and inner hyphens (they are part of a host name). */
export const SITE_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,28})[a-z0-9]$/;

export type NewSite = {
  name: string;
  slug?: string | undefined;
  region?: string | undefined;
  phpVersion: string;
  wordpress: { title: string; adminUser: string; adminEmail: string; locale: string };
};

export type SiteSettings = { secretKey: Buffer; baseDomain: string };

/** `production-myblog.sites.example.com`: an environment's address before any domain is attached. */
export function defaultDomain(kind: Environment['kind'], slug: string, baseDomain: string): string {
  return `${kind}-${slug}.${baseDomain}`;
}

/**
 * A new site with its production environment, placed on a node, and the `site.create` operation
 * that builds it: all in one transaction, so a site never exists without the operation making it.
 * The team's plan is checked first (402), then a node with room is chosen (least loaded).
 */
export async function createSite(
  deps: OperationDeps,
  settings: SiteSettings,
  actor: { teamId: number; userId: number },
  input: NewSite,
): Promise<{ site: Site; environment: Environment; operation: Operation }> {
  const slug = siteSlug(input);
  return deps.db.transaction(async (trx) => {
    const plan = await reserveForNewSite(trx, actor.teamId);
    if (await Site.query(trx).findOne({ slug })) throw new Conflict(`The slug ${slug} is taken; choose another`);
    const node = await placeEnvironment(trx, input.region);
    const site = await Site.query(trx)
      .insertAndFetch({ team_id: actor.teamId, name: input.name, slug, region: node.region, created_by_user_id: actor.userId })
      .catch(slugTaken(slug));
    const environment = await insertEnvironment(trx, settings, { site, kind: 'production', nodeId: node.id, phpVersion: input.phpVersion, plan });
    const operation = await startOperation(
      trx,
      deps,
      'site.create',
      {
        environment_id: environment.id,
        title: input.wordpress.title,
        admin_user: input.wordpress.adminUser,
        admin_email: input.wordpress.adminEmail,
        locale: input.wordpress.locale,
      },
      { teamId: actor.teamId, target: { type: 'site', id: site.id }, serialKeys: [environmentKey(environment)], createdByUserId: actor.userId },
    );
    return { site, environment, operation };
  });
}

/**
 * A new site made from an environment of one of the team's sites: its production environment on
 * the source's node (the copy is local to it), the source's files and database, its URLs rewritten.
 * The plan is checked like a new site's. 409 when the source environment is not active.
 */
export async function cloneSite(
  deps: OperationDeps,
  settings: SiteSettings,
  actor: { teamId: number; userId: number },
  sourceSiteId: number,
  input: { name: string; slug?: string | undefined; sourceKind: Environment['kind'] },
): Promise<{ site: Site; environment: Environment; operation: Operation }> {
  const slug = siteSlug(input);
  return deps.db.transaction(async (trx) => {
    const source = await lockSiteForChange(trx, actor.teamId, sourceSiteId);
    const from = await Environment.query(trx).findOne({ site_id: source.id, kind: input.sourceKind });
    if (!from) throw new NotFound(`This site has no ${input.sourceKind} environment`);
    if (from.status !== 'active') throw new Conflict(`The ${from.kind} environment is ${from.status}, not active: it cannot be copied now`);
    const { site, environment } = await insertSiteLike(
      trx,
      settings,
      actor,
      { name: input.name, slug, region: source.region, clonedFromSiteId: source.id },
      from,
    );
    const operation = await startOperation(
      trx,
      deps,
      'site.clone',
      { environment_id: environment.id, source_environment_id: from.id, source_site_id: source.id },
      {
        teamId: actor.teamId,
        target: { type: 'site', id: site.id },
        serialKeys: [environmentKey(environment), environmentKey(from)],
        createdByUserId: actor.userId,
      },
    );
    return { site, environment, operation };
  });
}

/**
 * A new site whose production environment is made like `like` (an environment of another site, or
 * the one a backup was taken of): on its node, with its PHP version and table prefix. The plan is
 * checked as for any new site (402); 409 for a slug taken.
 */
export async function insertSiteLike(
  trx: Knex.Transaction,
  settings: SiteSettings,
  actor: { teamId: number; userId: number },
  input: { name: string; slug: string; region: string; clonedFromSiteId?: number },
  like: Pick<Environment, 'node_id' | 'php_version' | 'table_prefix'>,
): Promise<{ site: Site; environment: Environment }> {
  const plan = await reserveForNewSite(trx, actor.teamId);
  if (await Site.query(trx).findOne({ slug: input.slug })) throw new Conflict(`The slug ${input.slug} is taken; choose another`);
  const site = await Site.query(trx)
    .insertAndFetch({
      team_id: actor.teamId,
      name: input.name,
      slug: input.slug,
      region: input.region,
      created_by_user_id: actor.userId,
      ...(input.clonedFromSiteId !== undefined ? { cloned_from_site_id: input.clonedFromSiteId } : {}),
    })
    .catch(slugTaken(input.slug));
  const environment = await insertEnvironment(trx, settings, {
    site,
    kind: 'production',
    nodeId: like.node_id,
    phpVersion: like.php_version,
    tablePrefix: like.table_prefix,
    plan,
  });
  return { site, environment };
}

/** A site's name; the slug is in every environment's address, so it does not change. */
export async function renameSite(db: Db, teamId: number, id: number, name: string): Promise<Site> {
  return db.transaction(async (trx) => {
    const site = await lockSiteForChange(trx, teamId, id);
    const renamed = await Site.query(trx).patchAndFetchById(site.id, { name, updated_at: new Date() });
    await emitEvent(trx, { teamId, type: 'site.renamed', data: { site: { id: renamed.id, name: renamed.name } } });
    return renamed;
  });
}

/** The serial key of the operations changing an environment: they run one at a time. */
export function environmentKey(environment: Pick<Environment, 'id'>): string {
  return `environment:${environment.id}`;
}

/** The team's site, locked for a change; 404 for another team's, 409 while it is being deleted. */
export async function lockSiteForChange(trx: Knex.Transaction, teamId: number, id: number): Promise<Site> {
  const site = await Site.query(trx).findOne({ id, team_id: teamId }).forUpdate();
  if (!site) throw new NotFound('No such site');
  if (site.status === 'deleting') throw new Conflict('This site is being deleted');
  return site;
}

/**
 * Marks the site and its environments `deleting` and plans the `site.delete` operation removing them
 * from their nodes, then the rows. It queues behind a running operation of the environment (serial
 * key), so a site still being created is deleted once that ends. 409 when a deletion is under way.
 */
export async function deleteSite(
  deps: OperationDeps,
  actor: { teamId: number; userId: number },
  id: number,
): Promise<{ site: Site; environments: Environment[]; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const site = await findSite(trx, actor.teamId, id);
    await Site.query(trx).findById(site.id).forUpdate();
    if (site.status === 'deleting') throw new Conflict('This site is already being deleted');
    const environments = await Environment.query(trx).where({ site_id: site.id }).orderBy('id');
    await Site.query(trx).patch({ status: 'deleting', updated_at: new Date() }).where({ id: site.id });
    await Environment.query(trx).patch({ status: 'deleting', updated_at: new Date() }).where({ site_id: site.id });
    const operation = await startOperation(
      trx,
      deps,
      'site.delete',
      { site_id: site.id, environment_ids: environments.map((environment) => environment.id) },
      {
        teamId: actor.teamId,
        target: { type: 'site', id: site.id },
        // after whatever runs on any of its environments; nothing new starts on them meanwhile (409 on `deleting`)
        serialKeys: environments.length > 0 ? environments.map(environmentKey) : [`site:${site.id}`],
        createdByUserId: actor.userId,
      },
    );
    const deleting = (await Site.query(trx).findById(site.id))!;
    return { site: deleting, environments: environments.map((environment) => Object.assign(environment, { status: 'deleting' as const })), operation };
  });
}

/** An environment row with its own database name, user and sealed password. */
export async function insertEnvironment(
  trx: Knex.Transaction,
  settings: SiteSettings,
  input: { site: Site; kind: Environment['kind']; nodeId: string; phpVersion: string; plan: TeamEntitlements; tablePrefix?: string },
): Promise<Environment> {
  const suffix = randomBytes(5).toString('hex');
  return Environment.query(trx)
    .insertAndFetch({
      site_id: input.site.id,
      team_id: input.site.team_id,
      kind: input.kind,
      node_id: input.nodeId,
      php_version: input.phpVersion,
      domain: defaultDomain(input.kind, input.site.slug, settings.baseDomain),
      db_name: `wp_${suffix}`,
      db_user: `wp_${suffix}`,
      db_password_sealed: seal(settings.secretKey, randomBytes(24).toString('base64url')),
      disk_quota_bytes: DISK_QUOTA_PER_ENVIRONMENT_BYTES,
      memory_limit_bytes: Number(input.plan.environment_memory_bytes),
      cpu_limit_millicores: input.plan.environment_cpu_millicores,
      // production's pages are cached at the edge; staging's and development's change under their developers' hands
      page_cache: input.kind === 'production',
      ...(input.tablePrefix ? { table_prefix: input.tablePrefix } : {}),
    })
    .catch((error: unknown) => {
      if ((error as { code?: string; constraint?: string }).code === '23505') throw new Conflict(`This site already has a ${input.kind} environment`);
      throw error;
    });
}

/** The team's site, or 404 for any other id (another team's included). */
export async function findSite(db: Db | Knex.Transaction, teamId: number, id: number): Promise<Site> {
  const site = await Site.query(db).findOne({ id, team_id: teamId });
  if (!site) throw new NotFound('No such site');
  return site;
}

/** A site's environments, in the order they were made (production first). */
export async function environmentsOfSite(db: Db, siteId: number): Promise<Environment[]> {
  return Environment.query(db).where({ site_id: siteId }).orderBy('id');
}

export async function listSites(
  db: Db,
  teamId: number,
  page: { page: number; pageSize: number },
): Promise<{ sites: Site[]; environments: Environment[]; total: number }> {
  const { count } = (await db('sites').where({ team_id: teamId }).count({ count: '*' }).first()) as { count: string };
  const sites = await Site.query(db)
    .where({ team_id: teamId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const environments =
    sites.length === 0
      ? []
      : await Environment.query(db)
          .whereIn(
            'site_id',
            sites.map((site) => site.id),
          )
          .orderBy('id');
  return { sites, environments, total: Number(count) };
}

export function siteSlug(input: { name: string; slug?: string | undefined }): string {
  const slug = input.slug ?? slugFrom(input.name);
  if (!SITE_SLUG.test(slug) || slug.includes('--')) {
    throw ValidationFailed.field(input.slug ? 'slug' : 'name', 'must give a slug of 3 to 30 lower-case letters, digits or single hyphens (set `slug`)');
  }
  return slug;
}

function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30)
    .replace(/-+$/, '');
}

function slugTaken(slug: string) {
  return (error: unknown): never => {
    if ((error as { code?: string }).code === '23505') throw new Conflict(`The slug ${slug} is taken; choose another`);
    throw error;
  };
}
