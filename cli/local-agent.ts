import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { readNodeIdentity, KEYS_DIR } from '../agent/identity.ts';
import type { Context } from '../shared/context.ts';
import { Node } from '../shared/db/models.ts';
import { issueEnrollmentToken } from '../shared/domains/nodes/enrollment.ts';
import { AGENT_NODE_FLAGS } from '../workers/nodes/agent-install.ts';
import { localAgentEntry } from './agent-bundle.ts';

/** Exit codes after which a restart cannot help (protocol, enrollment refused, configuration). */
const FINAL_EXIT_CODES = new Set([76, 77, 78]);

export type LocalAgent = { nodeId: string; stop(): Promise<void> };

/**
 * `berth start` on a single machine: this machine is a node too. Its row is made on first start
 * (enrolled by a one-time token rather than over SSH, since we are already on the host), and the
 * agent runs as a child process with its data under DATA_DIR/agent, restarted when it dies.
 */
export async function startLocalAgent(ctx: Context, api: { url: string; port: number }): Promise<LocalAgent | undefined> {
  const { mode, nodeName } = ctx.config.localAgent;
  if (mode === 'off') return undefined;
  const socket = await firstAnsweringSocket(ctx.config.nodes.dockerSockets);
  if (!socket) {
    const message = `no Docker Engine API answers on ${ctx.config.nodes.dockerSockets.join(', ')}`;
    if (mode === 'on') throw new Error(`LOCAL_AGENT=on but ${message}`);
    ctx.logger.warn({ sockets: ctx.config.nodes.dockerSockets }, `${message}: the local agent is not started (sites need a node)`);
    return undefined;
  }
  const dataDir = path.join(ctx.config.dataDir, 'agent');
  const { node, enrollmentToken } = await prepareLocalNode(ctx, nodeName, dataDir);
  // Listening on every address: the agent calls in over loopback. On one address: that address,
  // over plain http, which stays on this machine.
  const wildcard = ['0.0.0.0', '::', '', 'localhost'].includes(ctx.config.host);
  // The agent's settings go in a 0600 file like the installer's, so the token is not in its environment.
  const configPath = path.join(dataDir, 'config.json');
  const settings = {
    control_plane_url: wildcard ? `http://127.0.0.1:${api.port}` : api.url,
    allow_insecure: !wildcard,
    data_dir: dataDir,
    docker_socket: socket,
    log_level: ctx.config.logLevel,
    ...(enrollmentToken ? { enrollment_token: enrollmentToken } : {}),
  };
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(configPath, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(configPath, 0o600);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, AGENT_CONFIG: configPath };
  const entry = localAgentEntry(ctx.config.nodes.agentBundlePath, ctx.logger);
  let child: ChildProcess | undefined;
  let stopping = false;
  let restartDelayMs = 1_000;
  const launch = () => {
    // as a node's systemd unit runs it: the bundle, with the same V8 flags
    child = spawn(process.execPath, [...AGENT_NODE_FLAGS.split(' '), entry], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    const startedAt = Date.now();
    child.on('exit', (code, signal) => {
      if (stopping) return;
      if (code !== null && FINAL_EXIT_CODES.has(code)) {
        ctx.logger.error({ node: nodeName, exit_code: code }, 'local agent stopped for good; see its log above');
        return;
      }
      // A long healthy run resets the backoff; a crash loop slows down to one try every 30 s.
      restartDelayMs = Date.now() - startedAt > 60_000 ? 1_000 : Math.min(restartDelayMs * 2, 30_000);
      ctx.logger.warn({ node: nodeName, exit_code: code, signal, restart_in_ms: restartDelayMs }, 'local agent exited; restarting');
      setTimeout(() => !stopping && launch(), restartDelayMs).unref();
    });
  };
  launch();
  ctx.logger.info({ node: nodeName, node_id: node.id, docker_socket: socket, data_dir: dataDir, entry }, 'local agent started');
  return {
    nodeId: node.id,
    async stop() {
      stopping = true;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), ctx.config.shutdownGraceMs + 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The local node's row, and a one-time enrollment token unless the agent's saved identity still
 * matches it. A database that was reset (or an identity from another database) is enrolled anew.
 */
async function prepareLocalNode(ctx: Context, name: string, dataDir: string): Promise<{ node: Node; enrollmentToken: string | null }> {
  const identity = fs.existsSync(dataDir) ? readNodeIdentity(dataDir) : null;
  let node = await Node.query(ctx.db).findOne({ name });
  if (identity && node && identity.node_id === node.id && node.public_key && node.status !== 'disabled') return { node, enrollmentToken: null };
  if (node?.status === 'disabled') throw new Error(`the local node "${name}" is disabled by an operator; enable it or set LOCAL_AGENT=off`);
  fs.rmSync(path.join(dataDir, KEYS_DIR), { recursive: true, force: true });
  if (!node) {
    node = await Node.query(ctx.db).insertAndFetch({
      name,
      region: 'local',
      public_address: '127.0.0.1',
      ssh_host: 'localhost',
      ssh_port: 22,
      ssh_user: 'local',
    });
  } else {
    await Node.query(ctx.db).patch({ status: 'enrolling', public_key: null, updated_at: new Date() }).where({ id: node.id });
  }
  return { node, enrollmentToken: await issueEnrollmentToken(ctx.db, node.id) };
}

async function firstAnsweringSocket(sockets: readonly string[]): Promise<string | undefined> {
  for (const socket of sockets) if (fs.existsSync(socket) && (await pings(socket))) return socket;
  return undefined;
}

function pings(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ socketPath, path: '/_ping', timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}
