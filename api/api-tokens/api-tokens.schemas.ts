import { z } from 'zod';
import { DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS, type ApiTokenView } from '../../shared/domains/api-tokens/api-tokens.ts';
import { API_TOKEN_MARKER } from '../../shared/domains/api-tokens/secret.ts';
import { isValidGrant } from '../../shared/domains/rbac/permissions.ts';
import { rowId } from '../middleware/validate.ts';

const timestamp = z.iso.datetime().describe('ISO 8601, UTC');

export const createApiTokenBody = z.object({
  name: z.string().trim().min(1).max(100).describe('What the token is for, 1 to 100 characters'),
  permissions: z
    .array(z.string().refine(isValidGrant, { error: 'must be a permission such as sites:read, a resource wildcard such as sites:*, or *' }))
    .min(1)
    .max(200)
    .describe(
      "The grants of the token: each exact (`sites:read`), `<resource>:*` or `*`, and each held by the caller. The token may do what both these grants and its creator's role (read on every request) allow.",
    ),
  expires_in_days: z
    .number()
    .int()
    .min(1)
    .max(MAX_EXPIRY_DAYS)
    .nullable()
    .optional()
    .describe(
      `Days until the token expires, 1 to ${MAX_EXPIRY_DAYS}; \`null\` for a token that never expires; absent: ${DEFAULT_EXPIRY_DAYS}. A token created with an API token cannot outlive it.`,
    ),
});

export const apiTokenIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(rowId()),
});

export const apiTokenReply = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe(`The first characters of the secret (\`${API_TOKEN_MARKER}\` and 8 more), to recognise it`),
  permissions: z.array(z.string()),
  expires_at: timestamp.nullable().describe('null: never expires. An expired token stays listed (it answers 401) until revoked'),
  last_used_at: timestamp.nullable().describe('When it last authenticated a request, to the minute'),
  last_used_ip: z.string().nullable(),
  created_at: timestamp,
  revoked_at: timestamp.nullable().describe('null, but in the answer to `DELETE`'),
  created_by: z.object({ user_id: z.number().int(), name: z.string() }),
});

export const createdApiTokenReply = apiTokenReply.extend({
  token: z
    .string()
    .nullable()
    .describe(
      `The secret, \`${API_TOKEN_MARKER}\` and 43 characters: shown in this answer only, never again. Send it as \`Authorization: Bearer <token>\`. ` +
        '`null` only in the replay of a repeated request (same Idempotency-Key, `Idempotent-Replayed: true`): the secret is not kept ' +
        'for replays; revoke that token and create another.',
    ),
});

export function apiTokenJson(token: ApiTokenView): z.infer<typeof apiTokenReply> {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    permissions: token.permissions,
    expires_at: token.expires_at?.toISOString() ?? null,
    last_used_at: token.last_used_at?.toISOString() ?? null,
    last_used_ip: token.last_used_ip,
    created_at: token.created_at.toISOString(),
    revoked_at: token.revoked_at?.toISOString() ?? null,
    created_by: { user_id: token.created_by_user_id, name: token.created_by_name },
  };
}
