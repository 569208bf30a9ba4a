import { z } from 'zod';

const timestamp = z.iso.datetime().describe('ISO 8601, UTC');

export const sessionReply = z.object({
  id: z.string(),
  team_id: z.number().int().describe('The team the session acts in'),
  team_name: z.string(),
  device_label: z.string().describe('From the user agent, such as "Firefox on Linux" or "curl"'),
  user_agent: z.string().nullable(),
  ip: z.string().nullable().describe('The address the server saw at sign-in'),
  created_at: timestamp,
  last_seen_at: timestamp.describe('When a request last authenticated with it, to the minute'),
  second_factor_pending: z.boolean().describe('true: the password was given but not yet the second factor'),
  current: z.boolean().describe('The session of this very request (never true for an API-token caller)'),
});

export const revokedSessionReply = z.object({ id: z.string(), revoked_at: timestamp });

export const revokedSessionsReply = z.object({ revoked: z.number().int().describe('How many sessions were ended') });
