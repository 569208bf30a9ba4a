import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'vitest';
import { operationOutcome } from './site-node.ts';
import type { SiteOnNode } from './site-on-node.ts';

/** The backups of a site's environment (production unless told), under /v1. */
export function backupsPath(siteId: number, environment = 'production'): string {
  return `/v1/sites/${siteId}/environments/${environment}/backups`;
}

/**
 * A backup of the site's production asked for by its owner (answered 202), once its operation has
 * ended: the answer, the backup's id and the operation's outcome, which must be a success if told.
 */
export async function backUp(
  site: SiteOnNode,
  options: { note?: string; mustSucceed?: boolean } = {},
): Promise<{ reply: { status: number; body: any }; backupId: string; outcome: Record<string, any> }> {
  const reply = await site.stack.client().post(backupsPath(site.siteId), options.note ? { note: options.note } : {}, site.bearer());
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
  if (options.mustSucceed) expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
  return { reply, backupId: reply.body.data.backup.id as string, outcome };
}

/**
 * The backup's download, as its owner gets it, streamed through `zstd -d | tar -x` into a new
 * directory under `scratch` (from `apiUrl` when given, else the stack's API); the RSS of this process sampled meanwhile. tar's refusals
 * fail the unpacking unless `tarErrors` is 'ignore' (an archive of a tree raced while it was read
 * may hold an entry tar will not make: the rest is still unpacked and checked).
 */
export async function downloadAndUnpack(
  site: Pick<SiteOnNode, 'stack' | 'siteId' | 'bearer'>,
  backupId: string,
  scratch: string,
  options: { tarErrors?: 'fail' | 'ignore'; apiUrl?: string } = {},
): Promise<{ dir: string; headers: Headers; archiveBytes: number; rssGrowth: number }> {
  const dir = fs.mkdtempSync(path.join(scratch, 'x-'));
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const response = await fetch(`${options.apiUrl ?? site.stack.api.url}${backupsPath(site.siteId)}/${backupId}/download`, site.bearer());
    expect(response.status).toBe(200);
    let archiveBytes = 0;
    // the pipeline's exit is tar's, or zstd's when tar's refusals are ignored
    const script = options.tarErrors === 'ignore' ? `zstd -d -q | tar -x -C '${dir}' 2>/dev/null; exit \${PIPESTATUS[0]}` : `zstd -d -q | tar -x -C '${dir}'`;
    const unpack = spawn('bash', ['-c', script], { stdio: ['pipe', 'inherit', 'inherit'] });
    const exited = new Promise<number>((resolve) => unpack.on('close', (code) => resolve(code ?? -1)));
    const body = Readable.fromWeb(response.body as never);
    body.on('data', (chunk: Buffer) => (archiveBytes += chunk.length));
    await pipeline(body, unpack.stdin);
    expect(await exited).toBe(0);
    return { dir, headers: response.headers, archiveBytes, rssGrowth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}
