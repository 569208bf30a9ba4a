import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../shared/agent-protocol/protocol.ts';
import { AgentCommandRow, Node } from '../../../shared/db/models.ts';
import { queueAgentCommand } from '../../../shared/domains/agent/agent-commands.ts';
import { issueEnrollmentToken } from '../../../shared/domains/nodes/enrollment.ts';
import { insertTestOperation, testKind } from '../../helpers/test-operations.ts';
import { runAgentCommand } from '../../../workers/agent/run-command.ts';
import { spawnAgent, type AgentProcess } from '../../helpers/agent-process.ts';
import { unique } from '../../helpers/factories.ts';
import { dockerSocket, testBaseImage } from '../../helpers/runtime-peers.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

/**
 * The real agent process against the real control plane and podman: enrollment, heartbeats, commands
 * through the protocol (as a worker's step queues them), the journal across a kill -9, deadlines,
 * graceful shutdown, and the refusals that must stop it or must not.
 */
let stack: Stack;
const docker = new Docker({ socketPath: dockerSocket() });
const image = testBaseImage();
const running: AgentProcess[] = [];
const dirs: string[] = [];
const nodeIds: string[] = [];

beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  // the tests of one node share its agent process: they are stopped at the end only
  for (const agent of running.splice(0)) if (agent.child.exitCode === null && agent.child.signalCode === null) agent.child.kill('SIGKILL');
  for (const nodeId of nodeIds) {
    const left = await docker.listContainers({ all: true, filters: { label: [`berth.node=${nodeId}`] } });
    await Promise.all(left.map((container) => docker.getContainer(container.Id).remove({ force: true })));
  }
  await stack?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

type EnrollingNode = { nodeId: string; token: string; dataDir: string; configFile: string };

