/**
 * Idle memory of the agent (issue 5: aim at 60 MB or less). Starts the control plane, enrolls real
 * agent processes against it (the bundle nodes run, and the source `npm run agent` runs), lets them
 * sit idle (long-polling, heartbeating) and reads their resident set size from /proc, beside a bare
 * Node process measured in the same run as the denominator of the ratio.
 *   npm run bench -- test/bench/agent-idle-rss.bench.ts      (BENCH_IDLE_SECONDS, default 20)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { issueEnrollmentToken } from '../../shared/domains/nodes/enrollment.ts';
import { spawnAgent, type AgentProcess } from '../helpers/agent-process.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';

const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const V8_FLAGS = ['--max-semi-space-size=1', '--optimize-for-size'];
const dockerSocket = process.env.DOCKER_SOCKET ?? '/run/podman/podman.sock';

function rssOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-agent-'));
const bundle = path.join(work, 'berth-agent.mjs');
execFileSync(process.execPath, ['ops/build-agent.mjs', path.relative(process.cwd(), bundle)], { stdio: 'inherit' });

const stack = await startStack({ workers: false });
const children: ChildProcess[] = [];
try {
  async function enrolledAgent(label: string, entry: string, nodeArgs: string[] = []): Promise<AgentProcess> {
    const [row] = await stack.ctx
      .db('nodes')
      .insert({ name: `bench-${label}-${Date.now()}`, region: 'bench', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root' })
      .returning('id');
    const token = await issueEnrollmentToken(stack.ctx.db, row.id as string);
    const home = path.join(work, label.replace(/\W+/g, '-'));
    fs.mkdirSync(home);
    fs.writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({
        control_plane_url: stack.api.url,
        data_dir: path.join(home, 'data'),
        docker_socket: dockerSocket,
        enrollment_token: token,
        log_level: 'info',
      }),
    );
    const agent = spawnAgent({ entry, nodeArgs, env: { AGENT_CONFIG: path.join(home, 'config.json'), AGENT_LOG_LEVEL: 'info' } });
    children.push(agent.child);
    await agent.waitForLog((line) => line.msg === 'node status', 60_000);
    return agent;
  }

  const baseline = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(baseline);
  const agents = {
    bundle: await enrolledAgent('bundle', bundle),
    // V8's young generation kept small and size-favouring heuristics: flags a node's unit can pass
    'bundle + V8 flags': await enrolledAgent('bundle-flags', bundle, V8_FLAGS),
    source: await enrolledAgent('source', 'agent/main.ts'),
  };
  console.log(`agent-idle-rss: ${Object.keys(agents).length} agents enrolled and heartbeating; idle for ${idleSeconds} s...`);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));

  const node = rssOf(baseline.pid!);
  const rows = [
    { process: `bare node (${process.version})`, ...node, ratio: 1 },
    ...Object.entries(agents).map(([label, agent]) => {
      const measured = rssOf(agent.pid);
      return { process: `agent ${label}`, ...measured, ratio: measured.rssMb / node.rssMb };
    }),
  ];
  for (const row of rows) {
    console.log(
      `agent-idle-rss: ${row.process.padEnd(26)} rss ${row.rssMb.toFixed(1).padStart(6)} MB  peak ${row.peakMb.toFixed(1).padStart(6)} MB  ×${row.ratio.toFixed(2)} of bare node`,
    );
  }
  const [bundled, flagged] = [rows[1]!, rows[2]!];
  console.log(
    `agent-idle-rss: bundle ${(fs.statSync(bundle).size / 1024).toFixed(0)} KiB; idle RSS ${bundled.rssMb.toFixed(1)} MB, ${flagged.rssMb.toFixed(1)} MB with ${V8_FLAGS.join(' ')} ` +
      `(aim <= 60 MB: ${Math.min(bundled.rssMb, flagged.rssMb) <= 60 ? 'met' : 'NOT met'}); ${(bundled.rssMb - node.rssMb).toFixed(1)} MB above bare node`,
  );
} finally {
  for (const child of children) child.kill('SIGKILL');
  await stack.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(0);
