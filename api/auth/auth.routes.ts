import { Router } from 'express';
import type { Context } from '../../shared/context.ts';
import { recoveryRoutes } from './recovery.routes.ts';
import { registrationRoutes } from './registration.routes.ts';
import { sessionRoutes } from './session.routes.ts';
import { statusRoutes } from './status.routes.ts';

/** The spec's authentication surface, mounted at /api/v1/auth. */
export function authRoutes(ctx: Context): Router {
  const cookies = { secure: ctx.config.production || ctx.config.publicUrl.startsWith('https:') };
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(statusRoutes(ctx));
  router.use(sessionRoutes(ctx, cookies));
  router.use(registrationRoutes(ctx));
  router.use(recoveryRoutes(ctx));
  return router;
}
