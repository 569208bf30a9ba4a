import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { DnsZone, Environment, SiteDomain, type Operation, type SiteDomainStatus } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { zoneName } from '../dns/records.ts';
import { startOperation, type OperationDeps } from '../operations/operations.ts';
import { environmentIds, findEnvironment } from '../sites/environments.ts';
import { environmentKey } from '../sites/sites.ts';
import { emitEvent } from '../webhooks/events.ts';
import { DomainConflict } from './domain-conflict.ts';
import type { EnvironmentDomainsInput } from './site-domains.operations.ts';
import { verificationRecord } from './verification-record.ts';

/** At most this many custom domains per environment (each is in the edge's server_name). */
export const DOMAINS_PER_ENVIRONMENT = 50;

type Actor = { teamId: number; userId: number };

/** The verified names an environment's edge route serves beside its default address. */
export async function verifiedDomains(db: Db | Knex.Transaction, environmentIds: number[]): Promise<Map<number, string[]>> {
  const rows =
    environmentIds.length === 0 ? [] : await SiteDomain.query(db).whereIn('environment_id', environmentIds).where({ status: 'verified' }).orderBy('name');
  const byEnvironment = new Map<number, string[]>();
  for (const row of rows) byEnvironment.set(row.environment_id, [...(byEnvironment.get(row.environment_id) ?? []), row.name]);
  return byEnvironment;
}

/** Where verification looks: the resolvers to ask, Berth's name servers, the platform's own base domain; how long a pending claim lives. */
export type DomainSettings = { resolvers: string[]; nameservers: readonly string[]; baseDomain: string; claimTtlHours: number };

/** A claim that holds (or may come to hold) its name; `lapsed` and `superseded` ones are void. */
const LIVE: SiteDomainStatus[] = ['pending', 'verified'];

/**
 * Pending claims past their deadline become `lapsed`. Done lazily, wherever claims are read or
 * written, in the database's clock: a pending claim blocks no other team, so nothing waits on a sweep.
 */
async function lapseOverdue(db: Db | Knex.Transaction, where: { id: number } | { environment_id: number } | { name: string }): Promise<void> {
  await SiteDomain.query(db).where(where).where({ status: 'pending' }).whereRaw('verify_by <= now()').patch({ status: 'lapsed' });
}

/** Claims on one name are decided one at a time (an add verified at once, a verification): no two win. */
async function lockName(trx: Knex.Transaction, name: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`site_domains:${name}`]);
}

/** The other pending claims on a name just proven: void, `superseded` (their teams see that, not who won). */
async function supersedeOthers(trx: Knex.Transaction, winner: SiteDomain): Promise<void> {
  await SiteDomain.query(trx).where({ name: winner.name, status: 'pending' }).whereNot({ id: winner.id }).patch({ status: 'superseded' });
}

/** 409 unless the claim is pending: verified already, lapsed (add it again), or superseded. */
function assertVerifiable(claim: SiteDomain): void {
  if (claim.status === 'verified') throw new Conflict(`${claim.name} is verified already`);
  if (claim.status === 'lapsed') {
    throw new DomainConflict(
      'claim_lapsed',
      `The claim on ${claim.name} lapsed unverified${claim.verify_by ? ` at ${claim.verify_by.toISOString()}` : ''}: remove it and add the domain again for a new token`,
    );
  }
  if (claim.status === 'superseded')
    throw new DomainConflict('claim_superseded', `The claim on ${claim.name} is void: another claim proved control of the name first`);
}

function resolverOf(resolvers: string[]): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (resolvers.length > 0) resolver.setServers(resolvers);
  return resolver;
}

/**
 * The team's zone hosted here that holds `name`, when the world is sent to Berth's name servers for
 * it (its NS records, as the resolvers see them, name one of them): control of a zone delegated here
 * is control of the name. A zone merely created here proves nothing (anyone can create one).
 */
async function delegatedZoneOf(db: Db, settings: DomainSettings, teamId: number, name: string): Promise<DnsZone | undefined> {
  const zone = (await DnsZone.query(db).where({ team_id: teamId })).find((candidate) => name === candidate.name || name.endsWith(`.${candidate.name}`));
  if (!zone || settings.nameservers.length === 0) return undefined;
  const servers = await resolverOf(settings.resolvers)
    .resolveNs(zone.name)
    .catch(() => [] as string[]);
  return servers.some((server) => settings.nameservers.includes(server.toLowerCase().replace(/\.$/, ''))) ? zone : undefined;
}

/** A domain's webhook event, written in the transaction that changes it. */
function emitDomainEvent(trx: Knex.Transaction, type: 'domain.added' | 'domain.verified' | 'domain.removed', domain: SiteDomain): Promise<void> {
  return emitEvent(trx, {
    teamId: domain.team_id,
    type,
    data: { domain: { id: Number(domain.id), name: domain.name, status: domain.status }, site_id: domain.site_id, environment_id: domain.environment_id },
  });
}

/** The host WordPress answers at: the primary domain, or the default address. */
function primaryHost(environment: Pick<Environment, 'domain' | 'primary_domain'>): string {
  return environment.primary_domain ?? environment.domain;
}

