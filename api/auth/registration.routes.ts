import { Router } from 'express';
import type { Context } from '../../shared/context.ts';
import { registerFromInvite, registerOwner } from '../../shared/domains/auth/registration.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { registerFromInviteBody, registerOwnerBody } from './auth.schemas.ts';

/** Door A and Door B: spec part 4.5. */
export function registrationRoutes(ctx: Context): Router {
  const router = Router();
  const limit = rateLimitPerIp(ctx.rateLimit, 'register', ctx.config.rateLimits.register);

  router.post('/register-owner', limit, async (req, res) => {
    const body = parseOrFail(registerOwnerBody, req.body);
    const { userId, teamId } = await registerOwner(ctx, {
      email: body.email,
      password: body.password,
      name: body.name,
      teamName: body.team_name,
      teamSlug: body.team_slug,
    });
    res.status(201).json({
      user_id: userId,
      team_id: teamId,
      message: 'Account created. Check your e-mail and follow the link to verify your address before signing in. The team has no plan yet: choose one to create sites.',
    });
  });

  router.post('/register-from-invite', limit, async (req, res) => {
    const body = parseOrFail(registerFromInviteBody, req.body);
    const joined = await registerFromInvite(ctx.db, {
      inviteToken: body.invite_token,
      email: body.email,
      password: body.password,
      name: body.name,
    });
    res.status(201).json({
      user_id: joined.userId,
      team_id: joined.teamId,
      role_id: joined.roleId,
      role_name: joined.roleName,
      message: joined.existingUser ? 'You joined the team. Sign in to continue.' : 'Account created and team joined. Sign in to continue.',
    });
  });

  return router;
}
