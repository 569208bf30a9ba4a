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

export const metaSchema = z.object({ timestamp: z.string().describe('ISO 8601 UTC'), request_id: z.string() });

/** The documented shape of a `{data, meta}` answer. */
export function dataEnvelope<Schema extends z.ZodType>(data: Schema) {
  return z.object({ data, meta: metaSchema });
}

export function listEnvelope<Schema extends z.ZodType>(item: Schema) {
  return z.object({
    data: z.array(item),
    pagination: z.object({ page: z.number().int(), page_size: z.number().int(), total: z.number().int(), total_pages: z.number().int() }),
    meta: metaSchema,
  });
}

export const errorEnvelope = z.object({
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
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
  meta: metaSchema,
});
