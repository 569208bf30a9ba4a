/**
 * Idle memory of the agent (issue 24: 60 MB or less). Starts the control plane, enrolls real agent
 * processes against it (the bundle with AGENT_NODE_FLAGS, as a node's unit and `berth start`'s local
 * agent run it; the bundle without the flags; the sources, which nothing runs any more), lets them sit idle
 * (long-polling, heartbeating, their SFTP server listening) and reads their resident set size from
 * /proc, beside a bare Node process started in the same run: the floor.
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
import { median } from '../helpers/measure.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';
import { AGENT_NODE_FLAGS } from '../../workers/nodes/agent-install.ts';
import { reportFigure } from './report.ts';

const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const V8_FLAGS = AGENT_NODE_FLAGS.split(' ');
const GOAL_MB = 60;
const dockerSocket = process.env.DOCKER_SOCKET ?? '/run/podman/podman.sock';

function rssOf(pid: number): { rssMb: number; peakMb: number; anonMb: number; fileMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024, anonMb: kb('RssAnon') / 1024, fileMb: kb('RssFile') / 1024 };
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
        // each its own SFTP port: listening is part of an idle agent
        sftp_host: '127.0.0.1',
        sftp_port: 0,
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
    // what a node's systemd unit and `berth start` run: the bundle with AGENT_NODE_FLAGS
    'as nodes and npm start run it (bundle + V8 flags)': await enrolledAgent('bundle-flags', bundle, V8_FLAGS),
    'bundle without the V8 flags': await enrolledAgent('bundle', bundle),
    source: await enrolledAgent('source', 'agent/main.ts'),
  };
  console.log(`agent-idle-rss: ${Object.keys(agents).length} agents enrolled and heartbeating; idle for ${idleSeconds} s...`);
  // RSS moves with each collection: the median of one sample a second over the idle window's second half
  const processes = { floor: baseline.pid!, ...Object.fromEntries(Object.entries(agents).map(([label, agent]) => [label, agent.pid])) };
  const samples = new Map<string, number[]>(Object.keys(processes).map((label) => [label, []]));
  await new Promise((resolve) => setTimeout(resolve, (idleSeconds / 2) * 1000));
  for (let second = 0; second < Math.max(1, idleSeconds / 2); second++) {
    for (const [label, pid] of Object.entries(processes)) samples.get(label)!.push(rssOf(pid).rssMb);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }

  const floorWhat = `bare Node ${process.version}, same run`;
  const bare = rssOf(baseline.pid!);
  console.log(
    `agent-idle-rss: bundle ${(fs.statSync(bundle).size / 1024).toFixed(0)} KiB; median RSS of ${samples.get('floor')!.length} samples; ` +
      `bare Node now ${bare.anonMb.toFixed(1)} MB anonymous + ${bare.fileMb.toFixed(1)} MB file-backed`,
  );
  for (const [label, agent] of Object.entries(agents)) {
    const now = rssOf(agent.pid);
    const commands = agent.logs().filter((line) => line.msg === 'command started').length;
    console.log(
      `agent-idle-rss: agent ${label}: now ${now.anonMb.toFixed(1)} MB anonymous + ${now.fileMb.toFixed(1)} MB file-backed, peak ${now.peakMb.toFixed(1)} MB; ${commands} command(s) run`,
    );
    reportFigure({
      name: `agent idle RSS, ${label}`,
      measured: median(samples.get(label)!),
      unit: 'MB',
      floor: median(samples.get('floor')!),
      floorWhat,
      // the sources are not what a node or `berth start` runs: shown for comparison, no goal
      goal: label === 'source' ? {} : { measuredAtMost: GOAL_MB },
    });
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
  await stack.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(0);
