import type { Context } from '../../shared/context.ts';
import { findEntitlements, setEntitlements } from '../../shared/domains/sites/entitlements.ts';
import { cloneSite, createSite, deleteSite, environmentsOfSite, findSite, listSites, renameSite } from '../../shared/domains/sites/sites.ts';
import { ValidationFailed } from '../../shared/errors.ts';
import { z } from 'zod';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import {
  cloneSiteBody,
  createSiteBody,
  entitlementsBody,
  entitlementsJson,
  entitlementsView,
  phpVersionsJson,
  siteJson,
  siteView,
  updateSiteBody,
} from './sites.schemas.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['sites'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team", schema: errorEnvelope };

/** Sites of the caller's team (issue 6); the work itself is done by operations. */
export function sitesRoutes(ctx: Context) {
  const settings = { secretKey: ctx.config.secrets.secretKey, baseDomain: ctx.config.sites.baseDomain };
  return v1Router()
    .route(
      {
        ...common,
        method: 'post',
        path: '/sites',
        operationId: 'sites.create',
        summary: 'Create a WordPress site',
        description:
          "Checks the team's plan (402 PAYMENT_REQUIRED without a plan that allows another site, `details.limit` says which), places the " +
          'production environment on an online node of the region with room (least loaded first; 409 when none has), and answers 202 ' +
          "with the site and its `site.create` operation (also at `Location`). The admin's password is never stored: WordPress e-mails " +
          'a one-time link to set it to `wordpress.admin_email` once the site is installed.',
        body: createSiteBody,
        permission: 'sites:create',
        audit: { action: 'site.created', target: 'site' },
        responses: {
          202: {
            description: 'Accepted: the site (status `creating`) and the operation building it',
            schema: dataEnvelope(z.object({ site: siteJson, operation: operationJson })),
          },
          402: { description: 'PAYMENT_REQUIRED: no plan, or its `max_sites` / `max_disk_bytes` reached (`details.limit`)', schema: errorEnvelope },
          403: forbidden,
          409: { description: 'CONFLICT: the slug is taken, or no node can take the site now', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(createSiteBody, req.body);
        if (!ctx.config.sites.phpVersions.includes(body.php_version))
          throw ValidationFailed.field('php_version', `must be one of ${ctx.config.sites.phpVersions.join(', ')}`);
        const principal = principalOf(res);
        const { site, environment, operation } = await createSite(
          ctx,
          settings,
          { teamId: principal.team_id, userId: principal.user_id },
          {
            name: body.name,
            slug: body.slug,
            region: body.region,
            phpVersion: body.php_version,
            wordpress: {
              title: body.wordpress.title,
              adminUser: body.wordpress.admin_user,
              adminEmail: body.wordpress.admin_email,
              locale: body.wordpress.locale,
            },
          },
        );
        await sendAccepted(ctx, req, res, operation, { site: siteView(site, [environment]) });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites',
        operationId: 'sites.list',
        summary: "List the team's sites, newest first",
        permission: 'sites:read',
        query: pageQuery,
        responses: { 200: { description: 'One page of sites with their environments', schema: listEnvelope(siteJson) }, 403: forbidden },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { sites, environments, total } = await listSites(ctx.db, principalOf(res).team_id, page);
        sendList(
          req,
          res,
          sites.map((site) => siteView(site, environments)),
          page,
          total,
        );
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites/php-versions',
        operationId: 'sites.listPhpVersions',
        summary: 'The PHP versions sites can run',
        description: "For `php_version` when creating a site or changing an environment's; the first is the default.",
        permission: 'sites:read',
        responses: { 200: { description: 'The versions offered', schema: dataEnvelope(phpVersionsJson) }, 403: forbidden },
      },
      async (req, res) => {
        sendData(req, res, { versions: ctx.config.sites.phpVersions, default: ctx.config.sites.phpVersions[0]! });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites/:id',
        params: { id: rowId('site') },
        operationId: 'sites.get',
        summary: 'One site with its environments',
        permission: 'sites:read',
        responses: { 200: { description: 'The site', schema: dataEnvelope(siteJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const site = await findSite(ctx.db, principalOf(res).team_id, pathIdOf(req, 'id', 'Site'));
        sendData(req, res, siteView(site, await environmentsOfSite(ctx.db, site.id)));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/sites/:id',
        params: { id: rowId('site') },
        operationId: 'sites.update',
        summary: 'Rename a site',
        description: "Only the name changes: the slug is part of every environment's address.",
        body: updateSiteBody,
        permission: 'sites:update',
        audit: { action: 'site.updated', target: 'site' },
        responses: {
          200: { description: 'The site', schema: dataEnvelope(siteJson) },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the site is being deleted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(updateSiteBody, req.body);
        const site = await renameSite(ctx.db, principalOf(res).team_id, pathIdOf(req, 'id', 'Site'), body.name);
        sendData(req, res, siteView(site, await environmentsOfSite(ctx.db, site.id)));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/sites/:id/clone',
        params: { id: rowId('site') },
        operationId: 'sites.clone',
        summary: 'Clone a site',
        description:
          "A new site from one of this site's environments (`source`, production unless told): its production environment is made on the " +
          "same node from the source's files and database, with every mention of the source's address rewritten to the new one (PHP-serialized " +
          'data kept valid). The plan is checked as for a new site (402). Answers 202 with the new site and its `site.clone` operation; ' +
          'the source keeps running and waits only for operations already running on it.',
        body: cloneSiteBody,
        permission: 'sites:create',
        audit: { action: 'site.cloned', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'Accepted: the new site (status `creating`) and the operation building it',
            schema: dataEnvelope(z.object({ site: siteJson, operation: operationJson })),
          },
          402: { description: 'PAYMENT_REQUIRED: the plan allows no other site (`details.limit`)', schema: errorEnvelope },
          403: forbidden,
          404: { description: "NOT_FOUND: no such site in the caller's team, or it has no such environment", schema: errorEnvelope },
          409: { description: 'CONFLICT: the slug is taken, the source environment is not active, or the site is being deleted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(cloneSiteBody, req.body);
        const principal = principalOf(res);
        const { site, environment, operation } = await cloneSite(
          ctx,
          settings,
          { teamId: principal.team_id, userId: principal.user_id },
          pathIdOf(req, 'id', 'Site'),
          {
            name: body.name,
            slug: body.slug,
            sourceKind: body.source,
          },
        );
        await sendAccepted(ctx, req, res, operation, { site: siteView(site, [environment]) });
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: '/sites/:id',
        params: { id: rowId('site') },
        operationId: 'sites.delete',
        summary: 'Delete a site',
        description:
          'Marks the site and its environments `deleting` and answers 202 with the `site.delete` operation (also at `Location`): it removes the ' +
          'edge route, the container, the database and its user, and the files from the node, then the site. It waits for an operation ' +
          'still running on the site (its creation). A deletion that fails leaves the site `failed`; delete it again.',
        permission: 'sites:delete',
        audit: { action: 'site.deleted', target: 'site' },
        responses: {
          202: {
            description: 'Accepted: the site (status `deleting`) and the operation removing it',
            schema: dataEnvelope(z.object({ site: siteJson, operation: operationJson })),
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the site is already being deleted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const { site, environments, operation } = await deleteSite(ctx, { teamId: principal.team_id, userId: principal.user_id }, pathIdOf(req, 'id', 'Site'));
        await sendAccepted(ctx, req, res, operation, { site: siteView(site, environments) });
      },
    )
    .route(
      {
        ...common,
        tags: ['plans'],
        method: 'get',
        path: '/entitlements',
        operationId: 'entitlements.get',
        summary: "What the team's plan allows",
        permission: 'teams:read',
        responses: {
          200: { description: "The plan's limits", schema: dataEnvelope(entitlementsJson) },
          403: forbidden,
          404: { description: 'NOT_FOUND: the team has no plan yet', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        sendData(req, res, entitlementsView(await findEntitlements(ctx.db, principalOf(res).team_id)));
      },
    )
    .route(
      {
        ...common,
        tags: ['plans'],
        method: 'put',
        path: '/admin/teams/:team_id/entitlements',
        params: { team_id: rowId('team') },
        operationId: 'entitlements.set',
        summary: "Set what a team's plan allows (operators)",
        description:
          'For teams billed outside Berth: a subscription writes this row itself when it becomes active (and removes it when it ends), so a later payment overwrites what is set here. Lowering a limit below what a team uses stops new sites, it removes nothing.',
        operator: true,
        body: entitlementsBody,
        audit: { action: 'entitlements.set', target: 'team', targetParam: 'team_id' },
        responses: {
          200: { description: 'The plan as stored', schema: dataEnvelope(entitlementsJson) },
          404: { description: 'NOT_FOUND: no such team', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const teamId = pathIdOf(req, 'team_id', 'Team');
        const body = parseOrFail(entitlementsBody, req.body);
        sendData(req, res, entitlementsView(await setEntitlements(ctx.db, teamId, body)));
      },
    );
}
