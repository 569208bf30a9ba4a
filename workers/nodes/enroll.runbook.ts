import { setTimeout as sleep } from 'node:timers/promises';
import { Node, type Operation } from '../../shared/db/models.ts';
import { issueEnrollmentToken } from '../../shared/domains/nodes/enrollment.ts';
import { unsealCredentials } from '../../shared/domains/nodes/ssh-credentials.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { LABELS } from '../../shared/agent-protocol/commands.ts';
import { nodeNetworkName } from '../../shared/domains/nodes/runtime-names.ts';
import { runAgentCommand } from '../agent/run-command.ts';

/** How long the new agent has for each of its first commands. */
const PREPARE_TIMEOUT_SECONDS = 60;
import { agentLayout, agentLogTail, ensureNodeRuntime, startAgent, uploadBundle, writeAgentConfig } from './agent-install.ts';
import { checkHost, type HostReport } from './host-check.ts';
import { openSsh, type SshSession } from './ssh-session.ts';

const POLL_MS = 500;

/** The node this enrollment is for, still enrolling (an operator may have disabled or removed it meanwhile). */
async function enrollingNode(deps: WorkerDeps, operation: Operation): Promise<Node> {
  const node = await Node.query(deps.db).findById(operation.target_id);
  if (!node) throw new StepFailed('the node was removed while it was being enrolled', { permanent: true });
  if (node.status === 'disabled') throw new StepFailed('the node was disabled while it was being enrolled', { permanent: true });
  return node;
}

/** Opens SSH with the node's sealed credentials, checking the pinned host key. */
async function connect(deps: WorkerDeps, node: Node): Promise<SshSession> {
  if (!node.ssh_credentials_sealed) {
    throw new StepFailed("the node's SSH credentials are no longer stored (they are erased once a node is enrolled); delete the node and add it again", {
      permanent: true,
    });
  }
  let credentials;
  try {
    credentials = unsealCredentials(deps.secretKey, node.ssh_credentials_sealed);
  } catch (error) {
    throw new StepFailed("the node's SSH credentials cannot be unsealed (was SECRET_KEY changed?); delete the node and add it again", {
      permanent: true,
      cause: error,
    });
  }
  return openSsh({
    host: node.ssh_host,
    port: node.ssh_port,
    user: node.ssh_user,
    credentials,
    pinnedHostKey: node.ssh_host_key_sha256,
    timeoutMs: deps.config.nodes.sshTimeoutMs,
  });
}

async function withSsh<T>(step: StepContext, work: (ssh: SshSession, node: Node) => Promise<T>): Promise<T> {
  const node = await enrollingNode(step.deps, step.operation);
  const ssh = await connect(step.deps, node);
  try {
    return await work(ssh, node);
  } finally {
    ssh.close();
  }
}

