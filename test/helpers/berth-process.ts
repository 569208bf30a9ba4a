import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../shared/db/knex.ts';
import { testDatabaseUrl, testRedisUrl } from './services.ts';

const cli = path.resolve('cli/berth.ts');

export type RunningBerth = { child: ChildProcess; output: () => string; baseUrl: string; exited: Promise<number | null> };

/** Every berth process started here; `stopBerthProcesses()` kills those still running (after each test or file). */
const children: ChildProcess[] = [];

export function stopBerthProcesses(): void {
  // The whole process group: `berth start`'s local agent is its child, and would live on (holding
  // the SFTP port, polling a dead API) if only berth were killed.
  for (const child of children.splice(0)) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // the group is gone already
    }
  }
}

/**
 * Runs `berth <command>` (`start`: API, workers and agent; `api`: the API alone) as its own process,
 * the way `npm start` does, on the test database and Redis, and waits until it listens.
 */
export async function startBerth(
  extraEnv: Record<string, string> = {},
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-process-')),
  command: 'start' | 'api' = 'start',
): Promise<RunningBerth> {
  const child = spawn(process.execPath, [cli, command], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: testDatabaseUrl,
      REDIS_URL: testRedisUrl,
      REDIS_PREFIX: `proc-${randomBytes(4).toString('hex')}`,
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://panel.berth.test',
      LOG_LEVEL: 'info',
      // the test database is shared with other files: this process sweeps and dispatches none of their rows
      BILLING_SWEEP_INTERVAL_MS: '0',
      BACKUP_PRUNE_SWEEP_INTERVAL_MS: '0',
      WEBHOOK_DISPATCH_INTERVAL: '0ms',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // a group of its own, so stopBerthProcesses can take the agent it starts down with it
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listening = output.split('\n').find((line) => line.includes('"api listening"'));
    if (listening) return { child, output: () => output, baseUrl: `http://127.0.0.1:${JSON.parse(listening).port}`, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`berth did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The node row named `name` once its agent has enrolled and sent a heartbeat. */
export async function onlineNode(db: Db, name: string, timeoutMs: number): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const node = await db('nodes').where({ name }).first();
    if (node?.status === 'online' && node.last_heartbeat_at) return node;
    if (Date.now() > deadline) throw new Error(`the node did not come online: ${JSON.stringify(node)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