/** A node row waiting for its agent, and the config file the installer would write for it. */
async function enrollingNode(): Promise<EnrollingNode> {
  const [row] = await stack.ctx
    .db('nodes')
    .insert({ name: unique('node'), region: 'test-1', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root' })
    .returning('id');
  const nodeId = row.id as string;
  nodeIds.push(nodeId);
  const token = await issueEnrollmentToken(stack.ctx.db, nodeId);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-e2e-'));
  dirs.push(home);
  const dataDir = path.join(home, 'data');
  const configFile = path.join(home, 'config.json');
  fs.writeFileSync(
    configFile,
    JSON.stringify({ control_plane_url: stack.api.url, data_dir: dataDir, docker_socket: dockerSocket(), enrollment_token: token, concurrency: 2 }),
    { mode: 0o600 },
  );
  return { nodeId, token, dataDir, configFile };
}

function startAgent(node: EnrollingNode, env: Record<string, string> = {}): AgentProcess {
  const agent = spawnAgent({ env: { AGENT_CONFIG: node.configFile, AGENT_SHUTDOWN_GRACE_MS: '5000', ...env } });
  running.push(agent);
  return agent;
}

const operation = () => insertTestOperation(stack.ctx.db, testKind('test.agent'), { teamId: null, target: { type: 'node', id: 'agent-loop' } });
const started = (agent: AgentProcess, commandId: string) => agent.logs().filter((line) => line.msg === 'command started' && line.command === commandId);

describe('the agent process', () => {
  let node: EnrollingNode;
  let agent: AgentProcess;
  const site = `berth-e2e-${randomBytes(4).toString('hex')}`;

  it('enrolls with the token from its config file, heartbeats with metrics, and runs the commands a step queues', async () => {
    node = await enrollingNode();
    agent = startAgent(node);
    await agent.waitForLog((line) => line.msg === 'agent running');
    const enrolled = await until(async () => {
      const row = await Node.query(stack.ctx.db).findById(node.nodeId);
      return row?.public_key && row.last_heartbeat_at ? row : null;
    }, 'the first heartbeat');
    expect(enrolled.enrollment_token_hash).toBeNull();
    expect(enrolled.facts).toMatchObject({ hostname: os.hostname(), arch: os.machine(), docker: { api_version: expect.any(String) } });
    expect(enrolled.metrics).toMatchObject({
      cpu_percent: expect.any(Number),
      memory: { total_bytes: expect.any(Number) },
      disk: { path: node.dataDir },
      containers: { total: expect.any(Number) },
    });
    expect(enrolled.agent_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(fs.statSync(path.join(node.dataDir, 'keys/agent-ed25519.pem')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(node.dataDir, 'keys/node.json'), 'utf8')).node_id).toBe(node.nodeId);

    const op = await operation();
    const ensured = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'site',
      nodeId: node.nodeId,
      kind: 'container.ensure',
      timeoutSeconds: 60,
      payload: { name: site, image, labels: { 'berth.site': 'e2e' }, mounts: [{ type: 'bind', source: 'work', target: '/srv/work' }] },
    });
    expect(ensured).toMatchObject({ created: true, running: true });
    const info = await docker.getContainer(site).inspect();
    expect(info.Config.Labels).toMatchObject({ 'berth.managed': 'true', 'berth.node': node.nodeId, 'berth.site': 'e2e' });

    const said = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'hello',
      nodeId: node.nodeId,
      kind: 'container.exec',
      timeoutSeconds: 60,
      payload: { name: site, cmd: ['sh', '-c', 'echo hello from the node; echo careful >&2'] },
    });
    expect(said).toEqual({ exit_code: 0, stdout: 'hello from the node\n', stderr: 'careful\n' });
    // the exec's lines reached the operation's log through progress posts
    const lines = await stack.ctx.db('operation_logs').where({ operation_id: op.id }).select('stream', 'line', 'step');
    expect(lines).toEqual(
      expect.arrayContaining([
        { stream: 'stdout', line: 'hello from the node', step: 'hello' },
        { stream: 'stderr', line: 'careful', step: 'hello' },
      ]),
    );
    expect(fs.readdirSync(path.join(node.dataDir, 'journal')).filter((name) => name.endsWith('.json'))).toHaveLength(2);
  }, 90_000);

  it('after kill -9 in the middle of a command, the redelivery runs it once more to its end; redelivered once finished, it is answered from the journal', async () => {
    const op = await operation();
    const commandId = `${op.id}:slow`;
    const result = runAgentCommand(stack.ctx, {
      operation: op,
      step: 'slow',
      nodeId: node.nodeId,
      kind: 'container.exec',
      timeoutSeconds: 90,
      payload: { name: site, cmd: ['sh', '-c', 'echo run >> /srv/work/runs; sleep 3; echo done'] },
    });
    await agent.waitForLog((line) => line.msg === 'command started' && line.command === commandId);
    agent.child.kill('SIGKILL');
    await agent.exited;
    expect(fs.readdirSync(path.join(node.dataDir, 'journal')).filter((name) => name.endsWith('.json'))).toHaveLength(2); // nothing journaled for it
    // The control plane delivers it again when its lease runs out (60 s); the test ends the lease now.
    await AgentCommandRow.query(stack.ctx.db)
      .patch({ lease_until: new Date(Date.now() - 1000) })
      .where({ id: commandId });

    agent = startAgent(node);
    await agent.waitForLog((line) => line.msg === 'already enrolled: the enrollment token in the configuration is not used (it can be removed)');
    await expect(result).resolves.toEqual({ exit_code: 0, stdout: 'done\n', stderr: '' });
    const row = (await AgentCommandRow.query(stack.ctx.db).findById(commandId))!;
    expect(row.deliveries).toBe(2);
    expect(started(agent, commandId)).toHaveLength(1);
    const runs = fs.readFileSync(path.join(node.dataDir, 'work/runs'), 'utf8');

    // the result's acknowledgement was lost, say: the command comes a third time and does not run
    await AgentCommandRow.query(stack.ctx.db)
      .patch({ status: 'delivered', lease_until: new Date(Date.now() - 1000), finished_at: null })
      .where({ id: commandId });
    await agent.waitForLog((line) => line.msg === 'redelivered after it finished: answering from the journal' && line.command === commandId, 40_000);
    const answered = await until(async () => {
      const again = await AgentCommandRow.query(stack.ctx.db).findById(commandId);
      return again?.status === 'succeeded' ? again : null;
    }, 'the journaled answer');
    expect(answered.deliveries).toBe(3);
    expect(answered.result).toEqual({ exit_code: 0, stdout: 'done\n', stderr: '' });
    expect(started(agent, commandId)).toHaveLength(1);
    // a later command has been taken and answered: the agent is past the redelivery, and the file it
    // reads shows no second run (the command writes its line first thing)
    const later = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'after',
      nodeId: node.nodeId,
      kind: 'container.exec',
      timeoutSeconds: 60,
      payload: { name: site, cmd: ['cat', '/srv/work/runs'] },
    });
    expect(later).toEqual({ exit_code: 0, stdout: runs, stderr: '' });
    expect(started(agent, commandId)).toHaveLength(1);
    expect(fs.readFileSync(path.join(node.dataDir, 'work/runs'), 'utf8')).toBe(runs);
  }, 120_000);

  it('fails a command at its deadline and goes on with the next', async () => {
    const id = unique('deadline');
    await queueAgentCommand(stack.ctx, {
      id,
      nodeId: node.nodeId,
      operationId: null,
      kind: 'container.exec',
      payload: { name: site, cmd: ['sleep', '30'] },
      deadlineAt: new Date(Date.now() + 3000),
    });
    const failed = await until(
      async () => {
        const row = await AgentCommandRow.query(stack.ctx.db).findById(id);
        return row?.status === 'failed' ? row : null;
      },
      'the deadline failure',
      40_000,
    );
    expect(failed.error).toMatchObject({ message: 'deadline exceeded', permanent: false });
    const op = await operation();
    await expect(
      runAgentCommand(stack.ctx, { operation: op, step: 'info', nodeId: node.nodeId, kind: 'runtime.info', payload: {}, timeoutSeconds: 40 }),
    ).resolves.toMatchObject({ hostname: os.hostname() });
  }, 90_000);

  it('fails an invalid payload for good without running anything', async () => {
    const id = unique('invalid');
    await queueAgentCommand(stack.ctx, {
      id,
      nodeId: node.nodeId,
      operationId: null,
      kind: 'directory.ensure',
      payload: { path: '../../etc' },
      deadlineAt: new Date(Date.now() + 60_000),
    });
    const failed = await until(
      async () => {
        const row = await AgentCommandRow.query(stack.ctx.db).findById(id);
        return row?.status === 'failed' ? row : null;
      },
      'the refusal',
      40_000,
    );
    expect(failed.error).toMatchObject({ permanent: true, message: expect.stringMatching(/^invalid directory.ensure payload: path/) });
  }, 60_000);

  it('on SIGTERM stops polling, fails what does not finish within the grace period, and exits 0', async () => {
    agent.child.kill('SIGKILL');
    await agent.exited;
    agent = startAgent(node, { AGENT_SHUTDOWN_GRACE_MS: '500' });
    await agent.waitForLog((line) => line.msg === 'agent running');
    const id = unique('interrupted');
    await queueAgentCommand(stack.ctx, {
      id,
      nodeId: node.nodeId,
      operationId: null,
      kind: 'container.exec',
      payload: { name: site, cmd: ['sleep', '30'] },
      deadlineAt: new Date(Date.now() + 60_000),
    });
    await agent.waitForLog((line) => line.msg === 'command started' && line.command === id);
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    expect(agent.logs().map((line) => line.msg)).toContain('stopped');
    const row = (await AgentCommandRow.query(stack.ctx.db).findById(id))!;
    expect(row.status).toBe('failed');
    expect(row.error?.message).toBe('the agent stopped before the command finished');
  }, 60_000);

  it('keeps running while its node is disabled, and says so once', async () => {
    agent = startAgent(node);
    await agent.waitForLog((line) => line.msg === 'agent running');
    await until(async () => agent.logs().some((line) => line.msg === 'node status'), 'a heartbeat');
    await Node.query(stack.ctx.db).patch({ status: 'disabled', disabled_at: new Date() }).where({ id: node.nodeId });
    const refused = await agent.waitForLog((line) => /disabled by an operator/.test(line.msg), 40_000);
    expect(refused.level).toBe(50);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(agent.child.exitCode).toBeNull();
    expect(agent.logs().filter((line) => /disabled by an operator/.test(line.msg))).toHaveLength(1);
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  }, 60_000);
});