/** The enrollment's steps, in their order. */
const enrollment = {
  /** Logs in once and pins the host key (a later connection offering another key is refused). */
  async pinHostKey(step: StepContext): Promise<unknown> {
    return withSsh(step, async (ssh, node) => {
      if (!node.ssh_host_key_sha256) {
        await Node.query(step.deps.db)
          .patch({ ssh_host_key_sha256: ssh.hostKeySha256, updated_at: new Date() })
          .where({ id: node.id })
          .whereNull('ssh_host_key_sha256');
      }
      await step.log(`logged in as ${node.ssh_user}@${node.ssh_host}:${node.ssh_port}; host key ${ssh.hostKeySha256}`);
      return { host_key_sha256: ssh.hostKeySha256 };
    });
  },

  async checkNodeHost(step: StepContext): Promise<unknown> {
    const { agentDir, dockerSockets } = step.deps.config.nodes;
    return withSsh(step, async (ssh, node) => {
      const report = await checkHost(ssh, { host: node.ssh_host, agentDir, dockerSockets });
      await step.log(
        `${report.os}, ${report.arch}; Docker Engine API ${report.docker.version} (API ${report.docker.api_version}) on ${report.docker.socket}; ${report.systemd ? 'systemd' : 'no systemd'}`,
      );
      return report;
    });
  },

  /** The bundle, Node when needed, and the config with a fresh one-time token (never in the checkpoint). */
  async uploadAgent(step: StepContext): Promise<unknown> {
    const report = step.results.check_host as HostReport;
    const { agentDir, agentBundlePath, controlPlaneUrl } = step.deps.config.nodes;
    return withSsh(step, async (ssh, node) => {
      const runtime = await ensureNodeRuntime(ssh, report, agentDir, node.ssh_host);
      await step.log(runtime.uploaded ? `uploaded Node ${runtime.version} to ${runtime.path}` : `Node ${runtime.version} at ${runtime.path}`);
      const bundle = await uploadBundle(ssh, agentBundlePath, agentDir);
      await step.log(`${bundle.uploaded ? 'uploaded' : 'kept'} the agent bundle (sha256 ${bundle.sha256.slice(0, 12)}...)`);
      const enrollmentToken = await issueEnrollmentToken(step.deps.db, node.id);
      await writeAgentConfig(ssh, { agentDir, nodeId: node.id, controlPlaneUrl, dockerSocket: report.docker.socket, enrollmentToken });
      await step.log(`wrote ${agentLayout(agentDir).config} (control plane ${controlPlaneUrl})`);
      return { node_path: runtime.path, node_version: runtime.version, bundle_sha256: bundle.sha256 };
    });
  },

  async installAgent(step: StepContext): Promise<unknown> {
    const report = step.results.check_host as HostReport;
    const { node_path: nodePath } = step.results.upload_agent as { node_path: string };
    return withSsh(step, async (ssh, node) => {
      const started = await startAgent(ssh, {
        agentDir: step.deps.config.nodes.agentDir,
        nodePath,
        nodeName: node.name,
        systemd: report.systemd && report.uid === 0,
        host: node.ssh_host,
      });
      await step.log(`agent started (${started.supervisor}); its log: ${started.log}`);
      return started;
    });
  },

  /** Until the agent registered its key and heartbeated. */
  async awaitRegistration(step: StepContext): Promise<unknown> {
    const { registrationTimeoutSeconds, agentDir } = step.deps.config.nodes;
    const deadline = Date.now() + registrationTimeoutSeconds * 1000;
    for (;;) {
      const node = await enrollingNode(step.deps, step.operation);
      if (node.public_key && node.last_heartbeat_at && node.enrolled_at && node.last_heartbeat_at >= node.enrolled_at) {
        await step.log(`the agent ${node.agent_version ?? ''} registered and heartbeats`);
        return { agent_version: node.agent_version, protocol_version: node.protocol_version, enrolled_at: node.enrolled_at?.toISOString() ?? null };
      }
      if (Date.now() >= deadline) {
        const log = agentLayout(agentDir).log;
        const logTail = await withSsh(step, (ssh) => agentLogTail(ssh, agentDir)).catch(() => null);
        const what = node.public_key ? 'registered its key but did not heartbeat' : 'did not register';
        throw new StepFailed(`the agent ${what} within ${registrationTimeoutSeconds} s; its log on the host: ${log}`, { permanent: true, stderrTail: logTail });
      }
      await sleep(POLL_MS);
    }
  },

  /**
   * The first commands through the agent protocol: the agent reports the engine it drives and makes
   * the node's network for its sites. An agent that registers but cannot run commands fails here.
   */
  async prepareRuntime(step: StepContext): Promise<unknown> {
    const nodeId = step.operation.target_id;
    const command = { operation: step.operation, step: 'prepare_runtime', nodeId, timeoutSeconds: PREPARE_TIMEOUT_SECONDS };
    const runtime = await runAgentCommand(step.deps, { ...command, part: 'info', kind: 'runtime.info', payload: {} });
    const name = nodeNetworkName(nodeId);
    const network = await runAgentCommand(step.deps, {
      ...command,
      part: 'network',
      kind: 'network.ensure',
      payload: { name, labels: { [LABELS.role]: 'network' } },
    });
    await step.log(
      `the agent drives Docker Engine API ${runtime.docker.api_version} (${runtime.docker.version}); network ${name} ${network.created ? 'created' : 'present'}`,
    );
    // Only now is the node ready for sites; until then a failed enrollment can be retried with the credentials kept.
    await Node.query(step.deps.db).patch({ status: 'online', ssh_credentials_sealed: null, updated_at: new Date() }).where({ id: nodeId, status: 'enrolling' });
    await step.log('the node is online; the SSH credentials are erased');
    return { docker: runtime.docker, network: { name, id: network.id } };
  },
};

/** `node.enroll` (POST /v1/nodes): SSH in, check the host, install and start the agent, wait for it. */
export const enrollRunbook: Runbook<'node.enroll'> = {
  steps: {
    connect: enrollment.pinHostKey,
    check_host: enrollment.checkNodeHost,
    upload_agent: enrollment.uploadAgent,
    install_agent: enrollment.installAgent,
    await_registration: enrollment.awaitRegistration,
    prepare_runtime: enrollment.prepareRuntime,
  },
  result: (results) => ({
    host_key_sha256: (results.connect as { host_key_sha256: string }).host_key_sha256,
    ...(results.await_registration as Record<string, unknown>),
    ...(results.prepare_runtime as Record<string, unknown>),
  }),
};
