import express, { type RequestHandler } from 'express';
import type { Context } from '../../shared/context.ts';
import { createUpload, findUpload } from '../../shared/domains/uploads/uploads.ts';
import { ValidationFailed, type FieldProblem } from '../../shared/errors.ts';
import { v1Router } from './authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from './envelope.ts';
import { principalOf } from './principal.ts';
import { UPLOAD_MEDIA_TYPES, uploadJson, uploadQuery, uploadView } from './uploads.schemas.ts';

const common = { tags: ['uploads'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
/** Every zip archive that holds a file starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The raw body of `POST /v1/uploads`, up to UPLOAD_MAX_BYTES (413 beyond), read before the audit
 * trail and the Idempotency-Key check (which fingerprints its bytes). Only for a caller the
 * principal middleware recognised: an anonymous request is answered 401 without reading megabytes.
 */
export function uploadBody(ctx: Context): RequestHandler {
  const raw = express.raw({ type: UPLOAD_MEDIA_TYPES, limit: ctx.config.uploads.maxBytes });
  return (req, res, next) => {
    if (req.method === 'POST' && req.path.replace(/\/$/, '') === '/uploads' && res.locals.principal) return raw(req, res, next);
    next();
  };
}

/** Plugin and theme packages a team uploads for its sites; a node fetches them (`files.fetch`). */
export function uploadsRoutes(ctx: Context) {
  const maxBytes = ctx.config.uploads.maxBytes;
  return v1Router()
    .route(
      {
        ...common,
        method: 'post',
        path: '/uploads',
        summary: 'Upload a plugin or theme package (zip)',
        description:
          `The body is the zip file itself (\`Content-Type: application/zip\`, or \`application/octet-stream\`), at most ${maxBytes} bytes ` +
          '(`UPLOAD_MAX_BYTES`), and the file name is `?filename=`. Answers 201 with its id and SHA-256; it is kept 24 hours, for an ' +
          'operation to install it. With an `Idempotency-Key`, a repeat with the same bytes and file name gets the first answer.',
        permission: 'wordpress:install',
        audit: { action: 'upload.created', target: 'upload' },
        query: uploadQuery,
        rawBody: { mediaTypes: UPLOAD_MEDIA_TYPES, description: 'The zip file (it must start with the zip signature `PK\\x03\\x04`)' },
        responses: {
          201: { description: 'Stored (also at `Location`)', schema: dataEnvelope(uploadJson) },
          403: forbidden,
          413: { description: `PAYLOAD_TOO_LARGE: over UPLOAD_MAX_BYTES (${maxBytes} bytes)`, schema: errorEnvelope },
          422: {
            description: 'VALIDATION_ERROR: `details.fields` names `filename` (missing or unsafe), `content_type` (not application/zip or ' +
              'application/octet-stream) or `body` (empty, or not a zip archive)',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const problems: FieldProblem[] = [];
        const query = uploadQuery.safeParse(req.query);
        // one problem per field: an empty name is also "too short" for the pattern, which says nothing more
        if (!query.success) problems.push({ field: query.error.issues[0]!.path.join('.') || 'filename', message: query.error.issues[0]!.message });
        const contentType = req.get('content-type')?.split(';')[0]?.trim().toLowerCase();
        const body: unknown = req.body;
        if (!contentType || !UPLOAD_MEDIA_TYPES.includes(contentType)) {
          problems.push({ field: 'content_type', message: `must be application/zip or application/octet-stream, not ${contentType ?? 'missing'}` });
        } else if (!Buffer.isBuffer(body) || body.length === 0) {
          problems.push({ field: 'body', message: 'is empty: send the zip file as the request body' });
        } else if (!body.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
          problems.push({ field: 'body', message: 'is not a zip archive (it must start with PK\\x03\\x04)' });
        }
        if (problems.length > 0 || !query.success || !Buffer.isBuffer(body)) throw new ValidationFailed(problems);
        const principal = principalOf(res);
        const upload = await createUpload(ctx.db, { teamId: principal.team_id, userId: principal.user_id, filename: query.data.filename, contentType: contentType!, content: body });
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
        summary: 'One upload\'s metadata (not its bytes)',
        permission: 'wordpress:install',
        responses: {
          200: { description: 'The upload', schema: dataEnvelope(uploadJson) },
          403: forbidden,
          404: { description: 'NOT_FOUND: no such upload in the caller\'s team, or it expired', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const upload = await findUpload(ctx.db, principalOf(res).team_id, String(req.params.id));
        sendData(req, res, uploadView(upload));
      },
    );
}