describe('the bundle (the one file node enrollment uploads)', () => {
  it('builds, enrolls and drives podman like the source does', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-bundle-'));
    dirs.push(out);
    const bundle = path.join(out, 'berth-agent.mjs');
    execFileSync(process.execPath, ['ops/build-agent.mjs', path.relative(process.cwd(), bundle)], { stdio: 'pipe' });
    const node = await enrollingNode();
    const agent = spawnAgent({ entry: bundle, env: { AGENT_CONFIG: node.configFile } });
    running.push(agent);
    await agent.waitForLog((line) => line.msg === 'agent running');
    expect(agent.logs()[0]).toMatchObject({ msg: 'berth agent starting', version: expect.stringMatching(/^\d+\.\d+\.\d+(\+[0-9a-f]+)?$/) });
    const op = await operation();
    const name = `berth-bundle-${randomBytes(4).toString('hex')}`;
    await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'site',
      nodeId: node.nodeId,
      kind: 'container.ensure',
      timeoutSeconds: 60,
      payload: { name, image },
    });
    const said = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'hello',
      nodeId: node.nodeId,
      kind: 'container.exec',
      timeoutSeconds: 60,
      payload: { name, cmd: ['echo', 'bundled'] },
    });
    expect(said.stdout).toBe('bundled\n');
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  }, 90_000);
});

