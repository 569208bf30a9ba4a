import type { Context } from '../../shared/context.ts';
import { checkPeers } from '../../shared/health.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { statusReply } from './auth.schemas.ts';

export function statusRoutes(ctx: Context): DocumentedRouter {
  return new DocumentedRouter().route(
    {
      method: 'get',
      path: '/status',
      operationId: 'browserAuth.status',
      summary: 'Service status',
      description: 'Checks Postgres and Redis (1.5 s each). `operational` when both answer, else 503 `degraded` with the failing check.',
      tags: ['auth: status'],
      responses: { 200: { description: 'Operational', schema: statusReply }, 503: { description: 'Degraded', schema: statusReply } },
    },
    async (_req, res) => {
      const checks = await checkPeers(ctx);
      const healthy = checks.postgres === 'ok' && checks.redis === 'ok';
      res.status(healthy ? 200 : 503).json({ status: healthy ? 'operational' : 'degraded', checks });
    },
  );
}
