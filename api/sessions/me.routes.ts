import { z } from 'zod';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import type { Context } from '../../shared/context.ts';
import { currentUserReply } from '../auth/auth.schemas.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { principalOf, requirePrincipal } from '../v1/principal.ts';

/** The auth surface's current user (spec 2.1), plus the address, whether TOTP is on and whether they are an operator. */
export const meReply = currentUserReply.extend({
  email: z.string(),
  two_factor_enabled: z.boolean(),
  operator: z.boolean().describe('Staff above teams who manage the fleet (nodes); operator routes need a session, not an API token'),
});

export function meRoutes(_ctx: Context): DocumentedRouter {
  return new DocumentedRouter().route(
    {
      method: 'get',
      path: '/me',
      operationId: 'me.get',
      summary: 'The caller: user, team, role and permissions',
      description:
        "Who the bearer token or session is: the user, the team it acts in, its role and the permissions that role grants (an API token's scopes narrow them).",
      tags: ['me'],
      security: ['bearerAuth', 'sessionCookie'],
      responses: { 200: { description: 'The caller', schema: dataEnvelope(meReply) }, 401: { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope } },
    },
    requirePrincipal,
    (req, res) => {
      const principal = principalOf(res);
      const { via: _via, sessionId: _sessionId, apiTokenId: _apiTokenId, tokenPermissions: _tokenPermissions, account, ...current } = principal;
      sendData(req, res, { ...current, email: account.email, two_factor_enabled: account.twoFactorEnabled });
    },
  );
}
