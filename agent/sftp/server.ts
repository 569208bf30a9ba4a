import net from 'node:net';
import type ssh2 from 'ssh2';
import type { AuthContext, Connection } from 'ssh2';
import type { SftpUserEntry } from '../../shared/agent-protocol/commands.ts';
import type { Logger } from '../../shared/logger.ts';
import { openInside } from '../runtime/data-dir.ts';
import type { HostKey } from './host-key.ts';
import { AttemptBucket, BoundedSemaphore, CountPerKey, nameDigest, SFTP_LIMITS, USERNAME_PATTERN } from './limits.ts';
import { DUMMY_HASH, passwordsSupported, verifyPassword } from './password.ts';
import type { SftpSession } from './sftp-session.ts';
import { type LoginThrottle } from './throttle.ts';
import type { SftpUserStore } from './user-store.ts';

/** Authentication attempts one connection may make before it is closed. */
const ATTEMPTS_PER_CONNECTION = 6;
/** A connection that has not logged in by then is closed. */
const LOGIN_GRACE_MS = 30_000;
/** How long a login refused without verifying (locked out, malformed name, too busy) is held: as long as a slow wrong password. */
const REFUSAL_DELAY_MS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type SftpServerOptions = {
  dataDir: string;
  host: string;
  port: number;
  hostKey: HostKey;
  store: SftpUserStore;
  throttle: LoginThrottle;
  logger: Logger;
};

/** A logged-in connection and the SFTP sessions it opened. */
type LiveConnection = { client: Connection; sftp: Set<SftpSession> };

/**
 * Cuts a connection at once. `end()` only closes our sending side: ssh2 would keep parsing (and
 * SftpSession serving) what the client goes on sending, so the socket itself is destroyed. ssh2
 * keeps it as `_sock` (not in its types).
 */
function destroyConnection(client: Connection): void {
  const socket = (client as unknown as { _sock?: net.Socket })._sock;
  if (socket) socket.destroy();
  else client.end();
}

/** What a connection needs and an idle agent does not: ssh2 (with its WebAssembly poly1305) and the SFTP session code. */
type SshSide = { ssh2: typeof ssh2; server: ssh2.Server; Session: typeof SftpSession };

/** What the heartbeat reports about the server once it listens. */
export type SftpFacts = { port: number; host_key: string; host_key_fingerprint: string };

/**
 * The node's SFTP server (ssh2): users the control plane pushed (./user-store.ts), by password
 * (argon2id, throttled per username and address) or public key; only the `sftp` subsystem, no
 * shell, exec, forwarding or agent. Each session is jailed to its user's environment files.
 */
export class SftpServer {
  /** The listening socket: plain node:net, so that ssh2 is loaded at the first connection, not at start. */
  private readonly server: net.Server;
  private ssh: Promise<SshSide> | null = null;
  /** Set once ssh2 is loaded: every connection's handlers run after that. */
  private loaded: SshSide | null = null;
  /** Logged-in connections per user id, with their SFTP sessions, to cut them all on a revocation. */
  private readonly sessions = new Map<number, Set<LiveConnection>>();
  private listening: SftpFacts | null = null;
  /** argon2 verifications at once and waiting: a flood of guesses queues a bounded amount of work. */
  private readonly verifications = new BoundedSemaphore(SFTP_LIMITS.verifications, SFTP_LIMITS.verificationQueue);
  /** Password attempts per address, whatever the names (the throttle counts per name and address). */
  private readonly addressAttempts = new AttemptBucket(SFTP_LIMITS.attemptsPerAddress, SFTP_LIMITS.attemptsWindowMs);
  private readonly connectionsPerAddress = new CountPerKey(SFTP_LIMITS.connectionsPerAddress);

  private readonly options: SftpServerOptions;

  constructor(options: SftpServerOptions) {
    this.options = options;
    this.server = net.createServer((socket) => void this.handOver(socket));
    this.server.on('error', (error: Error) => options.logger.error({ error: error.message }, 'sftp server error'));
    // beyond this, sockets are refused before any work
    this.server.maxConnections = SFTP_LIMITS.connections;
  }

