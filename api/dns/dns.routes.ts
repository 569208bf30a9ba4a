import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import {
  createZone,
  deleteRecordSet,
  deleteZone,
  dnsProviderOf,
  findZone,
  listRecordSets,
  listZones,
  requireProvider,
  writeRecordSet,
} from '../../shared/domains/dns/zones.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import {
  createRecordSetBody,
  createZoneBody,
  dnsDescription,
  recordSetJson,
  recordSetPath,
  recordSetView,
  replaceRecordSetBody,
  zoneJson,
  zoneView,
} from './dns.schemas.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { name, rowId } from '../openapi/path-parameters.ts';
import { RECORD_TYPES } from '../../shared/domains/dns/records.ts';

const common = { tags: ['dns'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: dnsDescription };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such zone in the caller's team (or no such record set)", schema: errorEnvelope };
const unconfigured = { description: 'CONFLICT: DNS hosting is not configured on this Berth', schema: errorEnvelope };
const upstream = { description: 'UPSTREAM_ERROR: the DNS server refused or did not answer (`details.service`: `dns`)', schema: errorEnvelope };
const invalid = { description: 'VALIDATION_ERROR: `details.fields` names each field that is not valid (`name`, `ttl`, `values.<i>`)', schema: errorEnvelope };
const zonePath = '/dns/zones/:zone';
const recordPath = `${zonePath}/records/:name/:type`;

/** DNS hosting (issue 13): zones a team owns, records served by the configured DNS server. */
export function dnsRoutes(ctx: Context) {
  const provider = dnsProviderOf(ctx.config.dns);
  const zoneOf = (req: Request, res: Response) => findZone(ctx.db, principalOf(res).team_id, pathIdOf(req, 'zone', 'DNS zone'));
  const recordOf = (req: Request) => parseOrFail(recordSetPath, { name: req.params.name, type: String(req.params.type).toUpperCase() });

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/dns/zones',
        operationId: 'dnsZones.list',
        summary: "The team's DNS zones",
        permission: 'domains:read',
        query: pageQuery,
        responses: { 200: { description: 'By name', schema: listEnvelope(zoneJson) }, 403: forbidden },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const { rows, total } = await listZones(ctx.db, principalOf(res).team_id, { page: query.page, pageSize: query.page_size });
        sendList(
          req,
          res,
          rows.map((zone) => zoneView(zone, provider?.nameservers ?? [])),
          { page: query.page, pageSize: query.page_size },
          total,
        );
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/dns/zones',
        operationId: 'dnsZones.create',
        summary: 'Host a DNS zone',
        body: createZoneBody,
        permission: 'domains:create',
        audit: { action: 'dns_zone.created', target: 'dns_zone' },
        responses: {
          201: { description: 'The zone, served at once by `nameservers` (with its SOA and NS records)', schema: dataEnvelope(zoneJson) },
          403: forbidden,
          409: { description: 'CONFLICT: the zone is hosted here already (by any team), or DNS hosting is not configured', schema: errorEnvelope },
          422: invalid,
          502: upstream,
        },
      },
      async (req, res) => {
        const body = parseOrFail(createZoneBody, req.body);
        const dns = requireProvider(provider);
        const principal = principalOf(res);
        const zone = await createZone(ctx.db, dns, { teamId: principal.team_id, userId: principal.user_id }, body, { baseDomain: ctx.config.sites.baseDomain });
        res.setHeader('Location', `${req.baseUrl}/dns/zones/${zone.id}`);
        sendData(req, res, zoneView(zone, dns.nameservers), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: zonePath,
        params: { zone: rowId('DNS zone') },
        operationId: 'dnsZones.get',
        summary: 'One DNS zone',
        permission: 'domains:read',
        responses: { 200: { description: 'The zone', schema: dataEnvelope(zoneJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        sendData(req, res, zoneView(await zoneOf(req, res), provider?.nameservers ?? []));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: zonePath,
        params: { zone: rowId('DNS zone') },
        operationId: 'dnsZones.delete',
        summary: 'Stop hosting a DNS zone',
        permission: 'domains:delete',
        audit: { action: 'dns_zone.deleted', target: 'dns_zone', targetParam: 'zone' },
        responses: {
          204: { description: 'The zone and all its records are gone from the DNS servers' },
          403: forbidden,
          404: notFound,
          409: unconfigured,
          502: upstream,
        },
      },
      async (req, res) => {
        const zone = await zoneOf(req, res);
        await deleteZone(ctx.db, requireProvider(provider), zone);
        res.status(204).end();
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${zonePath}/records`,
        params: { zone: rowId('DNS zone') },
        operationId: 'dnsRecords.list',
        summary: "The zone's record sets",
        permission: 'domains:read',
        responses: {
          200: { description: 'By name, then type', schema: dataEnvelope(z.object({ records: z.array(recordSetJson), nameservers: z.array(z.string()) })) },
          403: forbidden,
          404: notFound,
          409: unconfigured,
          502: upstream,
        },
      },
      async (req, res) => {
        const zone = await zoneOf(req, res);
        const { records, nameservers } = await listRecordSets(requireProvider(provider), zone);
        sendData(req, res, { records: records.map(recordSetView), nameservers });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${zonePath}/records`,
        params: { zone: rowId('DNS zone') },
        operationId: 'dnsRecords.create',
        summary: 'Add a record set',
        body: createRecordSetBody,
        permission: 'domains:update',
        audit: { action: 'dns_record.created', target: 'dns_zone', targetParam: 'zone' },
        responses: {
          201: { description: 'The record set as stored (names absolute, values normalised)', schema: dataEnvelope(recordSetJson) },
          403: forbidden,
          404: notFound,
          409: {
            description: 'CONFLICT: the name has records of that type already (PUT replaces them), or a CNAME would share its name',
            schema: errorEnvelope,
          },
          422: invalid,
          502: upstream,
        },
      },
      async (req, res) => {
        const body = parseOrFail(createRecordSetBody, req.body);
        const zone = await zoneOf(req, res);
        const set = await writeRecordSet(ctx.db, requireProvider(provider), zone, body, 'create');
        res.setHeader('Location', `${req.baseUrl}/dns/zones/${zone.id}/records/${set.name}/${set.type}`);
        sendData(req, res, recordSetView(set), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'put',
        path: recordPath,
        params: {
          zone: rowId('DNS zone'),
          name: name("The record set's name: the zone's apex as `@`, else relative to the zone or fully qualified"),
          type: name('The record type', { enum: [...RECORD_TYPES] }),
        },
        operationId: 'dnsRecords.replace',
        summary: 'Replace a record set',
        body: replaceRecordSetBody,
        permission: 'domains:update',
        audit: { action: 'dns_record.updated', target: 'dns_zone', targetParam: 'zone' },
        responses: {
          200: { description: 'The record set as stored', schema: dataEnvelope(recordSetJson) },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: a CNAME would share its name, or DNS hosting is not configured', schema: errorEnvelope },
          422: invalid,
          502: upstream,
        },
      },
      async (req, res) => {
        const body = parseOrFail(replaceRecordSetBody, req.body);
        const { name, type } = recordOf(req);
        const zone = await zoneOf(req, res);
        sendData(req, res, recordSetView(await writeRecordSet(ctx.db, requireProvider(provider), zone, { name, type, ...body }, 'replace')));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: recordPath,
        params: {
          zone: rowId('DNS zone'),
          name: name("The record set's name: the zone's apex as `@`, else relative to the zone or fully qualified"),
          type: name('The record type', { enum: [...RECORD_TYPES] }),
        },
        operationId: 'dnsRecords.delete',
        summary: 'Delete a record set',
        permission: 'domains:update',
        audit: { action: 'dns_record.deleted', target: 'dns_zone', targetParam: 'zone' },
        responses: { 204: { description: 'Gone from the DNS servers' }, 403: forbidden, 404: notFound, 409: unconfigured, 422: invalid, 502: upstream },
      },
      async (req, res) => {
        const { name, type } = recordOf(req);
        const zone = await zoneOf(req, res);
        await deleteRecordSet(ctx.db, requireProvider(provider), zone, { name, type });
        res.status(204).end();
      },
    );
}