describe('refusals that stop the agent', () => {
  it('exits 77 when its enrollment token is refused', async () => {
    const node = await enrollingNode();
    await stack.ctx.db('nodes').where({ id: node.nodeId }).update({ enrollment_token_hash: null });
    const agent = startAgent(node);
    expect(await agent.exited).toBe(77);
    expect(agent.output()).toMatch(/refused the enrollment.*ask for a new enrollment token/);
    expect(fs.existsSync(path.join(node.dataDir, 'keys/node.json'))).toBe(false);
  }, 30_000);

  it('exits 76 with a clear message when the control plane does not speak its protocol', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 'PROTOCOL_MISMATCH',
            message: `Agent protocol ${PROTOCOL_VERSION} is not supported; this control plane speaks ${PROTOCOL_VERSION + 1} to ${PROTOCOL_VERSION + 2}: upgrade the agent`,
            details: { received: String(PROTOCOL_VERSION), supported: { min: PROTOCOL_VERSION + 1, max: PROTOCOL_VERSION + 2 } },
          },
          meta: {},
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const node = await enrollingNode();
      const agent = startAgent(node, { AGENT_CONTROL_PLANE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect(await agent.exited).toBe(76);
      const fatal = agent.logs().find((line) => line.level === 60)!;
      expect(fatal.msg).toMatch(new RegExp(`does not speak agent protocol ${PROTOCOL_VERSION}: install the agent that matches the control plane`));
      expect(fatal.supported).toEqual({ min: PROTOCOL_VERSION + 1, max: PROTOCOL_VERSION + 2 });
    } finally {
      server.close();
    }
  }, 30_000);
});
