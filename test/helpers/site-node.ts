import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { Node } from '../../shared/db/models.ts';
import { issueEnrollmentToken } from '../../shared/domains/nodes/enrollment.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { OPERATIONS_QUEUE } from '../../shared/jobs/operation.jobs.ts';
import { helperExec, parseHelperOutput, WORDPRESS_RUNTIME, type HelperCommand } from '../../shared/wordpress/runtime.ts';
import { spawnAgent, type AgentProcess } from './agent-process.ts';
import { unique } from './factories.ts';
import { freePort } from './free-port.ts';
import { dockerSocket, testStateDir, wordpressImages } from './runtime-peers.ts';
import type { Stack } from './stack.ts';
import { until } from './until.ts';

/**
 * A hosting node for the site tests: a node row of its own region, enrolled by a real agent process
 * on podman (its data directory where podman can mount it), its edge proxy on a free loopback port.
 * Everything the node makes carries its `berth.node` label, so `remove()` leaves nothing behind.
 */
export const docker = new Docker({ socketPath: dockerSocket() });

/** The stack's settings for sites: the offline-built images of ops/images, a test base domain. */
export function siteStackEnv(extra: { phpVersionsWithoutImage?: string[] } = {}): Record<string, string> {
  const images = wordpressImages();
  const php = Object.fromEntries(images.php.map(({ version, image }) => [version, image]));
  return {
    SITE_PHP_VERSIONS: [...Object.keys(php), ...(extra.phpVersionsWithoutImage ?? [])].join(','),
    SITE_PHP_IMAGES: Object.entries(php)
      .map(([version, image]) => `${version}=${image}`)
      .join(','),
    SITE_EDGE_IMAGE: images.edge,
    SITE_MARIADB_IMAGE: images.mariadb,
    SITE_BACKUP_IMAGE: images.backup,
    SITES_BASE_DOMAIN: 'sites.berth.test',
  };
}

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

export type EdgeRequestOptions = {
  host?: string;
  method?: string;
  cookies?: CookieJar;
  form?: Record<string, string>;
  /** HTTP basic auth (a protected staging or development environment): its user name and password. */
  credentials?: { username: string; password: string };
  /** Any other request headers (a cookie string, X-Berth-Probe...). */
  headers?: Record<string, string>;
};

/**
 * One HTTP request to an edge proxy on a loopback port, for a Host: a site URL (http://host/path)
 * becomes its path and Host; a bare path needs `host`. A form is POSTed; cookies go and come back
 * through the jar. A new connection each time: a kept-alive one could reach a worker of an older
 * configuration.
 */
