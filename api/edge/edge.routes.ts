import type { Request } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { changeHttps, changePasswordProtection } from '../../shared/domains/edge/edge-changes.ts';
import { changePageCache, purgePageCacheOf } from '../../shared/domains/edge/page-cache.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope } from '../v1/envelope.ts';
import { operationJson, sendAccepted } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { environmentJson, environmentView } from '../sites/sites.schemas.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { environmentParams } from '../openapi/path-parameters.ts';
import { httpsBody, pageCacheBody, pageCacheDescription, passwordProtectionBody, purgeBody } from './edge.schemas.ts';

const common = { tags: ['environments'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const accepted = {
  description: 'Accepted: the environment with its new settings and the `environment.edge` operation applying them (also at `Location`)',
  schema: dataEnvelope(z.object({ environment: environmentJson, operation: operationJson })),
};
const errors = {
  403: { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope },
  404: { description: "NOT_FOUND: no such site in the caller's team, or it has no such environment", schema: errorEnvelope },
};
const deleting = { description: 'CONFLICT: the environment (or its site) is being deleted', schema: errorEnvelope };
const invalidPaths = { description: 'VALIDATION_ERROR: a path or prefix the edge cannot take (`details` names it)', schema: errorEnvelope };
const audit = (action: string) => ({ action, target: 'site', targetParam: 'id' });

function siteAndKind(req: Request): [number, string] {
  return [pathIdOf(req, 'id', 'Site'), String(req.params.env)];
}

/**
 * An environment's edge settings (issue 23): HTTPS forcing with HSTS, password protection, the page
 * cache (and the purge of its pages).
 * Each change is recorded at once and applied by an `environment.edge` operation.
 */
export function edgeRoutes(ctx: Context) {
  const actorOf = (res: Parameters<typeof principalOf>[0]) => ({ teamId: principalOf(res).team_id, userId: principalOf(res).user_id });
  return v1Router()
    .route(
      {
        ...common,
        method: 'patch',
        path: '/sites/:id/environments/:env/https',
        params: environmentParams,
        operationId: 'environments.https',
        summary: 'Force HTTPS, set HSTS',
        description:
          "Forcing (the default once an installed certificate covers the address) moves WordPress's URLs (WP_HOME, WP_SITEURL and every `http://<name>` of the environment in its database, serialized data kept valid) to https, then the edge answers HTTP with 301 to `https://<primary>` (ACME challenges excepted) and HTTPS with `Strict-Transport-Security`. Turning it off stops the redirect first, then moves WordPress back.",
        body: httpsBody,
        permission: 'sites:update',
        audit: audit('environment.https_changed'),
        responses: {
          202: accepted,
          ...errors,
          409: {
            description: 'CONFLICT: forcing asked but no installed certificate covers the address, or the environment is being deleted',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const body = parseOrFail(httpsBody, req.body);
        const { environment, operation } = await changeHttps(ctx, actorOf(res), ...siteAndKind(req), body);
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    )
    .route(
      {
        ...common,
        method: 'put',
        path: '/sites/:id/environments/:env/password-protection',
        params: environmentParams,
        operationId: 'environments.passwordProtection',
        summary: 'Protect an environment with a password',
        description:
          'HTTP basic auth at the edge for every page of the environment (ACME challenges excepted). New staging and development environments start protected (their credentials are in the answer that made them). The password is stored only as a SHA-512-crypt hash.',
        body: passwordProtectionBody,
        permission: 'sites:update',
        audit: audit('environment.password_protection_changed'),
        responses: {
          202: accepted,
          ...errors,
          409: { description: 'CONFLICT: the environment is being deleted', schema: errorEnvelope },
          422: { description: 'VALIDATION_ERROR: turning protection on needs a user name and a password (kept ones count)', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(passwordProtectionBody, req.body);
        const { environment, operation } = await changePasswordProtection(ctx, actorOf(res), ...siteAndKind(req), body);
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/sites/:id/environments/:env/cache',
        params: environmentParams,
        operationId: 'environments.pageCache',
        summary: "Turn an environment's page cache on or off, or set its exclusions",
        description:
          `${pageCacheDescription}\n\nThe environment shows the new settings at once; the \`environment.edge\` operation rewrites its edge route (a hot reload), ` +
          'checks the front page and removes the pages cached under the old settings (`purge_cache`).',
        body: pageCacheBody,
        permission: 'sites:update',
        audit: audit('environment.page_cache_changed'),
        responses: { 202: accepted, ...errors, 409: deleting, 422: invalidPaths },
      },
      async (req, res) => {
        const body = parseOrFail(pageCacheBody, req.body);
        const { environment, operation } = await changePageCache(ctx, actorOf(res), ...siteAndKind(req), body);
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/sites/:id/environments/:env/cache/purge',
        params: environmentParams,
        operationId: 'environments.purgePageCache',
        summary: "Purge an environment's cached pages",
        description:
          'Answers 202 with an `environment.cache_purge` operation that removes the cached pages at the edge: all of them, or the `paths` ' +
          '(exact, as requested, for every scheme and host; `/blog/*` for every page below `/blog/`). An environment whose cache is off has nothing to purge: the operation succeeds without touching the node.',
        body: purgeBody,
        permission: 'sites:cache',
        audit: audit('environment.page_cache_purged'),
        responses: {
          202: { ...accepted, description: 'Accepted: the environment and the `environment.cache_purge` operation (also at `Location`)' },
          ...errors,
          409: deleting,
          422: invalidPaths,
        },
      },
      async (req, res) => {
        const body = parseOrFail(purgeBody, req.body ?? {});
        const { environment, operation } = await purgePageCacheOf(ctx, actorOf(res), ...siteAndKind(req), body.paths);
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    );
}