  /** Gives a new socket to ssh2, loaded (once) at the first connection. */
  private async handOver(socket: net.Socket): Promise<void> {
    // until ssh2 listens on it, an error (the client gone) must not be an uncaught one
    const early = () => socket.destroy();
    socket.on('error', early);
    try {
      const ssh = await (this.ssh ??= this.loadSsh());
      socket.off('error', early);
      if (!socket.destroyed) ssh.server.injectSocket(socket);
    } catch (error) {
      this.ssh = null;
      this.options.logger.error({ error: (error as Error).message }, 'sftp cannot serve a connection: ssh2 did not load');
      socket.destroy();
    }
  }

  private async loadSsh(): Promise<SshSide> {
    const [{ default: ssh2 }, { SftpSession: Session }] = await Promise.all([import('ssh2'), import('./sftp-session.ts')]);
    const { options } = this;
    const server = new ssh2.Server(
      { hostKeys: [options.hostKey.privateKey], ident: 'Berth_SFTP', ...(process.env.SFTP_DEBUG ? { debug: (line: string) => console.error(line) } : {}) },
      (client, info) => this.accept(client, info.ip),
    );
    server.on('error', (error: Error) => options.logger.error({ error: error.message }, 'sftp server error'));
    this.loaded = { ssh2, server, Session };
    return this.loaded;
  }