export function edgeRequest(port: number, target: string, options: EdgeRequestOptions = {}): Promise<Answer> {
  let host = options.host ?? '';
  let pathAndQuery = target;
  if (/^https?:\/\//.test(target)) {
    const url = new URL(target);
    host = url.host;
    pathAndQuery = url.pathname + url.search;
  }
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { ...options.headers, host };
  if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const cookie = options.cookies?.header();
  if (cookie) headers.cookie = cookie;
  if (options.credentials) headers.authorization = `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent: false, host: '127.0.0.1', port, path: pathAndQuery, method: options.method ?? (body ? 'POST' : 'GET'), headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          options.cookies?.take(res.headers['set-cookie']);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Enough of a browser's cookie store for wp-login.php: names and values, deletions honoured. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }
  take(setCookies: string[] | undefined): void {
    for (const line of setCookies ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now()));
      if (expired || value === 'deleted') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  names(): string[] {
    return [...this.cookies.keys()];
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Runs a command in a container (as root) and returns its stdout. */
export async function execIn(container: string, cmd: string[], env: Record<string, string> = {}, user?: string): Promise<string> {
  const execution = await docker
    .getContainer(container)
    .exec({ Cmd: cmd, Env: Object.entries(env).map(([k, v]) => `${k}=${v}`), AttachStdout: true, AttachStderr: true, ...(user ? { User: user } : {}) });
  const stream = await execution.start({ hijack: true, stdin: false });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  docker.modem.demuxStream(stream, out, new PassThrough());
  await new Promise((resolve) => stream.on('end', resolve));
  return Buffer.concat(chunks).toString();
}

export type ExecResult = { exit_code: number; stdout: string; stderr: string };

/** A command in a container, its exit code and its two streams apart. */
export async function execResult(container: string, cmd: string[], env: Record<string, string> = {}, user?: string): Promise<ExecResult> {
  const execution = await docker
    .getContainer(container)
    .exec({ Cmd: cmd, Env: Object.entries(env).map(([k, v]) => `${k}=${v}`), AttachStdout: true, AttachStderr: true, ...(user ? { User: user } : {}) });
  const stream = await execution.start({ hijack: true, stdin: false });
  const [out, err] = [new PassThrough(), new PassThrough()];
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  out.on('data', (chunk: Buffer) => stdout.push(chunk));
  err.on('data', (chunk: Buffer) => stderr.push(chunk));
  docker.modem.demuxStream(stream, out, err);
  await new Promise((resolve) => stream.on('end', resolve));
  const { ExitCode } = await execution.inspect();
  return { exit_code: ExitCode ?? -1, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() };
}

/** execResult that fails (with the command's stderr) unless the command exits 0; its stdout. */
export async function execChecked(container: string, cmd: string[], env: Record<string, string> = {}, user?: string): Promise<string> {
  const result = await execResult(container, cmd, env, user);
  if (result.exit_code !== 0) throw new Error(`${cmd.join(' ')} in ${container} exited ${result.exit_code}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** The berth helper run in a site's container as the site's user: its answer's data (a refusal throws). */
export async function runHelper(container: string, command: HelperCommand, input: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return parseHelperOutput(command, await execResult(container, helperExec(command, input), {}, WORDPRESS_RUNTIME.siteUser));
}

export type SiteNode = {
  nodeId: string;
  region: string;
  edgePort: number;
  /** The edge's HTTPS port (nodes started with `https`), else null. */
  edgeHttpsPort: number | null;
  /** The agent's data directory on this machine. */
  dataDir: string;
  agent(): AgentProcess;
  /** A request to the node's edge; a site URL (http://host/path) becomes its path and Host. */
  throughEdge(target: string, options?: EdgeRequestOptions): Promise<Answer>;
  /** SQL as root in the node's MariaDB; rows as tab-separated lines. */
  sql(statement: string): Promise<string[]>;
  /** Stops the agent (SIGTERM) and starts it again with the same identity. */
  restartAgent(): Promise<void>;
  /** Stops the agent (SIGTERM): the node's commands wait until restartAgent(). */
  stopAgent(): Promise<void>;
  /** Stops the agent and removes every container, network and file of the node. */
  remove(): Promise<void>;
};

export async function startSiteNode(
  stack: Stack,
  name: string,
  options: { agentEnv?: Record<string, string>; https?: boolean; edgePort?: number } = {},
): Promise<SiteNode> {
  const home = path.join(testStateDir(), `${name}-tests`, randomBytes(4).toString('hex'));
  const dataDir = path.join(home, 'data');
  const edgePort = options.edgePort ?? (await freePort());
  const edgeHttpsPort = options.https ? await freePort() : null;
  const region = unique('region');
  const [row] = await stack.ctx
    .db('nodes')
    .insert({
      name: unique('node'),
      region,
      public_address: '127.0.0.1',
      ssh_host: '127.0.0.1',
      ssh_user: 'root',
      edge_http_port: edgePort,
      edge_https_port: edgeHttpsPort,
    })
    .returning('id');
  const nodeId = row.id as string;
  fs.mkdirSync(dataDir, { recursive: true });
  const configFile = path.join(home, 'config.json');
  const token = await issueEnrollmentToken(stack.ctx.db, nodeId);
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      control_plane_url: stack.api.url,
      data_dir: dataDir,
      docker_socket: dockerSocket(),
      enrollment_token: token,
      concurrency: 4,
      sftp_host: '127.0.0.1',
      sftp_port: 0,
    }),
    { mode: 0o600 },
  );
  const spawn = () => spawnAgent({ env: { AGENT_CONFIG: configFile, AGENT_SHUTDOWN_GRACE_MS: '5000', ...options.agentEnv } });
  let agent = spawn();
  await until(async () => (await Node.query(stack.ctx.db).findById(nodeId))?.status === 'online', 'the node online');

  const label = `berth.node=${nodeId}`;
  const stopAgent = async () => {
    if (agent.child.exitCode === null && agent.child.signalCode === null) {
      agent.child.kill('SIGTERM');
      await Promise.race([agent.exited, new Promise((resolve) => setTimeout(resolve, 8_000))]);
    }
  };

  return {
    nodeId,
    region,
    edgePort,
    edgeHttpsPort,
    dataDir,
    agent: () => agent,
    throughEdge: (target, options = {}) => edgeRequest(edgePort, target, options),
    async sql(statement) {
      const out = await execChecked(nodeLayout(nodeId).mariadbContainer, ['mariadb', '-N', '-B', '-e', statement]);
      return out.split('\n').filter(Boolean);
    },
    async restartAgent() {
      await stopAgent();
      agent = spawn();
    },
    stopAgent,
    async remove() {
      await stopAgent();
      const containers = await docker.listContainers({ all: true, filters: { label: [label] } });
      await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true })));
      const networks = await docker.listNetworks({ filters: { label: [label] } });
      await Promise.all(networks.map((n) => docker.getNetwork(n.Id).remove()));
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Polls GET /v1/operations/{id} until the operation has ended; its answer's `data`. It also waits
 * for the operation's job to leave the worker: a runbook's failure hook (a container removed, a
 * route written again) talks to the node after the operation reads `failed`, and a test that
 * stopped the node at that moment would leave the stack's workers waiting on it when they close.
 */
export async function operationOutcome(stack: Stack, token: string, id: string, timeoutMs = 300_000): Promise<Record<string, any>> {
  const outcome = await until(
    async () => {
      const answer = await stack.client().get(`/v1/operations/${id}`, { headers: { authorization: `Bearer ${token}` } });
      return ['succeeded', 'failed', 'cancelled'].includes(answer.body.data?.status) ? (answer.body.data as Record<string, any>) : null;
    },
    `operation ${id} to end`,
    timeoutMs,
    250,
  );
  const job = () => stack.ctx.queues.get(OPERATIONS_QUEUE).getJobState(id);
  await until(
    async () => !['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'].includes(await job()),
    `operation ${id}'s job to leave the worker`,
    120_000,
    100,
  );
  return outcome;
}

/**
 * The outcome of an operation the API accepted (with `status`, 202 unless told) and that must
 * succeed; a failure names the answer, or the operation's error and logs. It throws rather than
 * `expect`s so that the benches, which run outside vitest, can use it too.
 */
export async function operationSucceeded(
  stack: Stack,
  token: string,
  reply: { status: number; body: any },
  options: { status?: number; timeoutMs?: number } = {},
): Promise<Record<string, any>> {
  const status = options.status ?? 202;
  if (reply.status !== status) throw new Error(`answered ${reply.status}, not ${status}: ${JSON.stringify(reply.body)}`);
  const outcome = await operationOutcome(stack, token, reply.body.data.operation.id, options.timeoutMs);
  if (outcome.status !== 'succeeded') throw new Error(`${outcome.kind} ${outcome.status}: ${JSON.stringify({ error: outcome.error, logs: outcome.logs })}`);
  return outcome;
}
