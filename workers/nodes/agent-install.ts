import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { StepFailed } from '../operations/runbook.ts';
import { nodeMajor, uploadedNodePath, type HostReport } from './host-check.ts';
import { shellQuote, tail, type SshSession } from './ssh-session.ts';

/**
 * The agent idles at about 65 MB with these instead of 75 MB (measured by test/bench/agent-idle-rss.bench.ts):
 * a 1 MB young generation and V8's small-footprint mode; it does little work, so speed is not lost.
 */
export const AGENT_NODE_FLAGS = '--max-semi-space-size=1 --optimize-for-size';

/** The agent's Node.js floor (its bundle targets Node 22). */
export const AGENT_NODE_MAJOR = 22;
export const AGENT_UNIT = 'berth-agent.service';

/** Where things live on a node, all under the configured agent directory. */
export function agentLayout(agentDir: string) {
  return {
    bundle: `${agentDir}/berth-agent.mjs`,
    config: `${agentDir}/config.json`,
    dataDir: `${agentDir}/data`,
    log: `${agentDir}/agent.log`,
    pidFile: `${agentDir}/agent.pid`,
    unit: `/etc/systemd/system/${AGENT_UNIT}`,
  };
}

const sha256Cache = new Map<string, Promise<string>>();

function localSha256(path: string): Promise<string> {
  let cached = sha256Cache.get(path);
  if (!cached) {
    cached = new Promise<string>((resolve, reject) => {
      const hash = createHash('sha256');
      fs.createReadStream(path)
        .on('data', (chunk) => hash.update(chunk))
        .on('error', reject)
        .on('end', () => resolve(hash.digest('hex')));
    });
    sha256Cache.set(path, cached);
    cached.catch(() => sha256Cache.delete(path));
  }
  return cached;
}

/** Uploads `localPath` unless the host already has the same bytes there (a retried step, a re-enrollment). */
async function uploadIfChanged(ssh: SshSession, localPath: string, remotePath: string, mode: number): Promise<{ sha256: string; uploaded: boolean }> {
  const sha256 = await localSha256(localPath);
  const remote = await ssh.exec(`sha256sum ${shellQuote(remotePath)} 2>/dev/null | cut -d' ' -f1`);
  if (remote.stdout.trim() === sha256) return { sha256, uploaded: false };
  await ssh.putFile(localPath, remotePath, mode);
  return { sha256, uploaded: true };
}

/** Linux's `uname -m` for the machine this worker runs on. */
function localArch(): string {
  return os.machine();
}

/**
 * The Node.js the agent runs with: one on the host that is new enough, else this control plane's
 * own binary (process.execPath) copied to the agent directory, when the architectures match. Copying
 * our own binary keeps enrollment offline (no download on the node) and the versions known.
 */
export async function ensureNodeRuntime(
  ssh: SshSession,
  report: HostReport,
  agentDir: string,
  host: string,
): Promise<{ path: string; version: string; uploaded: boolean }> {
  const usable = report.nodes.find((node) => nodeMajor(node.version) >= AGENT_NODE_MAJOR);
  if (usable) return { ...usable, uploaded: false };
  const found = report.nodes.length > 0 ? `found ${report.nodes.map((node) => `${node.version} at ${node.path}`).join(', ')}` : 'none found';
  if (process.platform !== 'linux' || report.arch !== localArch()) {
    throw new StepFailed(
      `Node.js ${AGENT_NODE_MAJOR} or newer is missing on ${host} (${found}), and the control plane's own Node is for ${process.platform} ${localArch()}, ` +
        `not ${report.arch}: install Node.js ${AGENT_NODE_MAJOR}+ on the host`,
      { permanent: true },
    );
  }
  const path = uploadedNodePath(agentDir);
  await ssh.exec(`mkdir -p ${shellQuote(`${agentDir}/runtime`)}`);
  const { uploaded } = await uploadIfChanged(ssh, process.execPath, path, 0o755);
  return { path, version: process.version, uploaded };
}

/** The agent bundle; missing on the control plane is an operator's setup problem, said so. */
export async function uploadBundle(ssh: SshSession, bundlePath: string, agentDir: string): Promise<{ sha256: string; uploaded: boolean }> {
  if (!fs.existsSync(bundlePath)) {
    throw new StepFailed(`the agent bundle ${bundlePath} is missing on the control plane: build it with \`npm run build:agent\` (or set AGENT_BUNDLE_PATH)`, {
      permanent: true,
    });
  }
  return uploadIfChanged(ssh, bundlePath, agentLayout(agentDir).bundle, 0o644);
}

/**
 * The agent's config file (agent/config.ts reads it from AGENT_CONFIG), 0600 because it holds the
 * one-time enrollment token. A node identity left in the data directory by another node's agent
 * (the host was enrolled before, as a node since deleted) is set aside, so the agent enrolls afresh.
 */
