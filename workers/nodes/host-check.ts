import { StepFailed } from '../operations/runbook.ts';
import { shellQuote, tail, type SshSession } from './ssh-session.ts';

/** What enrollment learns about a host before it installs anything. */
export type HostReport = {
  os: string;
  arch: string;
  hostname: string;
  uid: number;
  systemd: boolean;
  /** Node.js binaries found, with their versions (`v22.11.0`). */
  nodes: Array<{ path: string; version: string }>;
  docker: { socket: string; version: string; api_version: string };
};

/** Our own Node runtime on the host, when an earlier enrollment uploaded it. */
export const uploadedNodePath = (agentDir: string) => `${agentDir}/runtime/node`;

/**
 * Reads the host (OS, architecture, init system, Node, whether the agent's directory is writable)
 * in one round trip, then asks the Docker Engine API on the first configured socket that answers.
 */
export async function checkHost(ssh: SshSession, options: { host: string; agentDir: string; dockerSockets: string[] }): Promise<HostReport> {
  const { agentDir } = options;
  const probe = await ssh.exec(
    [
      'echo "os=$( (. /etc/os-release && printf %s "${PRETTY_NAME:-$NAME}") 2>/dev/null)"',
      'echo "arch=$(uname -m)"',
      'echo "hostname=$(hostname 2>/dev/null || cat /etc/hostname)"',
      'echo "uid=$(id -u)"',
      // systemd as PID 1 and running (not merely installed, as in containers)
      'if [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then echo systemd=yes; else echo systemd=no; fi',
      `for n in ${shellQuote(uploadedNodePath(agentDir))} "$(command -v node 2>/dev/null)"; do [ -n "$n" ] && [ -x "$n" ] && echo "node=$n $("$n" --version 2>/dev/null)"; done`,
      'command -v curl >/dev/null 2>&1 && echo curl=yes || echo curl=no',
      `mkdir -p ${shellQuote(agentDir)} 2>/dev/null && [ -w ${shellQuote(agentDir)} ] && echo writable=yes || echo writable=no`,
      'true',
    ].join('\n'),
  );
  if (probe.code !== 0)
    throw new StepFailed(`cannot inspect ${options.host}: the probe exited with ${probe.code}`, { exitCode: probe.code, stderrTail: tail(probe.stderr) });
  const lines = probe.stdout.split('\n');
  const value = (key: string) =>
    lines
      .find((line) => line.startsWith(`${key}=`))
      ?.slice(key.length + 1)
      .trim() ?? '';
  const nodes = lines
    .filter((line) => line.startsWith('node='))
    .map((line) => {
      const [path = '', version = ''] = line.slice(5).split(' ');
      return { path, version };
    })
    .filter((node) => /^v\d+\./.test(node.version));
  if (value('writable') !== 'yes') {
    throw new StepFailed(`the SSH user cannot write ${agentDir} on ${options.host}: enroll as root, or create that directory owned by the user`, {
      permanent: true,
    });
  }
  const curl = value('curl') === 'yes';
  const node = nodes[0]?.path;
  if (!curl && !node)
    throw new StepFailed(`cannot query the Docker Engine API on ${options.host}: neither curl nor node is installed there (install curl)`, { permanent: true });

  const looked: string[] = [];
  for (const socket of options.dockerSockets) {
    const answer = await ssh.exec(dockerGet(socket, curl ? null : node!));
    const out = answer.stdout;
    if (out.startsWith('missing')) {
      looked.push(`${socket} (no socket)`);
      continue;
    }
    const version = /^\{[\s\S]*\}$/.test(out.trim()) ? safeJson(out.trim()) : null;
    if (answer.code !== 0 || !version || typeof version.Version !== 'string') {
      looked.push(`${socket} (${(tail(answer.stderr, 1) || tail(out, 1) || `exit ${answer.code}`).slice(0, 200)})`);
      continue;
    }
    return {
      os: value('os') || 'unknown',
      arch: value('arch'),
      hostname: value('hostname'),
      uid: Number(value('uid')),
      systemd: value('systemd') === 'yes',
      nodes,
      docker: { socket, version: String(version.Version), api_version: String(version.ApiVersion ?? '') },
    };
  }
  throw new StepFailed(`no Docker Engine API on ${options.host}: looked at ${looked.join(', ')}`, { permanent: true });
}

/** GET /_ping, then /version, through the unix socket on the host: with curl, else with its Node. */
function dockerGet(socket: string, node: string | null): string {
  const exists = `[ -S ${shellQuote(socket)} ] || { echo missing; exit 0; }`;
  if (node === null) {
    const get = (path: string) => `curl -sS --fail --max-time 5 --unix-socket ${shellQuote(socket)} http://docker${path}`;
    return `${exists}\n${get('/_ping')} >/dev/null && ${get('/version')}`;
  }
  const script =
    "const http=require('http');const get=(p)=>new Promise((ok,no)=>http.get({socketPath:process.argv[1],path:p,timeout:5000},(r)=>{let b='';" +
    "r.on('data',(c)=>b+=c);r.on('end',()=>r.statusCode===200?ok(b):no(new Error('HTTP '+r.statusCode+' '+b)))}).on('error',no));" +
    "get('/_ping').then(()=>get('/version')).then((b)=>process.stdout.write(b),(e)=>{console.error(e.message);process.exit(1)})";
  return `${exists}\n${shellQuote(node)} -e ${shellQuote(script)} ${shellQuote(socket)}`;
}

function safeJson(text: string): Record<string, unknown> | null {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The major version of `v22.11.0`. */
export function nodeMajor(version: string): number {
  return Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
}
