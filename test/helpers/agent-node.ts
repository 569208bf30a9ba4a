import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../shared/db/knex.ts';
import { Node } from '../../shared/db/models.ts';
import { issueEnrollmentToken } from '../../shared/domains/nodes/enrollment.ts';
import { spawnAgent, type AgentProcess } from './agent-process.ts';
import { unique } from './factories.ts';
import { dockerSocket } from './runtime-peers.ts';
import { until } from './until.ts';

export type AgentNode = { nodeId: string; agent: AgentProcess; dataDir: string; stop(): Promise<void> };

/**
 * A node row enrolled by the real agent process (`node agent/main.ts`, as the installer starts it:
 * a config file with a one-time token), on podman; resolves once the node is online (its first
 * heartbeat). No container is made: enough for commands that touch nothing (agent.ping).
 */
export async function startAgentNode(options: { db: Db; apiUrl: string; concurrency?: number; env?: Record<string, string> }): Promise<AgentNode> {
  const [row] = await options
    .db('nodes')
    .insert({ name: unique('node'), region: 'test-1', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root' })
    .returning('id');
  const nodeId = row.id as string;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-node-'));
  const dataDir = path.join(home, 'data');
  const configFile = path.join(home, 'config.json');
  const config = {
    control_plane_url: options.apiUrl,
    data_dir: dataDir,
    docker_socket: dockerSocket(),
    enrollment_token: await issueEnrollmentToken(options.db, nodeId),
    // unset: the agent's own default, as an installed agent runs
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    logs_interval_ms: 0,
  };
  fs.writeFileSync(configFile, JSON.stringify(config), { mode: 0o600 });
  const agent = spawnAgent({ env: { AGENT_CONFIG: configFile, AGENT_SHUTDOWN_GRACE_MS: '2000', ...options.env } });
  const stop = async () => {
    if (agent.child.exitCode === null && agent.child.signalCode === null) {
      agent.child.kill('SIGTERM');
      await agent.exited;
    }
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    await until(
      async () => {
        if (agent.child.exitCode !== null) throw new Error(`the agent exited (${agent.child.exitCode}):\n${agent.output()}`);
        const node = await Node.query(options.db).findById(nodeId).select('status', 'last_heartbeat_at');
        return node?.status === 'online' && node.last_heartbeat_at;
      },
      () => `node ${nodeId} to turn online:\n${agent.output()}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodeId, agent, dataDir, stop };
}