export async function writeAgentConfig(
  ssh: SshSession,
  options: { agentDir: string; nodeId: string; controlPlaneUrl: string; dockerSocket: string; enrollmentToken: string },
): Promise<void> {
  const layout = agentLayout(options.agentDir);
  const identity = `${layout.dataDir}/keys/node.json`;
  const setAside = await ssh.exec(
    `if [ -f ${shellQuote(identity)} ] && ! grep -q ${shellQuote(`"${options.nodeId}"`)} ${shellQuote(identity)}; then mv -f ${shellQuote(identity)} ${shellQuote(identity)}.replaced-$(date +%s) && echo replaced; fi`,
  );
  if (setAside.code !== 0) throw new StepFailed(`cannot set aside the old node identity ${identity}: ${tail(setAside.stderr, 3)}`, { exitCode: setAside.code });
  const config = {
    control_plane_url: options.controlPlaneUrl,
    data_dir: layout.dataDir,
    docker_socket: options.dockerSocket,
    enrollment_token: options.enrollmentToken,
  };
  await ssh.writeFile(layout.config, `${JSON.stringify(config, null, 2)}\n`, 0o600);
}

/**
 * Starts (or restarts, so a new config applies) the agent: a systemd unit where systemd runs as
 * PID 1 and we are root, else a detached process with a pid file. Either way its output goes to
 * the agent directory's log, and it must still be running a moment later.
 */
export async function startAgent(
  ssh: SshSession,
  options: { agentDir: string; nodePath: string; nodeName: string; systemd: boolean; host: string },
): Promise<{ supervisor: 'systemd' | 'process'; log: string }> {
  const layout = agentLayout(options.agentDir);
  const q = shellQuote;
  let script: string;
  if (options.systemd) {
    const unit = [
      '[Unit]',
      `Description=Berth agent (node ${options.nodeName})`,
      'After=network-online.target docker.service podman.socket',
      'Wants=network-online.target',
      '',
      '[Service]',
      `Environment=AGENT_CONFIG=${layout.config}`,
      `ExecStart=${options.nodePath} ${AGENT_NODE_FLAGS} ${layout.bundle}`,
      'Restart=always',
      'RestartSec=5',
      // 76 protocol refused, 77 enrollment refused, 78 bad config: restarting cannot help (agent/main.ts)
      'RestartPreventExitStatus=76 77 78',
      `StandardOutput=append:${layout.log}`,
      `StandardError=append:${layout.log}`,
      '',
      '[Install]',
      'WantedBy=multi-user.target',
      '',
    ].join('\n');
    await ssh.writeFile(layout.unit, unit, 0o644);
    script = [
      `systemctl daemon-reload && systemctl enable ${AGENT_UNIT} >/dev/null 2>&1 && systemctl restart ${AGENT_UNIT} || exit 1`,
      'sleep 1',
      `systemctl is-active --quiet ${AGENT_UNIT} || { echo "the agent stopped at once" >&2; tail -n 20 ${q(layout.log)} >&2; exit 3; }`,
    ].join('\n');
  } else {
    script = [
      `pidfile=${q(layout.pidFile)}`,
      // the agent started by an earlier run goes first (only if that pid is still our agent)
      'if [ -f "$pidfile" ]; then old=$(cat "$pidfile");',
      `  if kill -0 "$old" 2>/dev/null && tr '\\0' ' ' <"/proc/$old/cmdline" | grep -qF ${q(layout.bundle)}; then`,
      '    kill "$old"; for _ in $(seq 1 100); do kill -0 "$old" 2>/dev/null || break; sleep 0.1; done; kill -9 "$old" 2>/dev/null; fi; fi',
      `AGENT_CONFIG=${q(layout.config)} setsid nohup ${q(options.nodePath)} ${AGENT_NODE_FLAGS} ${q(layout.bundle)} >>${q(layout.log)} 2>&1 </dev/null &`,
      'echo $! >"$pidfile"',
      'sleep 1',
      `kill -0 "$(cat "$pidfile")" 2>/dev/null || { echo "the agent stopped at once" >&2; tail -n 20 ${q(layout.log)} >&2; exit 3; }`,
    ].join('\n');
  }
  const started = await ssh.exec(script);
  if (started.code === 3) {
    throw new StepFailed(`the agent exited right after it started on ${options.host}; its log: ${layout.log}`, {
      permanent: true,
      exitCode: 3,
      stderrTail: tail(started.stderr),
    });
  }
  if (started.code !== 0) {
    throw new StepFailed(`cannot start the agent on ${options.host} (${options.systemd ? 'systemd' : 'detached process'}): exit ${started.code}`, {
      exitCode: started.code,
      stderrTail: tail(started.stderr),
    });
  }
  return { supervisor: options.systemd ? 'systemd' : 'process', log: layout.log };
}

/** The last lines of the agent's log on the host, for an error message (best effort). */
export async function agentLogTail(ssh: SshSession, agentDir: string): Promise<string | null> {
  const result = await ssh.exec(`tail -n 20 ${shellQuote(agentLayout(agentDir).log)} 2>/dev/null`).catch(() => null);
  return result?.stdout.trim() || null;
}
