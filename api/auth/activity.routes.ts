import type { Context } from '../../shared/context.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';

// Placeholder until the issue 3 work fills it in.
export function activityRoutes(_ctx: Context): DocumentedRouter {
  return new DocumentedRouter();
}
