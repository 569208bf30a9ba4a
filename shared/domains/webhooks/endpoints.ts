import type { Knex } from 'knex';
import { seal, unseal } from '../../crypto/sealed.ts';
import type { Db } from '../../db/knex.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { countOf, onePage, type Page } from '../teams/page.ts';
import type { EndpointRow } from './endpoint-rows.ts';
import { isKnownEventFilter } from './event-catalogue.ts';
import { newSigningSecret } from './signing.ts';
import { internalTargetReason } from './target-guard.ts';

/** Endpoints a team may have: each event is sent to each, so this bounds a team's fan-out. */
export const MAX_ENDPOINTS_PER_TEAM = 20;
/** How long a rotated-out secret still signs (beside the new one) unless the rotation says otherwise. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 3600;

export type EndpointSettings = { secretKey: Buffer; allowPrivateTargets: boolean };
export type EndpointInput = { url: string; description?: string | undefined; event_types?: string[] | undefined };
export type EndpointChange = Partial<EndpointInput> & { enabled?: boolean | undefined };

/** An endpoint with its signing secret in clear, for the one answer that shows it. */
export type EndpointWithSecret = { endpoint: EndpointRow; secret: string };

async function checkTarget(settings: EndpointSettings, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ValidationFailed.field('url', 'is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw ValidationFailed.field('url', 'must be an http or https URL');
  if (url.username || url.password) throw ValidationFailed.field('url', 'must not carry a user name or password (sign deliveries with the secret instead)');
  if (url.hash) throw ValidationFailed.field('url', 'must not have a #fragment');
  if (!settings.allowPrivateTargets) {
    const reason = await internalTargetReason(url);
    if (reason) throw ValidationFailed.field('url', `must be reachable on the public internet (${reason})`);
  }
  return url.toString();
}

function checkFilters(types: string[] | undefined): string[] | undefined {
  if (types === undefined) return undefined;
  const unknown = types.filter((type) => !isKnownEventFilter(type));
  if (unknown.length > 0)
    throw ValidationFailed.field(
      'event_types',
      `unknown event type ${unknown.map((type) => `"${type}"`).join(', ')} (GET /v1/webhooks/event-types lists them)`,
    );
  return [...new Set(types)].sort();
}

export async function createEndpoint(
  db: Db,
  settings: EndpointSettings,
  actor: { teamId: number; userId: number },
  input: EndpointInput,
): Promise<EndpointWithSecret> {
  const url = await checkTarget(settings, input.url);
  const eventTypes = checkFilters(input.event_types) ?? [];
  const secret = newSigningSecret();
  const endpoint = await db.transaction(async (trx) => {
    // the team row, locked, makes the count and the insert one step for concurrent creations
    await trx('teams').where({ id: actor.teamId }).forUpdate().first('id');
    const count = await countOf(trx('webhook_endpoints').where({ team_id: actor.teamId }), 'id');
    if (count >= MAX_ENDPOINTS_PER_TEAM) throw new Conflict(`A team has at most ${MAX_ENDPOINTS_PER_TEAM} webhook endpoints`);
    const [row] = (await trx('webhook_endpoints')
      .insert({
        team_id: actor.teamId,
        url,
        description: input.description ?? '',
        event_types: eventTypes,
        secret_sealed: seal(settings.secretKey, secret),
        created_by_user_id: actor.userId,
      })
      .returning('*')) as EndpointRow[];
    return row!;
  });
  return { endpoint, secret };
}

export async function listEndpoints(db: Db, teamId: number, page: Page): Promise<{ rows: EndpointRow[]; total: number }> {
  const base = db('webhook_endpoints').where({ team_id: teamId });
  const [rows, total] = await Promise.all([onePage(base.clone().orderBy('id'), page) as Promise<EndpointRow[]>, countOf(base.clone(), 'id')]);
  return { rows, total };
}

/** Another team's endpoint is not found, like one that does not exist. */
export async function findEndpoint(db: Db | Knex.Transaction, teamId: number, id: number, lock = false): Promise<EndpointRow> {
  const query = db('webhook_endpoints').where({ id, team_id: teamId }).first();
  // NO KEY: deliveries referencing it may still be inserted meanwhile (fan-out takes a key-share lock)
  const row = (await (lock ? query.forNoKeyUpdate() : query)) as EndpointRow | undefined;
  if (!row) throw new NotFound('No such webhook endpoint');
  return row;
}

/** Enabling again starts afresh: the failure streak is forgotten. */
export async function updateEndpoint(db: Db, settings: EndpointSettings, teamId: number, id: number, change: EndpointChange): Promise<EndpointRow> {
  const url = change.url === undefined ? undefined : await checkTarget(settings, change.url);
  const eventTypes = checkFilters(change.event_types);
  return db.transaction(async (trx) => {
    const current = await findEndpoint(trx, teamId, id, true);
    const patch: Record<string, unknown> = { updated_at: new Date() };
    if (url !== undefined) patch.url = url;
    if (change.description !== undefined) patch.description = change.description;
    if (eventTypes !== undefined) patch.event_types = eventTypes;
    if (change.enabled === true && !current.enabled) Object.assign(patch, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
    if (change.enabled === false && current.enabled) Object.assign(patch, { enabled: false, disabled_reason: 'manual', disabled_at: new Date() });
    const [row] = (await trx('webhook_endpoints').where({ id }).update(patch).returning('*')) as EndpointRow[];
    if (change.enabled === false && current.enabled) await failPendingDeliveries(trx, id, 'The endpoint was disabled');
    return row!;
  });
}

export async function deleteEndpoint(db: Db, teamId: number, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    await findEndpoint(trx, teamId, id, true);
    await trx('webhook_endpoints').where({ id }).delete();
  });
}

