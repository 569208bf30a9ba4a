import type { Context } from '../../shared/context.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { statusReply } from './auth.schemas.ts';

const CHECK_TIMEOUT_MS = 1_500;

export function statusRoutes(ctx: Context): DocumentedRouter {
  return new DocumentedRouter().route(
    {
      method: 'get',
      path: '/status',
      summary: 'Service status',
      description: 'Checks Postgres and Redis (1.5 s each). `operational` when both answer, else 503 `degraded` with the failing check.',
      tags: ['auth: status'],
      responses: { 200: { description: 'Operational', schema: statusReply }, 503: { description: 'Degraded', schema: statusReply } },
    },
    async (_req, res) => {
      const [postgres, redis] = await Promise.all([probe(() => ctx.db.raw('SELECT 1')), probe(() => ctx.redis.ping())]);
      const healthy = postgres === 'ok' && redis === 'ok';
      res.status(healthy ? 200 : 503).json({ status: healthy ? 'operational' : 'degraded', checks: { postgres, redis } });
    },
  );
}

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}
