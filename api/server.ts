import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from '../shared/context.ts';
import { buildApp } from './app.ts';
import { createPrincipalCache, type PrincipalCache } from '../shared/domains/auth/principal-cache.ts';

export type RunningApi = {
  url: string;
  port: number;
  /** The /v1 callers this process keeps (shared/domains/auth/principal-cache.ts). */
  principals: PrincipalCache;
  close(): Promise<void>;
};

/**
 * Listens on HOST:PORT. close() stops accepting, lets in-flight requests finish within the grace
 * period, then drops what is left (idle keep-alive connections at once). `requestTimeout` bounds
 * receiving a request, not answering it, so an event stream (api/operations/operation-events.routes.ts)
 * outlives it.
 */
export async function startApi(ctx: Context): Promise<RunningApi> {
  const principals = createPrincipalCache(ctx.config.databaseUrl, ctx.logger);
  const server = http.createServer(buildApp(ctx, principals));
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.port, ctx.config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? '127.0.0.1' : ctx.config.host;
  ctx.logger.info({ port, public_url: ctx.config.publicUrl }, 'api listening');
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    principals,
    async close() {
      // Event streams never end by themselves: they end now, and their clients resume elsewhere (Last-Event-ID).
      await ctx.operationEvents.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), ctx.config.shutdownGraceMs);
      await closed;
      clearTimeout(grace);
      await principals.close();
    },
  };
}