export function endpointSecret(settings: Pick<EndpointSettings, 'secretKey'>, endpoint: EndpointRow): string {
  return unseal(settings.secretKey, endpoint.secret_sealed);
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its overlap. */
export function signingSecrets(settings: Pick<EndpointSettings, 'secretKey'>, endpoint: EndpointRow, now = new Date()): string[] {
  const secrets = [endpointSecret(settings, endpoint)];
  if (endpoint.previous_secret_sealed && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now) {
    secrets.push(unseal(settings.secretKey, endpoint.previous_secret_sealed));
  }
  return secrets;
}

/**
 * A new secret signs from now on; the one it replaces keeps signing beside it for `overlapSeconds`
 * (0: at once no more), so receivers can switch without losing a delivery. A secret rotated out
 * before its own overlap ended is dropped: only the latest previous one overlaps.
 */
export async function rotateSecret(db: Db, settings: EndpointSettings, teamId: number, id: number, overlapSeconds: number): Promise<EndpointWithSecret> {
  const secret = newSigningSecret();
  const endpoint = await db.transaction(async (trx) => {
    const current = await findEndpoint(trx, teamId, id, true);
    const [row] = (await trx('webhook_endpoints')
      .where({ id })
      .update({
        secret_sealed: seal(settings.secretKey, secret),
        previous_secret_sealed: overlapSeconds > 0 ? current.secret_sealed : null,
        previous_secret_expires_at: overlapSeconds > 0 ? new Date(Date.now() + overlapSeconds * 1000) : null,
        updated_at: new Date(),
      })
      .returning('*')) as EndpointRow[];
    return row!;
  });
  return { endpoint, secret };
}

/** Deliveries that will not be attempted any more say so rather than waiting forever. */
export async function failPendingDeliveries(trx: Knex.Transaction, endpointId: number, reason: string): Promise<void> {
  await trx('webhook_deliveries')
    .where({ endpoint_id: endpointId, status: 'pending' })
    .update({ status: 'failed', last_error: reason, next_attempt_at: null, leased_until: null, finished_at: new Date() });
}
