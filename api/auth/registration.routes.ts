import type { Context } from '../../shared/context.ts';
import { registerFromInvite, registerOwner } from '../../shared/domains/auth/registration.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { registerFromInviteBody, registerFromInviteReply, registerOwnerBody, registerOwnerReply } from './auth.schemas.ts';

/** Door A and Door B: spec part 4.5. */
export function registrationRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();
  const limit = rateLimitPerIp(ctx.rateLimit, 'register', ctx.config.rateLimits.register);

  router.route(
    {
      method: 'post',
      path: '/register-owner',
      operationId: 'browserAuth.registerOwner',
      summary: 'Door A: create an account and a team',
      description:
        'Creates the user, the team (slug: 3 to 40 lower-case letters, digits and single hyphens) and makes the user its owner (`*`). ' +
        'The team has no paid plan yet (sites can be created once it has chosen one with `POST /v1/billing/subscription` and paid its first invoice). A verification e-mail is sent; ' +
        'signing in answers 422 until the address is verified. Passwords: 8 to 128 characters after NFKC normalisation. ' +
        'An e-mail or slug already in use gives 422 `validation_error` naming the field.',
      tags: ['auth: registration'],
      body: registerOwnerBody,
      rateLimited: true,
      responses: { 201: { description: 'Created', schema: registerOwnerReply }, ...authErrors.invalid, ...authErrors.limited },
    },
    limit,
    async (req, res) => {
      const body = parseOrFail(registerOwnerBody, req.body);
      const { userId, teamId } = await registerOwner(
        ctx,
        {
          email: body.email,
          password: body.password,
          name: body.name,
          teamName: body.team_name,
          teamSlug: body.team_slug,
        },
        requestOrigin(req),
      );
      res.status(201).json({
        user_id: userId,
        team_id: teamId,
        message:
          'Account created. Check your e-mail and follow the link to verify your address before signing in. The team has no plan yet: choose one to create sites.',
      });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/register-from-invite',
      operationId: 'browserAuth.registerFromInvite',
      summary: 'Door B: join a team with an invite token',
      description:
        'Consumes the invite token (single use, 7 days) for the address it was sent to and joins its team with its role. ' +
        "The address counts as verified. Someone who already has an account gives that account's password and joins with it; " +
        'the name is then ignored. An invalid, used, revoked or expired token gives 401.',
      tags: ['auth: registration'],
      body: registerFromInviteBody,
      rateLimited: true,
      responses: {
        201: { description: 'Joined', schema: registerFromInviteReply },
        ...authErrors.unauthenticated,
        ...authErrors.invalid,
        ...authErrors.limited,
      },
    },
    limit,
    async (req, res) => {
      const body = parseOrFail(registerFromInviteBody, req.body);
      const joined = await registerFromInvite(
        ctx.db,
        {
          inviteToken: body.invite_token,
          email: body.email,
          password: body.password,
          name: body.name,
        },
        requestOrigin(req),
      );
      res.status(201).json({
        user_id: joined.userId,
        team_id: joined.teamId,
        role_id: joined.roleId,
        role_name: joined.roleName,
        message: joined.existingUser ? 'You joined the team. Sign in to continue.' : 'Account created and team joined. Sign in to continue.',
      });
    },
  );

  return router;
}
