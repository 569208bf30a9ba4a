import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The real OpenSSH sftp client (/usr/bin/sftp), pinned to the host key the API shows (a
 * known_hosts of its own, StrictHostKeyChecking=yes), logging in by password (typed by sshpass)
 * or by a key. No user or system ssh configuration is read (-F /dev/null).
 */
export type SftpLogin = { host: string; port: number; username: string; knownHosts: string; password?: string; identity?: string };
export type SftpRun = { code: number | null; stdout: string; stderr: string; ms: number };

function argsOf(login: SftpLogin, extra: string[]): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const ssh = [
    '-F',
    '/dev/null',
    // before -b (which adds BatchMode yes): ssh takes an option's first value, and a password needs a prompt
    '-o',
    `BatchMode=${login.password !== undefined ? 'no' : 'yes'}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    `UserKnownHostsFile=${login.knownHosts}`,
    '-o',
    'GlobalKnownHostsFile=/dev/null',
    '-o',
    'ConnectTimeout=10',
    '-o',
    'LogLevel=ERROR',
    '-P',
    String(login.port),
    ...(login.password !== undefined
      ? ['-o', 'PreferredAuthentications=password', '-o', 'PubkeyAuthentication=no', '-o', 'NumberOfPasswordPrompts=1']
      : ['-o', 'PreferredAuthentications=publickey', '-o', 'IdentitiesOnly=yes', '-i', login.identity!]),
  ];
  const sftpArgs = [...ssh, ...extra, `${login.username}@${login.host}`];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.dirname(login.knownHosts) };
  return login.password !== undefined
    ? { command: 'sshpass', args: ['-e', 'sftp', ...sftpArgs], env: { ...env, SSHPASS: login.password } }
    : { command: 'sftp', args: sftpArgs, env };
}

/** Runs the commands in batch mode (-b) from `cwd`: a failing command ends the batch unless it starts with `-`. */
export function sftpBatch(login: SftpLogin, commands: string[], cwd: string, timeoutMs = 30_000): Promise<SftpRun> {
  const batch = path.join(cwd, `batch-${process.hrtime.bigint()}.txt`);
  fs.writeFileSync(batch, `${commands.join('\n')}\n`);
  const { command, args, env } = argsOf(login, ['-b', batch]);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fs.rmSync(batch, { force: true });
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** An interactive session kept open (commands on its stdin), to see a revocation cut it. */
export type OpenSftp = { child: ChildProcess; output(): string; send(line: string): void; exited: Promise<number | null> };

export function sftpSession(login: SftpLogin, cwd: string): OpenSftp {
  const { command, args, env } = argsOf(login, []);
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, send: (line) => child.stdin!.write(`${line}\n`), exited };
}
