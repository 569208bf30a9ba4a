import type { Context } from './context.ts';

/** How long each peer may take to answer before it counts as unavailable. */
const CHECK_TIMEOUT_MS = 1_500;

export type PeerChecks = { postgres: 'ok' | 'unavailable'; redis: 'ok' | 'unavailable' };

/** Whether Postgres and Redis answer, each within 1.5 s (the service status). */
export async function checkPeers(ctx: Pick<Context, 'db' | 'redis'>): Promise<PeerChecks> {
  const [postgres, redis] = await Promise.all([probe(() => ctx.db.raw('SELECT 1')), probe(() => ctx.redis.ping())]);
  return { postgres, redis };
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
