import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Node } from '../../../shared/db/models.ts';
import { nodeNetworkName } from '../../../shared/domains/nodes/runtime-names.ts';
import { fingerprintOf, openSsh } from '../../../workers/nodes/ssh-session.ts';
import { PROTOCOL_VERSION } from '../../../shared/agent-protocol/protocol.ts';
import { accessTokenOf, createOwner, unique } from '../../helpers/factories.ts';
import { freePort } from '../../helpers/free-port.ts';
import { dockerSocket, testSshd } from '../../helpers/runtime-peers.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

/**
 * `node.enroll` against a real OpenSSH server on loopback (ops/lib/sshd.sh): every way it can fail
 * says which, and the whole enrollment installs and starts the real agent bundle, which registers
 * and heartbeats through the real /v1/agent API until the node is online.
 */
const sshd = testSshd();
const hostKeySha256 = fingerprintOf(Buffer.from(sshd.hostPublicKey.split(' ')[1]!, 'base64'));
const root = path.resolve(import.meta.dirname, '../../..');
const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-enroll-'));
const bundle = path.join(root, `.build/enroll-test-${randomBytes(4).toString('hex')}.mjs`);
const stacks: Stack[] = [];

/** A stack whose agents call it back on a known port, with short enrollment timeouts. */
async function enrollmentStack(env: Record<string, string> = {}) {
  const port = await freePort();
  const stack = await startStack({
    env: {
      PORT: String(port),
      AGENT_CONTROL_PLANE_URL: `http://127.0.0.1:${port}`,
      AGENT_BUNDLE_PATH: bundle,
      NODE_AGENT_DIR: agentDir,
      NODE_DOCKER_SOCKETS: `/nonexistent/docker.sock,${dockerSocket()}`,
      NODE_SSH_TIMEOUT_MS: '5000',
      NODE_REGISTRATION_TIMEOUT_SECONDS: '60',
      OPERATION_ATTEMPTS: '2',
      OPERATION_RETRY_DELAY_MS: '50',
      ...env,
    },
  });
  stacks.push(stack);
  const operator = await createOwner(stack.ctx.db);
  await stack.ctx.db('users').where({ id: operator.userId }).update({ platform_role: 'operator' });
  const token = await accessTokenOf(stack.client(), operator);
  const auth = { headers: { authorization: `Bearer ${token}` } };

  /** POST /v1/nodes, then the operation once it has finished. */
  async function enroll(ssh: Record<string, unknown>): Promise<{ nodeId: string; operation: any }> {
    const created = await stack
      .client()
      .post('/v1/nodes', { name: unique('node'), region: 'test', public_address: '127.0.0.1', ssh: { host: sshd.host, port: sshd.port, ...ssh } }, auth);
    expect(created.status).toBe(202);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const reply = await stack.client().get(`/v1/operations/${created.body.data.id}`, auth);
      expect(reply.status).toBe(200);
      if (['succeeded', 'failed', 'cancelled'].includes(reply.body.data.status)) return { nodeId: created.body.data.target.id, operation: reply.body.data };
      if (Date.now() > deadline) throw new Error(`enrollment did not finish: ${JSON.stringify(reply.body.data)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const node = async (id: string) => (await stack.client().get(`/v1/nodes/${id}`, auth)).body.data;
  return { stack, enroll, node };
}

/** Secrets must not leave the node row: not in the operation (input, result, log) nor in any answer. */
async function expectNoSecretIn(stack: Stack, operation: any, ...secrets: string[]): Promise<void> {
  const logs = await stack.ctx.db('operation_logs').where({ operation_id: operation.id }).select('line');
  const texts = [JSON.stringify(operation), JSON.stringify(logs)];
  for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
}

let env: Awaited<ReturnType<typeof enrollmentStack>>;
beforeAll(async () => {
  // The real agent, bundled as `npm run build:agent` does (ops/build-agent.mjs), into a file of this test's own.
  execFileSync(process.execPath, [path.join(root, 'ops/build-agent.mjs'), path.relative(root, bundle)], { cwd: root, stdio: 'pipe' });
  env = await enrollmentStack();
}, 60_000);
afterAll(async () => {
  // The agent started by the enrollment runs detached on this machine (no systemd here): stop it.
  const pidFile = path.join(agentDir, 'agent.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  // The networks the enrolled agents made for their nodes (the nodes of this file only).
  const docker = new Docker({ socketPath: dockerSocket() });
  for (const stack of stacks) {
    const ids: string[] = await stack.ctx.db('nodes').pluck('id');
    for (const network of await docker.listNetworks({ filters: { label: ['berth.role=network'] } })) {
      if (ids.includes(network.Labels?.['berth.node'] ?? ''))
        await docker
          .getNetwork(network.Id)
          .remove()
          .catch(() => undefined);
    }
  }
  for (const stack of stacks) await stack.stop();
  fs.rmSync(bundle, { force: true });
  fs.rmSync(agentDir, { recursive: true, force: true });
});

describe('node.enroll fails with a message that says which problem it is', () => {
  it('a key the server does not accept: permanent, at connect', async () => {
    const wrongKey = ssh2.utils.generateKeyPairSync('ed25519').private;
    const { nodeId, operation } = await env.enroll({ user: 'root', private_key: wrongKey });
    expect(operation.status).toBe('failed');
    expect(operation.error).toMatchObject({
      step: 'connect',
      message: `SSH authentication failed for root@${sshd.host}:${sshd.port}: the server refused the private key`,
    });
    expect(operation.steps.find((step: any) => step.name === 'connect')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await env.node(nodeId)).toMatchObject({
      status: 'failed',
      enrollment: { status: 'failed', error: { step: 'connect' } },
      ssh: { credentials_stored: true },
    });
    await expectNoSecretIn(env.stack, operation, wrongKey.split('\n')[1]!);
  });

  it('a wrong password: the same, naming the password', async () => {
    const { operation } = await env.enroll({ user: sshd.user, password: 'not-the-password' });
    expect(operation.error).toMatchObject({
      step: 'connect',
      message: `SSH authentication failed for ${sshd.user}@${sshd.host}:${sshd.port}: the server refused the password`,
    });
    await expectNoSecretIn(env.stack, operation, 'not-the-password');
  });

  it('a closed port: retried, then failed as unreachable', async () => {
    const closed = await freePort();
    const created = await env.enroll({ port: closed, user: 'root', private_key: sshd.privateKey });
    expect(created.operation.status).toBe('failed');
    expect(created.operation.error).toMatchObject({ step: 'connect', message: `cannot reach ${sshd.host}:${closed} (ECONNREFUSED)` });
    expect(created.operation.steps[0]).toMatchObject({ name: 'connect', status: 'failed', attempts: 2 });
  });

  it('a login that cannot install anything (a user who cannot write the agent directory): at check_host', async () => {
    const { operation } = await env.enroll({ user: sshd.user, password: sshd.password });
    expect(operation.error).toMatchObject({
      step: 'check_host',
      message: `the SSH user cannot write ${agentDir} on ${sshd.host}: enroll as root, or create that directory owned by the user`,
    });
    expect(operation.steps[0]).toMatchObject({ name: 'connect', status: 'succeeded' });
    await expectNoSecretIn(env.stack, operation, sshd.password);
  });

  it('a host without a Docker Engine API: at check_host, naming where it looked', async () => {
    const bare = await enrollmentStack({ NODE_DOCKER_SOCKETS: '/nonexistent/docker.sock,/nonexistent/podman.sock' });
    const { nodeId, operation } = await bare.enroll({ user: 'root', private_key: sshd.privateKey });
    expect(operation.error).toMatchObject({
      step: 'check_host',
      message: `no Docker Engine API on ${sshd.host}: looked at /nonexistent/docker.sock (no socket), /nonexistent/podman.sock (no socket)`,
    });
    // connect pinned the host key on its way
    expect((await bare.node(nodeId)).ssh.host_key_sha256).toBe(hostKeySha256);
  });

  it('an agent that never registers (it cannot reach the control plane): at await_registration, with its log', async () => {
    const unreachable = await enrollmentStack({ AGENT_CONTROL_PLANE_URL: `http://127.0.0.1:${await freePort()}`, NODE_REGISTRATION_TIMEOUT_SECONDS: '3' });
    const { nodeId, operation } = await unreachable.enroll({ user: 'root', private_key: sshd.privateKey });
    expect(operation.error).toMatchObject({
      step: 'await_registration',
      message: `the agent did not register within 3 s; its log on the host: ${agentDir}/agent.log`,
    });
    expect(operation.error.stderr_tail).toMatch(/berth agent starting/);
    expect(operation.steps.slice(0, 4).map((step: any) => step.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(await unreachable.node(nodeId)).toMatchObject({ status: 'failed', ssh: { credentials_stored: true } });
  }, 60_000);

  it('a host key other than the pinned one is refused', async () => {
    const attempt = openSsh({
      host: sshd.host,
      port: sshd.port,
      user: 'root',
      credentials: { private_key: sshd.privateKey },
      pinnedHostKey: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      timeoutMs: 5000,
    });
    await expect(attempt).rejects.toMatchObject({
      permanent: true,
      message: `the host key of ${sshd.host}:${sshd.port} changed: pinned SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA, offered ${hostKeySha256}; refusing to connect (if the host was reinstalled, delete the node and add it again)`,
    });
  });
});

describe('node.enroll on a real host', () => {
  it('installs and starts the agent, which registers and heartbeats: the node is online and its credentials are erased', async () => {
    const { nodeId, operation } = await env.enroll({ user: 'root', private_key: sshd.privateKey });
    expect(operation.error).toBeNull();
    expect(operation.status).toBe('succeeded');
    expect(operation.steps.map((step: any) => [step.name, step.status])).toEqual([
      ['connect', 'succeeded'],
      ['check_host', 'succeeded'],
      ['upload_agent', 'succeeded'],
      ['install_agent', 'succeeded'],
      ['await_registration', 'succeeded'],
      ['prepare_runtime', 'succeeded'],
    ]);
    // The loop through the agent protocol: worker -> agent command -> the real agent -> podman.
    const network = await new Docker({ socketPath: dockerSocket() }).getNetwork(nodeNetworkName(nodeId)).inspect();
    expect(network.Labels).toMatchObject({ 'berth.managed': 'true', 'berth.node': nodeId, 'berth.role': 'network' });
    expect(operation.result).toMatchObject({ network: { name: nodeNetworkName(nodeId), id: network.Id } });
    const node = await env.node(nodeId);
    expect(node).toMatchObject({
      status: 'online',
      ssh: { host_key_sha256: hostKeySha256, credentials_stored: false },
      protocol_version: PROTOCOL_VERSION,
      enrollment: { status: 'succeeded', error: null },
    });
    expect(node.agent_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(node.facts).toMatchObject({ arch: os.machine() });
    expect(node.last_heartbeat_at).not.toBeNull();
    const row = (await Node.query(env.stack.ctx.db).findById(nodeId))!;
    expect(row.ssh_credentials_sealed).toBeNull();
    expect(row.enrollment_token_hash).toBeNull();

    // What the installer left on the host: the config holds the token, so only root reads it.
    expect(fs.statSync(path.join(agentDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(agentDir, 'config.json'), 'utf8'))).toMatchObject({
      data_dir: path.join(agentDir, 'data'),
      docker_socket: dockerSocket(),
    });
    await expectNoSecretIn(
      env.stack,
      operation,
      sshd.privateKey.split('\n')[1]!,
      JSON.parse(fs.readFileSync(path.join(agentDir, 'config.json'), 'utf8')).enrollment_token,
    );
  }, 120_000);

  it('enrolls the same host again as a new node: the old agent is replaced, its identity set aside, nothing uploaded twice', async () => {
    const before = fs.readFileSync(path.join(agentDir, 'agent.pid'), 'utf8').trim();
    const { nodeId, operation } = await env.enroll({ user: 'root', private_key: sshd.privateKey });
    expect(operation.status).toBe('succeeded');
    expect((await env.node(nodeId)).status).toBe('online');
    const after = fs.readFileSync(path.join(agentDir, 'agent.pid'), 'utf8').trim();
    expect(after).not.toBe(before);
    expect(() => process.kill(Number(before), 0)).toThrow();
    expect(JSON.parse(fs.readFileSync(path.join(agentDir, 'data/keys/node.json'), 'utf8')).node_id).toBe(nodeId);
    expect(fs.readdirSync(path.join(agentDir, 'data/keys')).some((file) => file.startsWith('node.json.replaced-'))).toBe(true);
    const logs = await env.stack.ctx.db('operation_logs').where({ operation_id: operation.id, step: 'upload_agent' }).pluck('line');
    expect(logs).toEqual(expect.arrayContaining([expect.stringMatching(/^Node v\d+/), expect.stringMatching(/^kept the agent bundle/)]));
  }, 120_000);
});
