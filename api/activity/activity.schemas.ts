import { z } from 'zod';
import { pageQuery } from '../v1/envelope.ts';

/** Query strings carry text: digits become numbers here, after the shape is checked. */
const id = z
  .string()
  .regex(/^\d{1,12}$/, { error: 'must be a positive whole number' })
  .transform(Number);
const instant = (description: string) =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'must be an ISO 8601 date or date-time, like 2026-11-22T10:00:00Z' })
    .transform((value) => new Date(value))
    .optional()
    .describe(description);

export const activityQuery = pageQuery
  .extend({
    actor_user_id: id.optional().describe('Only what this user did'),
    action: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{0,100}\*?$/, { error: 'must be an action like member.role_changed, or a prefix ending in * like member.*' })
      .optional()
      .describe('An exact action (`member.role_changed`), or a prefix ending in `*` (`member.*`, `auth.*`)'),
    target_type: z.string().min(1).max(100).optional().describe('Only entries about this kind of thing (`member`, `session`, `user`, `team`, ...)'),
    target_id: z.string().min(1).max(200).optional().describe('Only entries about this thing (with `target_type`, one exact resource)'),
    since: instant('Entries at or after this time (ISO 8601; a date alone is midnight UTC)'),
    until: instant('Entries before this time (ISO 8601; a date alone is midnight UTC)'),
  })
  .refine((query) => query.since === undefined || query.until === undefined || query.since < query.until, { error: 'must be after since', path: ['until'] });

export const activityIdParams = z.object({ id });

export const activityEntry = z.object({
  id: z.number().int(),
  action: z.string().describe("`<resource>.<verb>`: the route's declared action for /v1 requests, `auth.*`, `team.created`, `member.joined` for auth events"),
  outcome: z.enum(['success', 'denied', 'failed']).describe('`denied`: answered 401 or 403; `failed`: any other error'),
  status: z.number().int().nullable().describe('The HTTP status answered; null for auth events, recorded by the change itself'),
  actor: z.object({
    user_id: z.number().int().nullable(),
    name: z.string().nullable().describe("The user's name when the entry was written"),
    email: z.string().nullable().describe("The user's e-mail address when the entry was written"),
    via: z
      .enum(['session', 'api_token', 'credentials', 'system'])
      .describe(
        '`session`: a signed-in session (or the sign-in opening it); `api_token`; `credentials`: an auth request carrying a password, ' +
          'an e-mailed token or code instead of a session; `system`: Berth itself',
      ),
    api_token_id: z.number().int().nullable(),
  }),
  target: z.object({ type: z.string(), id: z.string().nullable() }),
  ip: z.string().nullable().describe('The address the server saw'),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable().describe('The `X-Request-Id` of the request'),
  metadata: z.record(z.string(), z.unknown()).describe('A few facts (method and path, error code); never a body, password, token or code'),
  created_at: z.string().describe('ISO 8601 UTC'),
});