function startRouting(
  trx: Knex.Transaction,
  deps: OperationDeps,
  actor: Actor,
  environment: Environment,
  reason: string,
  primaryTo?: string,
): Promise<Operation> {
  const moves = primaryTo !== undefined && primaryTo !== primaryHost(environment);
  const input: EnvironmentDomainsInput = {
    ...environmentIds(environment),
    reason,
    ...(moves ? { primary_from: primaryHost(environment), primary_to: primaryTo } : {}),
  };
  return startOperation(trx, deps, 'environment.domains', input, {
    teamId: actor.teamId,
    target: { type: 'environment', id: environment.id },
    serialKeys: [environmentKey(environment)],
    createdByUserId: actor.userId,
  });
}

/**
 * A claim on a name for the environment: `pending` with its own TXT token and a deadline
 * (`verify_by`, settings.claimTtlHours away), or `verified` at once (and routed by an operation) when
 * it lies in a zone the team hosts here and delegates to Berth's name servers; that claim supersedes
 * every other team's pending one. Other teams' pending claims never block it and are never
 * revealed. 409 when the name is verified for any site (`domain_in_use`, naming no team) or the team
 * holds a live claim on it already (`domain_claimed_by_team`). The team's void claims on the name
 * give way to the new one.
 */
export async function addDomain(
  deps: OperationDeps,
  settings: DomainSettings,
  actor: Actor,
  siteId: number,
  kind: string,
  input: { name: string },
): Promise<{ domain: SiteDomain; operation: Operation | null }> {
  const name = zoneName(input.name);
  if (name === settings.baseDomain || name.endsWith(`.${settings.baseDomain}`)) {
    throw ValidationFailed.field('name', `must not be inside ${settings.baseDomain}: those are the platform's own addresses`);
  }
  const zone = await delegatedZoneOf(deps.db, settings, actor.teamId, name);
  return deps.db.transaction(async (trx) => {
    const { environment } = await findEnvironment(trx, actor.teamId, siteId, kind);
    if (environment.status !== 'active') throw new Conflict(`The ${environment.kind} environment is ${environment.status}, not active`);
    if (name === environment.domain) throw new Conflict(`${name} is the environment's own address already`);
    await lockName(trx, name);
    await lapseOverdue(trx, { name });
    await lapseOverdue(trx, { environment_id: environment.id });
    const live = await SiteDomain.query(trx).where({ name }).whereIn('status', LIVE);
    if (live.some((claim) => claim.team_id === actor.teamId))
      throw new DomainConflict('domain_claimed_by_team', `Your team has claimed ${name} already (for one of its environments)`);
    if (live.some((claim) => claim.status === 'verified'))
      throw new DomainConflict('domain_in_use', `The domain ${name} is in use: it is verified for another site`);
    const count = await SiteDomain.query(trx).where({ environment_id: environment.id }).whereIn('status', LIVE).resultSize();
    if (count >= DOMAINS_PER_ENVIRONMENT) throw new Conflict(`An environment has at most ${DOMAINS_PER_ENVIRONMENT} domains`);
    await SiteDomain.query(trx).where({ team_id: actor.teamId, name }).whereNotIn('status', LIVE).delete();
    const domain = await SiteDomain.query(trx)
      .insertAndFetch({
        team_id: actor.teamId,
        site_id: environment.site_id,
        environment_id: environment.id,
        name,
        verification_token: randomBytes(16).toString('hex'),
        ...(zone
          ? { status: 'verified', verified_by: 'hosted_zone', verified_at: new Date() }
          : { verify_by: trx.raw('now() + make_interval(hours => ?)', [settings.claimTtlHours]) }),
      })
      .catch((error: unknown) => {
        // the name lock makes these unreachable; the indexes are the last word all the same
        const { code, constraint } = error as { code?: string; constraint?: string };
        if (code === '23505' && constraint === 'site_domains_verified_name')
          throw new DomainConflict('domain_in_use', `The domain ${name} is in use: it is verified for another site`);
        if (code === '23505') throw new DomainConflict('domain_claimed_by_team', `Your team has claimed ${name} already (for one of its environments)`);
        throw error;
      });
    await emitDomainEvent(trx, 'domain.added', domain);
    if (zone) {
      await supersedeOthers(trx, domain);
      await emitDomainEvent(trx, 'domain.verified', domain);
    }
    return { domain, operation: zone ? await startRouting(trx, deps, actor, environment, `domain ${name} added`) : null };
  });
}

/** The environment's claims, lapsed ones marked so first. */
export async function listDomains(db: Db, teamId: number, siteId: number, kind: string): Promise<SiteDomain[]> {
  const { environment } = await findEnvironment(db, teamId, siteId, kind);
  await lapseOverdue(db, { environment_id: environment.id });
  return SiteDomain.query(db).where({ environment_id: environment.id }).orderBy('name');
}

