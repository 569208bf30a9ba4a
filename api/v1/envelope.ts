import type { Request, Response } from 'express';
import { z } from 'zod';

/** `meta` of every /v1 answer (spec 2.8): when, and which request (also the X-Request-Id header). */
export function metaOf(req: Request): { timestamp: string; request_id: string } {
  return { timestamp: new Date().toISOString(), request_id: req.id };
}

/** `{data, meta}` */
export function sendData(req: Request, res: Response, data: unknown, status = 200): void {
  res.status(status).json({ data, meta: metaOf(req) });
}

export type Page = { page: number; pageSize: number };

/** `{data: [...], pagination: {page, page_size, total, total_pages}, meta}` */
export function sendList(req: Request, res: Response, items: unknown[], page: Page, total: number): void {
  res.json({
    data: items,
    pagination: { page: page.page, page_size: page.pageSize, total, total_pages: Math.ceil(total / page.pageSize) },
    meta: metaOf(req),
  });
}

export { pageQuery } from '../middleware/pagination.ts';

export const metaSchema = z
  .object({ timestamp: z.string().describe('ISO 8601 UTC'), request_id: z.string().describe('Also the X-Request-Id header: quote it to support') })
  .meta({ id: 'ResponseMeta' });

export const paginationSchema = z
  .object({
    page: z.number().int().min(1),
    page_size: z.number().int().min(1),
    total: z.number().int().min(0).describe('Items in all pages'),
    total_pages: z.number().int().min(0),
  })
  .meta({ id: 'Pagination' });

/** The documented shape of a `{data, meta}` answer. */
export function dataEnvelope<Schema extends z.ZodType>(data: Schema) {
  return z.object({ data, meta: metaSchema });
}

export function listEnvelope<Schema extends z.ZodType>(item: Schema) {
  return z.object({
    data: z.array(item),
    pagination: paginationSchema,
    meta: metaSchema,
  });
}

/**
 * `error.details`: what a program needs to act on an error. Every key is optional; which ones an
 * answer carries depends on its code and reason, as each operation's responses say. Keys not listed
 * here may be added (an addition is not a breaking change).
 */
export const errorDetails = z
  .looseObject({
    reason: z
      .string()
      .optional()
      .describe(
        'Tells apart the causes that share a code: `missing_permission`, `totp_required`, `device_approval_required`, `concurrent_login_pending`, ' +
          '`concurrent_login_denied`, `email_not_verified`, `csrf_mismatch`, `malformed_path`, `upload_quota`, `fingerprint_mismatch` and `in_progress` ' +
          "(Idempotency-Key), a conflict's own reason (`subscription_exists`, ...)",
      ),
    fields: z
      .array(z.object({ field: z.string().describe('Dotted path of the field; empty for the body as a whole'), message: z.string() }))
      .optional()
      .describe('VALIDATION_ERROR (422): each field that failed and why'),
    permission: z.string().optional().describe('AUTHORIZATION_ERROR `missing_permission`: the permission that was needed'),
    limit: z.string().optional().describe('PAYMENT_REQUIRED: the limit reached (`plan`, `max_sites`, `max_disk_bytes`, ...)'),
    retry_after_seconds: z.number().int().optional().describe('RATE_LIMIT_EXCEEDED: as the Retry-After header'),
    service: z.string().optional().describe('UPSTREAM_ERROR: the service that failed'),
    pre_auth_token: z.string().optional().describe('`device_approval_required` and `concurrent_login_pending`: finishes that sign-in once approved'),
    device_fingerprint: z.string().optional().describe('`device_approval_required`: the device to approve'),
    token: z.string().optional().describe('`concurrent_login_pending`: what the live session approves with'),
  })
  .meta({ id: 'ErrorDetails' });

export const errorEnvelope = z
  .object({
    error: z.object({
      code: z.enum([
        'VALIDATION_ERROR',
        'INVALID_SIGNATURE',
        'AUTHENTICATION_ERROR',
        'AUTHORIZATION_ERROR',
        'PAYMENT_REQUIRED',
        'NOT_FOUND',
        'CONFLICT',
        'PAYLOAD_TOO_LARGE',
        'RATE_LIMIT_EXCEEDED',
        'UPSTREAM_ERROR',
        'INTERNAL_ERROR',
      ]),
      message: z.string().describe('For people; may change. Programs branch on `code` and `details.reason`'),
      details: errorDetails,
    }),
    meta: metaSchema,
  })
  .meta({ id: 'Error' });
