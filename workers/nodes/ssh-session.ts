import { createHash } from 'node:crypto';
import ssh2 from 'ssh2';
import type { ClientChannel, SFTPWrapper } from 'ssh2';
import type { SshCredentials } from '../../shared/domains/nodes/ssh-credentials.ts';
import { StepFailed } from '../operations/runbook.ts';

export type SshTarget = {
  host: string;
  port: number;
  user: string;
  credentials: SshCredentials;
  /** The host key fingerprint pinned at the first connection; null before it. */
  pinnedHostKey: string | null;
  timeoutMs: number;
};

export type ExecResult = { code: number | null; stdout: string; stderr: string };

/** One SSH connection to a node being enrolled; every step opens its own (a retried step may run in another worker). */
export type SshSession = {
  /** `SHA256:<base64>` as `ssh-keygen -l` prints it. */
  hostKeySha256: string;
  exec(command: string): Promise<ExecResult>;
  /** Copies a local file to `remotePath` (through a temporary name, then renamed) with `mode`. */
  putFile(localPath: string, remotePath: string, mode: number): Promise<void>;
  /** Writes `content` to `remotePath` (same way), created with `mode` from the start. */
  writeFile(remotePath: string, content: string, mode: number): Promise<void>;
  close(): void;
};

const OUTPUT_LIMIT = 64 * 1024;
const unreachableCodes = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

export function fingerprintOf(hostKey: Buffer): string {
  return `SHA256:${createHash('sha256').update(hostKey).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Connects and logs in, checking the host key against the pinned one. Each way of failing has its
 * own message: refused credentials and a changed host key are permanent; an unreachable host is
 * worth a retry (the step is retried with backoff, then the operation fails with the same message).
 */
export function openSsh(target: SshTarget): Promise<SshSession> {
  const where = `${target.host}:${target.port}`;
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    let offered: string | null = null;
    let settled = false;
    const fail = (error: StepFailed) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(error);
    };
    client.on('ready', () => {
      settled = true;
      resolve(session(client, offered!));
    });
    client.on('error', (error: Error & { level?: string; code?: string }) => {
      if (offered !== null && target.pinnedHostKey !== null && offered !== target.pinnedHostKey) {
        return fail(
          new StepFailed(
            `the host key of ${where} changed: pinned ${target.pinnedHostKey}, offered ${offered}; refusing to connect (if the host was reinstalled, delete the node and add it again)`,
            { permanent: true },
          ),
        );
      }
      if (error.level === 'client-authentication') {
        return fail(
          new StepFailed(
            `SSH authentication failed for ${target.user}@${where}: the server refused the ${'password' in target.credentials ? 'password' : 'private key'}`,
            { permanent: true },
          ),
        );
      }
      if (error.level === 'client-timeout') return fail(new StepFailed(`cannot reach ${where} (timeout after ${target.timeoutMs} ms)`));
      if (error.code && unreachableCodes.has(error.code)) return fail(new StepFailed(`cannot reach ${where} (${error.code})`));
      return fail(new StepFailed(`SSH connection to ${where} failed: ${error.message}`));
    });
    client.on('close', () => fail(new StepFailed(`cannot reach ${where} (the connection closed before login)`)));
    client.connect({
      host: target.host,
      port: target.port,
      username: target.user,
      ...('password' in target.credentials
        ? { password: target.credentials.password }
        : { privateKey: target.credentials.private_key, passphrase: target.credentials.passphrase }),
      readyTimeout: target.timeoutMs,
      hostVerifier: (key: Buffer) => {
        offered = fingerprintOf(key);
        return target.pinnedHostKey === null || target.pinnedHostKey === offered;
      },
    });
  });
}

function session(client: ssh2.Client, hostKeySha256: string): SshSession {
  let sftp: Promise<SFTPWrapper> | undefined;
  const sftpOnce = () => (sftp ??= new Promise<SFTPWrapper>((resolve, reject) => client.sftp((error, wrapper) => (error ? reject(error) : resolve(wrapper)))));
  const rename = async (from: string, to: string) => {
    const { code, stderr } = await exec(client, `mv -f ${shellQuote(from)} ${shellQuote(to)}`);
    if (code !== 0) throw new StepFailed(`cannot move ${from} to ${to} on the host: ${stderr.trim()}`, { exitCode: code, stderrTail: stderr });
  };
  const temporary = (path: string) => `${path}.upload-${process.pid}-${Date.now()}`;
  return {
    hostKeySha256,
    exec: (command) => exec(client, command),
    async putFile(localPath, remotePath, mode) {
      const wrapper = await sftpOnce();
      const partial = temporary(remotePath);
      await new Promise<void>((resolve, reject) =>
        wrapper.fastPut(localPath, partial, { mode }, (error) => (error ? reject(uploadFailed(remotePath, error)) : resolve())),
      );
      await new Promise<void>((resolve, reject) => wrapper.chmod(partial, mode, (error) => (error ? reject(uploadFailed(remotePath, error)) : resolve())));
      await rename(partial, remotePath);
    },
    async writeFile(remotePath, content, mode) {
      const wrapper = await sftpOnce();
      const partial = temporary(remotePath);
      await new Promise<void>((resolve, reject) =>
        wrapper.writeFile(partial, content, { mode }, (error) => (error ? reject(uploadFailed(remotePath, error)) : resolve())),
      );
      await new Promise<void>((resolve, reject) => wrapper.chmod(partial, mode, (error) => (error ? reject(uploadFailed(remotePath, error)) : resolve())));
      await rename(partial, remotePath);
    },
    close: () => client.end(),
  };
}

function uploadFailed(remotePath: string, error: Error): StepFailed {
  return new StepFailed(`cannot write ${remotePath} on the host over SFTP: ${error.message}`, { cause: error });
}

function exec(client: ssh2.Client, command: string): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    client.exec(command, (error, channel: ClientChannel) => {
      if (error) return reject(new StepFailed(`cannot run a command over SSH: ${error.message}`, { cause: error }));
      let stdout = '';
      let stderr = '';
      let code: number | null = null;
      channel.on('data', (data: Buffer) => {
        if (stdout.length < OUTPUT_LIMIT) stdout += data.toString('utf8');
      });
      channel.stderr.on('data', (data: Buffer) => {
        stderr = (stderr + data.toString('utf8')).slice(-OUTPUT_LIMIT);
      });
      channel.on('exit', (exitCode: number | null) => {
        code = exitCode;
      });
      channel.on('close', () => resolve({ code, stdout, stderr }));
    });
  });
}

/** One argument for a POSIX shell, whatever it contains. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The last lines of a command's stderr (or of a log), for an operation's error. */
export function tail(text: string, lines = 20): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
