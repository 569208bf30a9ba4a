import type { Context } from '../../shared/context.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { recoveryRoutes } from './recovery.routes.ts';
import { registrationRoutes } from './registration.routes.ts';
import { sessionRoutes } from './session.routes.ts';
import { statusRoutes } from './status.routes.ts';
import { activityRoutes } from './activity.routes.ts';
import { deviceRoutes } from './devices.routes.ts';
import { loginRiskRoutes } from './login-risk.routes.ts';
import { totpRoutes } from './totp.routes.ts';

export const AUTH_PREFIX = '/api/v1/auth';

/** The spec's authentication surface, mounted at /api/v1/auth. */
export function authRoutes(ctx: Context): DocumentedRouter {
  const cookies = { secure: ctx.config.production || ctx.config.publicUrl.startsWith('https:') };
  const auth = new DocumentedRouter();
  auth.router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  return auth
    .include(statusRoutes(ctx))
    .include(sessionRoutes(ctx, cookies))
    .include(registrationRoutes(ctx))
    .include(recoveryRoutes(ctx))
    .include(deviceRoutes(ctx))
    .include(totpRoutes(ctx))
    .include(loginRiskRoutes(ctx))
    .include(activityRoutes(ctx));
}
