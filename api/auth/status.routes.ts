import { Router } from 'express';
import type { Context } from '../../shared/context.ts';

const CHECK_TIMEOUT_MS = 1_500;

/** GET /status: 200 `operational` when Postgres and Redis answer, else 503 `degraded`. */
export function statusRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/status', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      probe(() => ctx.db.raw('SELECT 1')),
      probe(() => ctx.redis.ping()),
    ]);
    const healthy = postgres === 'ok' && redis === 'ok';
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'operational' : 'degraded', checks: { postgres, redis } });
  });
  return router;
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
