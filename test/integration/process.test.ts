import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onlineNode, startBerth, stopBerthProcesses } from '../helpers/berth-process.ts';
import { Mailbox, tokenIn } from '../helpers/mailbox.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { dockerSocket } from '../helpers/runtime-peers.ts';
import { createDb } from '../../shared/db/knex.ts';

const cli = path.resolve('cli/berth.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  stopBerthProcesses();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** POSTs `body` as JSON to the auth surface of a running berth process (plain fetch: no cookies, no CSRF token). */
async function postToAuth(baseUrl: string, endpoint: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/auth${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('the berth process', () => {
  it('migrates, listens, and on SIGTERM finishes in-flight requests before it exits 0', async () => {
    const berth = await startBerth({ LOG_LEVEL: 'debug' });
    expect(berth.output()).toMatch(/"msg":"database (migrated|is up to date)"/);
    const status = await fetch(`${berth.baseUrl}/api/v1/auth/status`);
    expect(status.status).toBe(200);

    // Several logins (an argon2 verification each) are in flight when the signal arrives.
    const inFlight = Array.from({ length: 4 }, () => postToAuth(berth.baseUrl, '/login', { email: 'nobody@example.test', password: 'wrong password' }));
    // Signal only once the server has read all four requests: then they are truly in flight.
    const received = () =>
      berth
        .output()
        .split('\n')
        .filter((line) => line.includes('"request received"') && line.includes('/login')).length;
    while (received() < inFlight.length) await new Promise((resolve) => setTimeout(resolve, 5));
    berth.child.kill('SIGTERM');
    const replies = await Promise.all(inFlight);
    expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 401]);
    expect(await berth.exited).toBe(0);
    expect(berth.output()).toContain('"msg":"stopped"');
    await expect(fetch(`${berth.baseUrl}/api/v1/auth/status`)).rejects.toThrow();
  });

  it('keeps passwords, tokens and cookies out of its log', async () => {
    const mailbox = new Mailbox();
    await mailbox.start();
    try {
      const berth = await startBerth({ SMTP_URL: mailbox.url });
      const email = `log-${randomBytes(4).toString('hex')}@example.test`;
      const password = `Sekret-${randomBytes(6).toString('hex')}`;
      const registered = await postToAuth(berth.baseUrl, '/register-owner', {
        email,
        password,
        name: 'Log Test',
        team_name: 'Log',
        team_slug: `log-${randomBytes(4).toString('hex')}`,
      });
      expect(registered.status).toBe(201);
      const verificationToken = tokenIn(await mailbox.waitFor(email, /Verify/));
      expect((await postToAuth(berth.baseUrl, '/email/verification/confirm', { token: verificationToken })).status).toBe(200);
      const login = await postToAuth(berth.baseUrl, '/login', { email, password });
      const { pre_auth_token: preAuthToken } = (await login.json()) as { pre_auth_token: string };
      // A new device: the e-mailed code approves it before the exchange.
      const device = { pre_auth_token: preAuthToken, device_fingerprint: 'f'.repeat(64) };
      expect((await postToAuth(berth.baseUrl, '/device/challenge', device)).status).toBe(200);
      const code = (await mailbox.waitFor(email, /sign-in code/)).text.match(/Code: (\d{6})/)![1]!;
      expect((await postToAuth(berth.baseUrl, '/device/approve', { ...device, otp_code: code })).status).toBe(200);
      const exchange = await postToAuth(berth.baseUrl, '/session-exchange', {
        pre_auth_token: preAuthToken,
        team_id: ((await registered.json()) as { team_id: number }).team_id,
        session_info: { device_fingerprint: device.device_fingerprint },
      });
      expect(exchange.status).toBe(200);
      const cookies = exchange.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!.split('=')[1]!);
      await postToAuth(berth.baseUrl, '/password-reset/request', { email });
      const resetToken = tokenIn(await mailbox.waitFor(email, /Reset/));

      berth.child.kill('SIGTERM');
      await berth.exited;
      const log = berth.output();
      expect(log).toContain('"msg":"mail sent"');
      for (const secret of [password, verificationToken, preAuthToken, code, resetToken, ...cookies]) {
        expect(log.includes(secret), `a secret reached the log: ${secret.slice(0, 6)}…`).toBe(false);
      }
    } finally {
      await mailbox.stop();
    }
  });

  it('stops with a message naming a bad variable', async () => {
    const child = spawn(process.execPath, [cli, 'start'], {
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty', DATA_DIR: os.tmpdir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toContain('PORT');
  });
});

describe('berth start on one machine', () => {
  // Two starts, each waiting up to 30 s for the node: the file's 20 s default cannot hold them on a loaded machine.
  it('runs a local agent that enrolls this machine as a node, heartbeats, and stops with it; a restart keeps its identity', { timeout: 120_000 }, async () => {
    const db = createDb(testDatabaseUrl, { poolMax: 1 });
    const name = `local-${randomBytes(4).toString('hex')}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-process-'));
    const env = { LOCAL_AGENT: 'on', LOCAL_AGENT_NODE_NAME: name, NODE_DOCKER_SOCKETS: dockerSocket() };
    try {
      const first = await startBerth(env, dataDir);
      const node = await onlineNode(db, name, 30_000);
      expect(node).toMatchObject({ region: 'local', public_address: '127.0.0.1', enrollment_token_hash: null });
      expect(node.facts.docker.api_version).toMatch(/^\d+\.\d+$/);
      expect(fs.statSync(path.join(dataDir, 'agent', 'config.json')).mode & 0o777).toBe(0o600);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = await startBerth(env, dataDir);
      await db('nodes').where({ name }).update({ last_heartbeat_at: null });
      const again = await onlineNode(db, name, 30_000);
      expect(again.id).toBe(node.id);
      expect(again.public_key).toEqual(node.public_key);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await db('nodes').where({ name }).delete();
      await db.destroy();
    }
  });
});
