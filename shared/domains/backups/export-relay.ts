import http from 'node:http';
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';

/**
 * A backup's download waits in the API process that answered it (exports.ts), but the node's
 * stream may reach any API process behind the load balancer. So the waiting process records, in
 * Redis, the address its download came in on; a process that gets a part of a stream it does not
 * hold forwards the part there, as it came (the agent's own token, checked again by the owner),
 * with backpressure both ways. One hop at most: a forwarded part carries RELAYED_HEADER and is
 * never forwarded again.
 */
export const RELAYED_HEADER = 'berth-stream-relayed';

/** Headers of the agent's request the owner needs to check and read the part. */
const FORWARDED_HEADERS = ['authorization', 'content-type', 'content-length', 'berth-agent-protocol', 'x-request-id'];

const ownerKey = (redisPrefix: string, streamId: string) => `${redisPrefix}:export-stream:${streamId}`;

/**
 * This process's address as the download's connection reached it (the load balancer's side of
 * it, so other API processes on that network reach it the same way).
 */
export function addressOf(socket: Socket): string {
  const host = socket.localAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${socket.localPort}`;
}

/** Records the process holding a stream's download, for as long as the stream may last. */
export async function recordExportOwner(redis: Redis, redisPrefix: string, streamId: string, address: string, ttlSeconds: number): Promise<void> {
  await redis.set(ownerKey(redisPrefix, streamId), address, 'EX', ttlSeconds);
}

export async function forgetExportOwner(redis: Redis, redisPrefix: string, streamId: string): Promise<void> {
  await redis.del(ownerKey(redisPrefix, streamId));
}

/** The address of the process holding a stream's download; null: none (unknown, or over). */
export async function exportOwner(redis: Redis, redisPrefix: string, streamId: string): Promise<string | null> {
  return redis.get(ownerKey(redisPrefix, streamId));
}

/**
 * Forwards one part the agent posted (`incoming`, at `path`) to the process at `owner`; its answer
 * (status and JSON body) is what the agent gets. Rejects when the owner cannot be reached.
 */
export function forwardPart(owner: string, path: string, incoming: http.IncomingMessage): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { [RELAYED_HEADER]: '1' };
  for (const name of FORWARDED_HEADERS) {
    const value = incoming.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, owner), { method: 'POST', headers, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 502, body: Buffer.concat(chunks).toString() }));
      answer.on('error', reject);
    });
    request.on('error', reject);
    // a part cut off mid-body must cut the owner's request too, not end it as if complete
    incoming.on('close', () => {
      if (!incoming.complete) request.destroy(new Error('the agent went away'));
    });
    incoming.pipe(request);
  });
}

/**
 * A part of a stream this process does not hold, sent on to the process that does; null when there
 * is none to send it to (no such stream, this process is the owner, or the part was forwarded once).
 */
export async function forwardToOwner(
  deps: { redis: Redis; config: { redisPrefix: string } },
  streamId: string,
  incoming: http.IncomingMessage & { originalUrl: string },
): Promise<{ status: number; body: string } | null> {
  if (incoming.headers[RELAYED_HEADER]) return null;
  const owner = await exportOwner(deps.redis, deps.config.redisPrefix, streamId);
  if (!owner || owner === addressOf(incoming.socket)) return null;
  return forwardPart(owner, incoming.originalUrl, incoming);
}