  async listen(): Promise<SftpFacts> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const port = (this.server.address() as net.AddressInfo).port;
    this.listening = { port, host_key: this.options.hostKey.publicLine, host_key_fingerprint: this.options.hostKey.fingerprint };
    if (!(await passwordsSupported()))
      this.options.logger.warn('this Node has no argon2 (Node 24.7+ has it built in): SFTP password logins are refused, public keys work');
    this.options.logger.info({ host: this.options.host, port, host_key_fingerprint: this.options.hostKey.fingerprint }, 'sftp server listening');
    return this.listening;
  }

  facts(): SftpFacts | null {
    return this.listening;
  }

  /**
   * Cuts every open connection of these users (revoked, or their credentials changed): their SFTP
   * sessions refuse every request and close their handles, and the sockets are destroyed, at once,
   * mid-transfer or not.
   */
  disconnect(userIds: readonly number[]): number {
    let closed = 0;
    for (const id of userIds) {
      for (const live of this.sessions.get(id) ?? []) {
        for (const session of live.sftp) void session.revoke();
        destroyConnection(live.client);
        closed += 1;
      }
      this.sessions.delete(id);
    }
    return closed;
  }

  async close(): Promise<void> {
    this.disconnect([...this.sessions.keys()]);
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Connection, ip: string): void {
    const { logger } = this.options;
    if (!this.connectionsPerAddress.take(ip)) {
      logger.warn({ ip, limit: SFTP_LIMITS.connectionsPerAddress }, 'sftp connection refused: too many from this address');
      destroyConnection(client);
      return;
    }
    let attempts = 0;
    let channels = 0;
    let user: SftpUserEntry | undefined;
    const live: LiveConnection = { client, sftp: new Set() };
    const grace = setTimeout(() => {
      if (!user) client.end();
    }, LOGIN_GRACE_MS);
    client.on('error', (error: Error) => logger.debug({ ip, error: error.message }, 'sftp connection error'));
    client.on('close', () => {
      clearTimeout(grace);
      this.connectionsPerAddress.release(ip);
      if (user) this.sessions.get(user.id)?.delete(live);
      for (const session of live.sftp) void session.revoke();
    });
    client.on('authentication', (context) => {
      void this.authenticate(context, ip).then(
        (accepted) => {
          // a key offered without a signature only asks whether it would do: yes, but no login yet
          if (accepted && context.method === 'publickey' && !context.signature) return context.accept();
          if (accepted) {
            const set = this.sessions.get(accepted.id) ?? new Set();
            if (set.size >= SFTP_LIMITS.connectionsPerUser) {
              logger.warn({ username: accepted.username, ip, limit: SFTP_LIMITS.connectionsPerUser }, 'sftp login refused: too many connections of this user');
              context.reject();
              client.end();
              return;
            }
            user = accepted;
            set.add(live);
            this.sessions.set(accepted.id, set);
            context.accept();
            return;
          }
          if (context.method !== 'none' && ++attempts >= ATTEMPTS_PER_CONNECTION) {
            context.reject();
            client.end();
            return;
          }
          context.reject(['publickey', 'password']);
        },
        (error: unknown) => {
          logger.error({ ip, error: (error as Error).message }, 'sftp authentication failed unexpectedly');
          context.reject();
        },
      );
    });
    client.on('ready', () => {
      client.on('session', (acceptSession, rejectSession) => {
        if (channels >= SFTP_LIMITS.channelsPerConnection) return rejectSession();
        channels += 1;
        const session = acceptSession();
        session.on('close', () => (channels -= 1));
        session.on('sftp', (acceptSftp) => {
          // revoked between the login and this request: refused
          const served = user;
          if (!served || !this.options.store.isServed(served)) return destroyConnection(client);
          const sftp = new this.loaded!.Session(acceptSftp(), served, this.options.dataDir, logger, () => this.options.store.isServed(served));
          live.sftp.add(sftp);
        });
        for (const refused of ['pty', 'shell', 'exec', 'subsystem', 'env', 'x11', 'auth-agent', 'signal', 'window-change'] as const) {
          session.on(refused as 'exec', ((accept: unknown, reject?: () => void) => reject?.()) as never);
        }
      });
      client.on('tcpip', (_accept, reject) => reject());
      client.on('openssh.streamlocal', (_accept, reject) => reject());
      client.on('request', (_accept, reject) => reject?.());
    });
  }

  /** The user this attempt logs in as, or undefined (after the throttle's delay for a wrong password). */
  private async authenticate(context: AuthContext, ip: string): Promise<SftpUserEntry | undefined> {
    const { store, throttle, logger } = this.options;
    const username = context.username;
    if (context.method === 'none') return undefined;
    if (!USERNAME_PATTERN.test(username)) {
      // no user can have it: refused without argon2, a throttle entry, or the name in the log
      logger.warn({ username_digest: nameDigest(username), ip }, 'sftp login refused: not a valid username');
      await sleep(REFUSAL_DELAY_MS);
      return undefined;
    }
    const found = store.find(username);
    // a name that is no user's may be a password typed in the wrong field: only its digest is logged
    const who = found ? { username } : { username_digest: nameDigest(username) };
    if (context.method === 'password') {
      const key = `${username}|${ip}`;
      const locked = throttle.lockedFor(key);
      if (locked > 0) {
        logger.warn({ ...who, ip, locked_for_ms: locked }, 'sftp login refused: too many wrong passwords');
        await sleep(REFUSAL_DELAY_MS);
        return undefined;
      }
      if (!this.addressAttempts.take(ip)) {
        logger.warn({ ...who, ip, limit: SFTP_LIMITS.attemptsPerAddress }, 'sftp login refused: too many password attempts from this address');
        await sleep(REFUSAL_DELAY_MS);
        return undefined;
      }
      const delay = throttle.attempt(key);
      const verified = await this.verifications.run(() => verifyPassword(found?.password_hash ?? DUMMY_HASH, context.password));
      if (!verified) {
        logger.warn({ ...who, ip }, 'sftp login refused: too many logins being verified');
        await sleep(REFUSAL_DELAY_MS);
        return undefined;
      }
      const right = verified.value;
      if (right && found && (await this.jailExists(found))) {
        throttle.succeeded(key);
        logger.info({ username, ip, method: 'password' }, 'sftp login');
        return found;
      }
      logger.warn({ ...who, ip, known: Boolean(found) }, 'sftp login refused: wrong password or unknown user');
      await sleep(delay);
      return undefined;
    }
    if (context.method === 'publickey' && found) {
      const offered = context.key.data;
      const match = found.public_keys
        .map((line) => this.loaded!.ssh2.utils.parseKey(line))
        .find((key) => !(key instanceof Error) && !Array.isArray(key) && key.getPublicSSH().equals(offered));
      if (!match || match instanceof Error || Array.isArray(match)) return undefined;
      // without a signature the client only asks whether the key would do
      if (!context.signature || !context.blob) return found;
      if (match.verify(context.blob, context.signature, context.hashAlgo) !== true) return undefined;
      if (!(await this.jailExists(found))) return undefined;
      logger.info({ username, ip, method: 'publickey' }, 'sftp login');
      return found;
    }
    return undefined;
  }

  /** A user whose environment's files are gone (deleted meanwhile) cannot log in. */
  private async jailExists(user: SftpUserEntry): Promise<boolean> {
    const opened = await openInside(this.options.dataDir, user.root).catch(() => null);
    await opened?.directory.close();
    return Boolean(opened);
  }
}
