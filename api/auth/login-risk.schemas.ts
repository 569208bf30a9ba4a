import { z } from 'zod';
import { tokenBody } from './auth.schemas.ts';

/** Request and reply bodies of the suspicious-login (spec 4.4) and concurrent-login endpoints. */
export const alertTokenBody = z.object({ token: tokenBody.shape.token.describe('The alert token, from the link of the suspicious-login e-mail') });
export const concurrentTokenBody = z.object({
  token: tokenBody.shape.token.describe('The token of the 423 `concurrent_login_pending` answer, also in the e-mail and in GET /concurrent-login/requests'),
});

export const approvedReply = z.object({ status: z.literal('approved') });
export const deniedReply = z.object({ status: z.literal('denied') });

export const pendingConcurrentLoginsReply = z.object({
  requests: z.array(
    z.object({
      token: z.string().describe('Decide with POST /concurrent-login/approve or /deny'),
      team_id: z.number().int(),
      ip: z.string().nullable().describe('As the server saw it'),
      country: z.string().nullable().describe('From the IP, by the offline GeoIP database; null when unknown'),
      user_agent: z.string().nullable(),
      device_fingerprint: z.string().nullable(),
      created_at: z.string().describe('ISO 8601 UTC'),
      expires_at: z.string().describe('ISO 8601 UTC, 10 minutes after created_at'),
    }),
  ),
});
