import type { Request } from 'express';
import type { Context } from '../../shared/context.ts';
import { findUpload, storeUpload } from '../../shared/domains/uploads/uploads.ts';
import { ValidationFailed, type FieldProblem } from '../../shared/errors.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { bytesFingerprint, streamedIdempotency } from '../v1/idempotency.ts';
import { principalOf } from '../v1/principal.ts';
import { UPLOAD_MEDIA_TYPES, uploadJson, uploadQuery, uploadView } from './uploads.schemas.ts';
import { uuid } from '../openapi/path-parameters.ts';

const common = { tags: ['uploads'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };

/**
 * `POST /v1/uploads`, whose body the route itself reads as a stream once the caller's permission is
 * checked: the /v1 chain neither parses it nor fingerprints it for Idempotency-Key.
 */
export function isUploadRequest(req: Request): boolean {
  return req.method === 'POST' && req.path.replace(/\/$/, '') === '/uploads';
}

/** Plugin and theme packages a team uploads for its sites; a node fetches them (`files.fetch`). */
export function uploadsRoutes(ctx: Context) {
  const { maxBytes, quotaBytes, quotaCount } = ctx.config.uploads;
  return v1Router()
    .route(
      {
        ...common,
        method: 'post',
        path: '/uploads',
        operationId: 'uploads.create',
        summary: 'Upload a plugin or theme package (zip)',
        description:
          `The body is the zip file itself (\`Content-Type: application/zip\`, or \`application/octet-stream\`), at most ${maxBytes} bytes ` +
          '(`UPLOAD_MAX_BYTES`), and the file name is `?filename=`. Answers 201 with its id and SHA-256; it is kept 24 hours, for an ' +
          `operation to install it. A team holds at most ${quotaCount} live uploads totalling ${quotaBytes} bytes (\`UPLOAD_QUOTA_COUNT\`, ` +
          '`UPLOAD_QUOTA_BYTES`). The permission is checked before any of the body is read; the body is streamed into storage, and ' +
          'refused (with nothing stored) as soon as it crosses a limit. With an `Idempotency-Key`, a repeat with the same bytes and ' +
          'file name gets the first answer.',
        permission: 'wordpress:install',
        audit: { action: 'upload.created', target: 'upload' },
        query: uploadQuery,
        rawBody: { mediaTypes: UPLOAD_MEDIA_TYPES, description: 'The zip file (it must start with the zip signature `PK\\x03\\x04`)' },
        responses: {
          201: { description: 'Stored (also at `Location`)', schema: dataEnvelope(uploadJson) },
          403: forbidden,
          413: { description: `PAYLOAD_TOO_LARGE: over UPLOAD_MAX_BYTES (${maxBytes} bytes)`, schema: errorEnvelope },
          429: {
            description:
              "RATE_LIMIT_EXCEEDED: too many requests (the /v1 limit), or with `details.reason: upload_quota` the team's live uploads would " +
              'pass its quota (`details.used_bytes`, `used_count`, `quota_bytes`, `quota_count`); `Retry-After` is when its oldest upload expires',
            schema: errorEnvelope,
          },
          422: {
            description:
              'VALIDATION_ERROR: `details.fields` names `filename` (missing or unsafe), `content_type` (not application/zip or ' +
              'application/octet-stream) or `body` (empty, or not a zip archive)',
            schema: errorEnvelope,
          },
        },
      },
      streamedIdempotency(ctx, { maxBytes }),
      async (req, res) => {
        const problems: FieldProblem[] = [];
        const query = uploadQuery.safeParse(req.query);
        // one problem per field: an empty name is also "too short" for the pattern, which says nothing more
        if (!query.success) problems.push({ field: query.error.issues[0]!.path.join('.') || 'filename', message: query.error.issues[0]!.message });
        const contentType = req.get('content-type')?.split(';')[0]?.trim().toLowerCase();
        if (!contentType || !UPLOAD_MEDIA_TYPES.includes(contentType)) {
          problems.push({ field: 'content_type', message: `must be application/zip or application/octet-stream, not ${contentType ?? 'missing'}` });
        }
        if (problems.length > 0 || !query.success) throw new ValidationFailed(problems);
        const principal = principalOf(res);
        const declared = req.get('content-length');
        const upload = await storeUpload(
          ctx.db,
          {
            teamId: principal.team_id,
            userId: principal.user_id,
            filename: query.data.filename,
            contentType: contentType!,
            // stopping early (a limit crossed) must leave the socket open for the answer
            content: req.iterator({ destroyOnReturn: false }),
            declaredBytes: declared !== undefined && /^\d{1,15}$/.test(declared) ? Number(declared) : undefined,
          },
          ctx.config.uploads,
        );
        res.locals.idempotencyFingerprint = bytesFingerprint(req, upload.sha256);
        req.log.info({ upload_id: upload.id, size_bytes: upload.size_bytes }, 'upload stored');
        res.setHeader('Location', `/v1/uploads/${upload.id}`);
        sendData(req, res, uploadView(upload), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/uploads/:id',
        params: { id: uuid('upload') },
        operationId: 'uploads.get',
        summary: "One upload's metadata (not its bytes)",
        permission: 'wordpress:install',
        responses: {
          200: { description: 'The upload', schema: dataEnvelope(uploadJson) },
          403: forbidden,
          404: { description: "NOT_FOUND: no such upload in the caller's team, or it expired", schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const upload = await findUpload(ctx.db, principalOf(res).team_id, String(req.params.id));
        sendData(req, res, uploadView(upload));
      },
    );
}
