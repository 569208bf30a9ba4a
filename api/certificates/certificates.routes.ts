import type { Request } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { findCertificate, requestIssuance, uploadCertificate } from '../../shared/domains/certificates/certificates.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { certificateJson, certificateView, uploadBody } from './certificates.schemas.ts';
import { environmentParams } from '../openapi/path-parameters.ts';

const common = { tags: ['domains'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const path = '/sites/:id/environments/:env/certificate';
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };

/** An environment's TLS certificate (issue 13): uploaded here; issued by ACME later. */
export function certificatesRoutes(ctx: Context) {
  const siteAndKind = (req: Request): [number, string] => [pathIdOf(req, 'id', 'Site'), String(req.params.env)];
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path,
        params: environmentParams,
        operationId: 'certificates.get',
        summary: "The environment's TLS certificate",
        permission: 'domains:read',
        responses: {
          200: { description: 'The certificate (never its key)', schema: dataEnvelope(certificateJson) },
          403: forbidden,
          404: { description: 'NOT_FOUND: no such site, environment, or no certificate', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        sendData(req, res, certificateView(await findCertificate(ctx.db, principalOf(res).team_id, siteId, kind)));
      },
    )
    .route(
      {
        ...common,
        method: 'put',
        path,
        params: environmentParams,
        operationId: 'certificates.upload',
        summary: 'Serve the environment over HTTPS with your own certificate',
        body: uploadBody,
        permission: 'domains:update',
        description:
          "The chain and key are checked (PEM, the key the certificate's, valid now, covering the address the site answers at: its primary " +
          "domain or its default address), the key stored sealed, and a `certificate.install` operation puts them on the node's edge (HTTPS " +
          'on its `edge_https_port`, a hot reload) and checks that the edge presents it. It replaces an earlier certificate.',
        audit: { action: 'certificate.uploaded', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'The certificate (`pending`) and the operation installing it',
            schema: dataEnvelope(z.object({ certificate: certificateJson, operation: operationJson })),
          },
          403: forbidden,
          404: { description: 'NOT_FOUND: no such site or environment', schema: errorEnvelope },
          409: { description: 'CONFLICT: the environment is not active, or its node serves no HTTPS', schema: errorEnvelope },
          422: {
            description: 'VALIDATION_ERROR: `certificate_pem` or `private_key_pem` is not valid, not a pair, not valid now, or does not cover the site',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const body = parseOrFail(uploadBody, req.body);
        const [siteId, kind] = siteAndKind(req);
        const principal = principalOf(res);
        const { certificate, operation } = await uploadCertificate(
          ctx,
          ctx.config.secrets.secretKey,
          { teamId: principal.team_id, userId: principal.user_id },
          siteId,
          kind,
          body,
        );
        await sendAccepted(ctx, req, res, operation, { certificate: certificateView(certificate) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${path}/issue`,
        params: environmentParams,
        operationId: 'certificates.issue',
        summary: "Get a certificate from the platform's ACME CA",
        permission: 'domains:update',
        description:
          "A `certificate.issue` operation: the platform's account at the CA (`ACME_DIRECTORY_URL`), an order for the address the site " +
          "answers at and its verified domains, each proved by HTTP-01 through the node's edge (so their DNS must point at the node), the " +
          "certificate stored (its key sealed) and installed like an uploaded one. A failure names the CA's problem (CAA, unreachable, rate limited).",
        audit: { action: 'certificate.requested', target: 'site', targetParam: 'id' },
        responses: {
          202: { description: 'The operation', schema: dataEnvelope(z.object({ operation: operationJson })) },
          403: forbidden,
          404: { description: 'NOT_FOUND: no such site or environment', schema: errorEnvelope },
          409: {
            description: 'CONFLICT: no ACME CA is configured, the environment is not active, its node serves no HTTPS, or an issuance is under way',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const principal = principalOf(res);
        const operation = await requestIssuance(ctx, ctx.config.acme !== null, { teamId: principal.team_id, userId: principal.user_id }, siteId, kind);
        await sendAccepted(ctx, req, res, operation, {});
      },
    );
}