export async function findDomain(db: Db | Knex.Transaction, environment: Environment, id: number): Promise<SiteDomain> {
  const domain = await SiteDomain.query(db).findOne({ id, environment_id: environment.id });
  if (!domain) throw new NotFound('No such domain');
  return domain;
}

/** What the resolvers answer for the domain's TXT record; null when there is none (NXDOMAIN, no data). */
export async function lookupVerification(
  resolvers: string[],
  domain: Pick<SiteDomain, 'name' | 'verification_token'>,
): Promise<{ found: string[]; expected: string }> {
  const record = verificationRecord(domain.name, domain.verification_token);
  try {
    const answers = await resolverOf(resolvers).resolveTxt(record.name);
    return { found: answers.map((strings) => strings.join('')), expected: record.value };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { found: [], expected: record.value };
    throw new Conflict(`The DNS lookup of ${record.name} failed (${code ?? (error as Error).message}); try again`);
  }
}

/**
 * Checks the claim's TXT record now: found, the claim is verified (it holds the name), every other
 * team's pending claim on the name is superseded, and an `environment.domains` operation puts it on
 * the edge (202). Not found, 409 saying what was asked and what was found; a lapsed or superseded
 * claim, 409 with that reason.
 */
export async function verifyDomain(
  deps: OperationDeps,
  resolvers: string[],
  actor: Actor,
  siteId: number,
  kind: string,
  id: number,
): Promise<{ domain: SiteDomain; operation: Operation }> {
  const { environment } = await findEnvironment(deps.db, actor.teamId, siteId, kind);
  await lapseOverdue(deps.db, { id: (await findDomain(deps.db, environment, id)).id }); // the team's own claim, found first
  const pending = await findDomain(deps.db, environment, id);
  assertVerifiable(pending);
  const { found, expected } = await lookupVerification(resolvers, pending);
  if (!found.includes(expected)) {
    const record = verificationRecord(pending.name, pending.verification_token);
    throw new Conflict(
      `No TXT record "${expected}" at ${record.name} yet (found ${found.length === 0 ? 'none' : found.map((value) => `"${value}"`).join(', ')}); DNS changes can take a while to be seen`,
    );
  }
  return deps.db.transaction(async (trx) => {
    // as it is now: removed, verified, superseded by another team's proof, or lapsed during the lookup
    await lockName(trx, pending.name);
    await lapseOverdue(trx, { id: pending.id });
    const current = await SiteDomain.query(trx).findById(pending.id).forUpdate();
    if (!current) throw new NotFound('No such domain');
    assertVerifiable(current);
    const domain = await SiteDomain.query(trx).patchAndFetchById(pending.id, {
      status: 'verified',
      verified_by: 'txt',
      verified_at: new Date(),
      verify_by: null,
    });
    await supersedeOthers(trx, domain);
    await emitDomainEvent(trx, 'domain.verified', domain);
    return { domain, operation: await startRouting(trx, deps, actor, environment, `domain ${domain.name} verified`) };
  });
}

/**
 * The domain goes; a verified one leaves the edge by an operation (its route rewritten without it).
 * The primary domain hands WordPress back to the default address first (its URLs rewritten).
 */
export async function removeDomain(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  id: number,
): Promise<{ domain: SiteDomain; operation: Operation | null }> {
  return deps.db.transaction(async (trx) => {
    // locked and read afresh: its primary is what an earlier operation left, not what it was before the lock
    const { environment: found } = await findEnvironment(trx, actor.teamId, siteId, kind);
    const environment = (await Environment.query(trx).findById(found.id).forUpdate())!;
    const domain = await findDomain(trx, environment, id);
    await SiteDomain.query(trx).deleteById(domain.id);
    await emitDomainEvent(trx, 'domain.removed', domain);
    if (domain.status !== 'verified') return { domain, operation: null };
    const back = environment.primary_domain === domain.name ? environment.domain : undefined;
    return { domain, operation: await startRouting(trx, deps, actor, environment, `domain ${domain.name} removed`, back) };
  });
}

/**
 * Makes a verified domain (or, with null, the default address) the one WordPress answers at: an
 * `environment.domains` operation rewrites its address everywhere and redirects the other domains
 * there. 409 for a pending domain, or when it is the primary already.
 */
export async function setPrimaryDomain(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  domainId: number | null,
): Promise<{ primary: string; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    // locked and read afresh: its primary is what an earlier operation left, not what it was before the lock
    const { environment: found } = await findEnvironment(trx, actor.teamId, siteId, kind);
    const environment = (await Environment.query(trx).findById(found.id).forUpdate())!;
    if (environment.status !== 'active') throw new Conflict(`The ${environment.kind} environment is ${environment.status}, not active`);
    let primary = environment.domain;
    if (domainId !== null) {
      const domain = await findDomain(trx, environment, domainId);
      if (domain.status !== 'verified') throw new Conflict(`${domain.name} is ${domain.status}, not verified`);
      primary = domain.name;
    }
    if (primary === primaryHost(environment)) throw new Conflict(`${primary} is the primary address already`);
    return { primary, operation: await startRouting(trx, deps, actor, environment, `primary address ${primary}`, primary) };
  });
}
