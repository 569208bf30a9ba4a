import { expect } from 'vitest';
import type { Reply } from './client.ts';

/** An error answer of the auth surface (/api/v1/auth): its status, `code`, and a `detail` in words. */
export function expectAuthError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body?.code }, JSON.stringify(reply.body)).toEqual({ status, code });
  expect(typeof reply.body.detail).toBe('string');
}

/**
 * An error answer of /v1: its status and `error.code`, a message in words, the request's id in
 * `meta` (the one X-Request-Id carries), and `error.details` holding at least `details` when given.
 */
export function expectV1Error(reply: Reply, status: number, code: string, details?: Record<string, unknown>): void {
  expect({ status: reply.status, code: reply.body?.error?.code }, JSON.stringify(reply.body)).toEqual({ status, code });
  expect(typeof reply.body.error.message).toBe('string');
  expect(reply.body.meta.request_id).toBe(reply.headers.get('x-request-id'));
  if (details) expect(reply.body.error.details).toMatchObject(details);
}
