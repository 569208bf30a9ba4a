import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { addDomain, listDomains, removeDomain, setPrimaryDomain, verifyDomain } from '../../shared/domains/site-domains/site-domains.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { addDomainBody, domainJson, domainsDescription, domainView, primaryDomainBody } from './site-domains.schemas.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { environmentParams, rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['domains'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team, no such environment, or no such domain of it", schema: errorEnvelope };
const base = '/sites/:id/environments/:env/domains';
const withOperation = dataEnvelope(z.object({ domain: domainJson, operation: operationJson }));

/** Custom domains of environments (issue 13): verified by a TXT record (or a zone hosted here), then served by the edge. */
export function domainsRoutes(ctx: Context) {
  const actorOf = (res: Response) => ({ teamId: principalOf(res).team_id, userId: principalOf(res).user_id });
  const siteAndKind = (req: Request): [number, string] => [pathIdOf(req, 'id', 'Site'), String(req.params.env)];

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: base,
        params: environmentParams,
        operationId: 'domains.list',
        summary: "The environment's custom domains",
        description: domainsDescription,
        permission: 'domains:read',
        responses: { 200: { description: 'By name', schema: dataEnvelope(z.array(domainJson)) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        sendData(req, res, (await listDomains(ctx.db, principalOf(res).team_id, siteId, kind)).map(domainView));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: base,
        params: environmentParams,
        operationId: 'domains.create',
        summary: 'Add a custom domain',
        description: domainsDescription,
        body: addDomainBody,
        permission: 'domains:create',
        audit: { action: 'domain.added', target: 'site', targetParam: 'id' },
        responses: {
          201: {
            description:
              'The domain, `pending`: publish its `verification` TXT record, then verify before `verify_by`. The same answer whether or not another team claimed the name without verifying it',
            schema: dataEnvelope(z.object({ domain: domainJson })),
          },
          202: {
            description:
              "The domain, verified at once (inside a zone the team hosts here and delegates to Berth's name servers; other teams' pending claims on it are superseded), and the operation putting it on the edge",
            schema: withOperation,
          },
          403: forbidden,
          404: notFound,
          409: {
            description:
              'CONFLICT: `details.reason` `domain_in_use` (the name is verified for another site; no team named), `domain_claimed_by_team` (the team has a pending or verified claim on it already); ' +
              "or (no reason) it is the environment's own address, the environment is not active, or it has its most domains",
            schema: errorEnvelope,
          },
          422: { description: 'VALIDATION_ERROR: `name` is not a host name', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(addDomainBody, req.body);
        const [siteId, kind] = siteAndKind(req);
        const settings = {
          resolvers: ctx.config.domainVerifyResolvers,
          nameservers: ctx.config.dns.kind === 'none' ? [] : ctx.config.dns.nameservers,
          baseDomain: ctx.config.sites.baseDomain,
          claimTtlHours: ctx.config.domainClaimTtlHours,
        };
        const { domain, operation } = await addDomain(ctx, settings, actorOf(res), siteId, kind, body);
        if (operation) return sendAccepted(ctx, req, res, operation, { domain: domainView(domain) });
        sendData(req, res, { domain: domainView(domain) }, 201);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${base}/:domain/verify`,
        params: { ...environmentParams, domain: rowId('domain') },
        operationId: 'domains.verify',
        summary: 'Verify a domain by its TXT record',
        description: domainsDescription,
        permission: 'domains:update',
        audit: { action: 'domain.verified', target: 'site', targetParam: 'id' },
        responses: {
          202: { description: 'Verified: the operation putting it on the edge', schema: withOperation },
          403: forbidden,
          404: notFound,
          409: {
            description:
              'CONFLICT: the TXT record is not there (the message says what was found), the domain is verified already, or `details.reason` ' +
              '`claim_lapsed` (not verified by `verify_by`: add it again) or `claim_superseded` (another claim proved control of the name first)',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const { domain, operation } = await verifyDomain(ctx, ctx.config.domainVerifyResolvers, actorOf(res), siteId, kind, pathIdOf(req, 'domain', 'Domain'));
        await sendAccepted(ctx, req, res, operation, { domain: domainView(domain) });
      },
    )
    .route(
      {
        ...common,
        method: 'put',
        path: '/sites/:id/environments/:env/primary-domain',
        params: environmentParams,
        operationId: 'domains.setPrimary',
        summary: 'Choose the address WordPress answers at',
        description:
          "A verified domain (`domain_id`), or the environment's default address (`null`), becomes its primary: an `environment.domains` " +
          "operation records it, writes wp-config.php's WP_HOME and WP_SITEURL, rewrites every mention of the old address in the database " +
          '(serialized data kept valid), and has the edge send every other domain there (301, path kept). Removing the primary domain ' +
          'hands the site back to its default address the same way.',
        body: primaryDomainBody,
        permission: 'domains:update',
        audit: { action: 'domain.primary_changed', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'The new primary address and the operation moving the site there',
            schema: dataEnvelope(z.object({ primary: z.string(), operation: operationJson })),
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the domain is not verified, it is the primary already, or the environment is not active', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(primaryDomainBody, req.body);
        const [siteId, kind] = siteAndKind(req);
        const { primary, operation } = await setPrimaryDomain(ctx, actorOf(res), siteId, kind, body.domain_id);
        await sendAccepted(ctx, req, res, operation, { primary });
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: `${base}/:domain`,
        params: { ...environmentParams, domain: rowId('domain') },
        operationId: 'domains.delete',
        summary: 'Remove a custom domain',
        permission: 'domains:delete',
        audit: { action: 'domain.removed', target: 'site', targetParam: 'id' },
        responses: {
          202: { description: 'A verified domain: the operation taking it off the edge', schema: withOperation },
          204: { description: 'A pending, lapsed or superseded domain: gone' },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const { domain, operation } = await removeDomain(ctx, actorOf(res), siteId, kind, pathIdOf(req, 'domain', 'Domain'));
        if (operation) return sendAccepted(ctx, req, res, operation, { domain: domainView(domain) });
        res.status(204).end();
      },
    );
}
