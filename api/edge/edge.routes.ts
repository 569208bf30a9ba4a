import type { Request } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { changePageCache, purgePageCacheOf } from '../../shared/domains/edge/page-cache.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { environmentParams } from '../openapi/path-parameters.ts';
import { operationJson, sendAccepted } from '../operations/operations.schemas.ts';
import { environmentJson, environmentView } from '../sites/sites.schemas.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { pageCacheBody, pageCacheDescription, purgeBody } from './edge.schemas.ts';

const common = { tags: ['edge'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team, or it has no such environment", schema: errorEnvelope };
const invalid = { description: 'VALIDATION_ERROR: a path or prefix the edge cannot take (`details` names it)', schema: errorEnvelope };
const conflict = { description: 'CONFLICT: the environment (or its site) is being deleted', schema: errorEnvelope };
const accepted = (what: string) => ({
  description: `Accepted: the environment and the operation ${what} (also at \`Location\`)`,
  schema: dataEnvelope(z.object({ environment: environmentJson, operation: operationJson })),
});
const audit = (action: string) => ({ action, target: 'site', targetParam: 'id' });

function siteAndKind(req: Request): [number, string] {
  return [pathIdOf(req, 'id', 'Site'), String(req.params.env)];
}

/** An environment's edge settings (the page cache) and the purge of its cached pages. */
export function edgeRoutes(ctx: Context) {
  const actorOf = (res: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(res);
    return { teamId: principal.team_id, userId: principal.user_id };
  };
  return v1Router()
    .route(
      {
        ...common,
        method: 'patch',
        path: '/sites/:id/environments/:env/cache',
        params: environmentParams,
        operationId: 'edge.updatePageCache',
        summary: "Turn an environment's page cache on or off, or set its exclusions",
        description:
          `${pageCacheDescription}\n\nThe environment shows the new settings at once; the answer is 202 with an \`environment.edge\` operation ` +
          '(steps `route`: its edge file rewritten and a hot reload, `verify`: the front page through the edge, `purge_cache`: pages cached under the old settings removed).',
        body: pageCacheBody,
        permission: 'sites:update',
        audit: audit('environment.page_cache_changed'),
        responses: { 202: accepted('serving them'), 403: forbidden, 404: notFound, 409: conflict, 422: invalid },
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
        operationId: 'edge.purgePageCache',
        summary: "Purge an environment's cached pages",
        description:
          'Answers 202 with an `environment.cache_purge` operation that removes the cached pages at the edge: all of them, or the `paths` ' +
          '(exact, as requested, for every scheme and host; `/blog/*` for every page below `/blog/`). An environment whose cache is off has nothing to purge: the operation succeeds at once.',
        body: purgeBody,
        permission: 'sites:cache',
        audit: audit('environment.page_cache_purged'),
        responses: { 202: accepted('purging them'), 403: forbidden, 404: notFound, 409: conflict, 422: invalid },
      },
      async (req, res) => {
        const body = parseOrFail(purgeBody, req.body ?? {});
        const { environment, operation } = await purgePageCacheOf(ctx, actorOf(res), ...siteAndKind(req), body.paths);
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    );
}
