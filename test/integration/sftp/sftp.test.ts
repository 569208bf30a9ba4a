import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameDigest } from '../../../agent/sftp/limits.ts';
import { Operation, SftpUser } from '../../../shared/db/models.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { accessTokenOf, createOwner } from '../../helpers/factories.ts';
import { sftpBatch, sftpSession, type SftpLogin } from '../../helpers/sftp-client.ts';
import { rawSftp, settle } from '../../helpers/ssh2-client.ts';
import { operationOutcome } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { addMember } from '../../helpers/team-members.ts';
import { until } from '../../helpers/until.ts';

/**
 * SFTP users on a real node, through the real OpenSSH sftp client pinned to the host key the API
 * shows: files go up and down byte for byte as the site's uid, the jail holds (`..`, absolute
 * paths, planted symlinks), wrong passwords are throttled, a revocation cuts at once, and one
 * environment's user never sees another's files.
 */
const LOCKOUT_SECONDS = 4;
let site: SiteOnNode;
let work: string;
const users = (env = 'production') => `/v1/sites/${site.siteId}/environments/${env}/sftp-users`;

type Created = {
  id: number;
  username: string;
  password: string | null;
  connection: { host: string; port: number; host_key: string; host_key_fingerprint: string };
};

async function createUser(body: Record<string, unknown>, env = 'production'): Promise<Created> {
  // with an Idempotency-Key, as a careful client sends it: the replay cache must not keep the password
  const reply = await site.stack
    .client()
    .post(users(env), body, { headers: { ...site.bearer().headers, 'idempotency-key': `sftp-create-${randomBytes(6).toString('hex')}` } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  expect(reply.headers.get('location')).toBe(`/v1/operations/${reply.body.data.operation.id}`);
  const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id, 60_000);
  expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
  const { sftp_user: user, password } = reply.body.data;
  return { id: user.id, username: user.username, password, connection: user.connection };
}

/** known_hosts from the API's host key, and the fingerprint ssh-keygen computes from it. */
function knownHostsFor(created: Created): { file: string; fingerprint: string } {
  const file = path.join(work, `known_hosts-${created.username}`);
  fs.writeFileSync(file, `[${created.connection.host}]:${created.connection.port} ${created.connection.host_key}\n`);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' }).split(' ')[1]!;
  return { file, fingerprint };
}

function loginOf(created: Created, secret: { password?: string; identity?: string }): SftpLogin {
  return { host: created.connection.host, port: created.connection.port, username: created.username, knownHosts: knownHostsFor(created).file, ...secret };
}

const filesOf = (environment: { id: number; node_id: string }) => path.join(site.node.dataDir, environmentLayout(environment).filesDir);

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sftp-'));
  site = await startSiteOnNode('sftp', { agentEnv: { AGENT_SFTP_FAILURE_DELAY_MS: '100', AGENT_SFTP_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS) } });
}, 400_000);

// Stopping waits for the stack's jobs in progress and removes the node's containers: over a minute
// once on a loaded machine beside two other node files.
afterAll(async () => {
  await site?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}, 180_000);

describe('SFTP users', () => {
  let owner: Created;

  it('creates a user with a generated password, shown once, and the host key the server really has', async () => {
    owner = await createUser({});
    expect(owner.username).toMatch(new RegExp(`^${site.slug.slice(0, 10)}.*-prod-[a-z2-9]{4}$`));
    expect(owner.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(owner.connection).toMatchObject({
      host: '127.0.0.1',
      port: expect.any(Number),
      host_key: expect.stringMatching(/^ssh-ed25519 /),
      host_key_fingerprint: expect.stringMatching(/^SHA256:/),
    });
    expect(knownHostsFor(owner).fingerprint).toBe(owner.connection.host_key_fingerprint);
    const got = await site.stack.client().get(`${users()}/${owner.id}`, site.bearer());
    expect(got.body.data).toMatchObject({ status: 'active', password: true, public_keys: [] });
    expect(JSON.stringify(got.body)).not.toContain(owner.password);
    for (const key of await site.stack.ctx.redis.keys(`${site.stack.ctx.config.redisPrefix}:idem:*`))
      expect(await site.stack.ctx.redis.get(key)).not.toContain(owner.password);
    const row = (await SftpUser.query(site.stack.ctx.db).findById(owner.id))!;
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    // the node's copy of the command keeps no hash once it ran
    const commands = await site.stack.ctx.db('agent_commands').where({ kind: 'sftp.users.put' }).select('payload');
    expect(JSON.stringify(commands)).not.toContain('$argon2id$');
  });

  it("uploads, downloads (byte-equal), renames, makes and removes directories and files, as the site's uid; WordPress serves them", async () => {
    const files = filesOf(site.production);
    const payload = randomBytes(300_000);
    fs.writeFileSync(path.join(work, 'local.bin'), payload);
    fs.writeFileSync(path.join(work, 'hello.txt'), 'hello over sftp\n');
    const up = await sftpBatch(
      loginOf(owner, { password: owner.password! }),
      [
        'put local.bin upload.bin',
        'get upload.bin downloaded.bin',
        'rename upload.bin renamed.bin',
        'mkdir newdir',
        'put local.bin newdir/inner.bin',
        'put hello.txt hello.txt',
        'ls -l',
      ],
      work,
    );
    expect(up.code, up.stderr + up.stdout).toBe(0);
    expect(fs.readFileSync(path.join(work, 'downloaded.bin')).equals(payload)).toBe(true);
    expect(fs.readFileSync(path.join(files, 'renamed.bin')).equals(payload)).toBe(true);
    expect(fs.existsSync(path.join(files, 'upload.bin'))).toBe(false);
    expect(up.stdout).toContain('wp-config.php');
    for (const made of ['renamed.bin', 'newdir', 'newdir/inner.bin', 'hello.txt']) {
      const stats = fs.statSync(path.join(files, made));
      expect([made, stats.uid, stats.gid]).toEqual([made, WORDPRESS_RUNTIME.siteUid, WORDPRESS_RUNTIME.siteGid]);
    }
    const served = await site.node.throughEdge(`http://${site.production.domain}/hello.txt`);
    expect([served.status, served.body]).toEqual([200, 'hello over sftp\n']);

    const down = await sftpBatch(
      loginOf(owner, { password: owner.password! }),
      ['rm newdir/inner.bin', 'rmdir newdir', 'rm renamed.bin', 'rm hello.txt'],
      work,
    );
    expect(down.code, down.stderr + down.stdout).toBe(0);
    for (const gone of ['renamed.bin', 'newdir', 'hello.txt']) expect(fs.existsSync(path.join(files, gone))).toBe(false);
  });

  it("keeps the user inside the environment's files: .. at the top, absolute paths and symlinks pointing out lead nowhere", async () => {
    const files = filesOf(site.production);
    fs.symlinkSync('/etc', path.join(files, 'escape-dir'));
    fs.symlinkSync('/etc/passwd', path.join(files, 'escape-file'));
    fs.symlinkSync('../../../../../../etc/hostname', path.join(files, 'escape-relative'));
    const run = await sftpBatch(
      loginOf(owner, { password: owner.password! }),
      [
        'cd ..',
        'cd ../../..',
        'pwd',
        'ls',
        '-get /etc/passwd passwd.out',
        '-get ../../../../etc/hostname hostname.out',
        '-ls escape-dir/',
        '-cd escape-dir',
        '-get escape-file escape-file.out',
        '-get escape-relative escape-relative.out',
        '-get escape-dir/passwd escape-dir.out',
        '-put hello.txt escape-dir/planted.txt',
        '-symlink /etc/shadow abs-link',
        '-symlink ../../../etc outside-link',
        'symlink wp-config.php inside-link',
      ],
      work,
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain('Remote working directory: /\n');
    expect(run.stdout).toContain('wp-config.php');
    for (const out of ['passwd.out', 'hostname.out', 'escape-file.out', 'escape-relative.out', 'escape-dir.out'])
      expect(fs.existsSync(path.join(work, out)), out).toBe(false);
    expect(fs.existsSync('/etc/planted.txt')).toBe(false);
    expect(run.stderr).toMatch(/No such file|not found/i); // /etc/passwd read inside the jail
    expect(run.stderr).toMatch(/Permission denied/); // the symlinks
    expect(fs.existsSync(path.join(files, 'abs-link'))).toBe(false);
    expect(fs.existsSync(path.join(files, 'outside-link'))).toBe(false);
    expect(fs.readlinkSync(path.join(files, 'inside-link'))).toBe('wp-config.php');
    expect(fs.lstatSync(path.join(files, 'inside-link')).uid).toBe(WORDPRESS_RUNTIME.siteUid);
    for (const link of ['escape-dir', 'escape-file', 'escape-relative', 'inside-link']) fs.rmSync(path.join(files, link));
  });

  it("lets the user do only what the site's uid may: a root-owned file is neither overwritten, given away, nor read when private", async () => {
    const files = filesOf(site.production);
    fs.writeFileSync(path.join(files, 'root-public.txt'), 'root public\n', { mode: 0o644 });
    fs.writeFileSync(path.join(files, 'root-private.txt'), 'root private\n', { mode: 0o600 });
    fs.mkdirSync(path.join(files, 'root-dir'), { mode: 0o755 });
    const run = await sftpBatch(
      loginOf(owner, { password: owner.password! }),
      [
        'get root-public.txt public.out',
        '-get root-private.txt private.out',
        '-put hello.txt root-public.txt',
        '-rm root-dir/nothing',
        '-put hello.txt root-dir/planted.txt',
        '-chmod 777 root-public.txt',
      ],
      work,
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(fs.readFileSync(path.join(work, 'public.out'), 'utf8')).toBe('root public\n');
    expect(fs.existsSync(path.join(work, 'private.out'))).toBe(false);
    const publicFile = fs.statSync(path.join(files, 'root-public.txt'));
    expect([publicFile.uid, publicFile.mode & 0o777]).toEqual([0, 0o644]);
    expect(fs.readFileSync(path.join(files, 'root-public.txt'), 'utf8')).toBe('root public\n');
    expect(fs.existsSync(path.join(files, 'root-dir', 'planted.txt'))).toBe(false);
    expect(run.stderr).toMatch(/Permission denied/);
    for (const made of ['root-public.txt', 'root-private.txt', 'root-dir']) fs.rmSync(path.join(files, made), { recursive: true, force: true });
  });

  it('locks the name out from that address after wrong passwords, the right password included, until the lockout ends', async () => {
    const target = await createUser({ password: 'the right password 1' });
    const wrong = loginOf(target, { password: 'a wrong password' });
    // each refusal is held longer (100, 200, 400, 800, 1600 ms): the throttle's rule is unit-tested
    // (test/unit/sftp-rules.test.ts), the times measured in test/bench/sftp-refusals.bench.ts
    for (let attempt = 0; attempt < 5; attempt++) {
      const run = await sftpBatch(wrong, ['pwd'], work);
      expect(run.code).not.toBe(0);
    }
    const wrongRefusals = () =>
      site.node
        .agent()
        .logs()
        .filter((line) => line.msg === 'sftp login refused: wrong password or unknown user' && line.username === target.username).length;
    await until(async () => wrongRefusals() >= 5, 'five refusals to be logged', 10_000, 50);
    expect(wrongRefusals()).toBe(5);
    const locked = await sftpBatch(loginOf(target, { password: 'the right password 1' }), ['pwd'], work);
    expect(locked.code).not.toBe(0);
    expect(
      site.node
        .agent()
        .logs()
        .some((line) => line.msg === 'sftp login refused: too many wrong passwords' && line.username === target.username),
    ).toBe(true);
    expect(site.node.agent().output()).not.toContain('a wrong password');
    // another name from the same address is not locked
    expect((await sftpBatch(loginOf(owner, { password: owner.password! }), ['pwd'], work)).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, LOCKOUT_SECONDS * 1000));
    const after = await sftpBatch(loginOf(target, { password: 'the right password 1' }), ['pwd'], work);
    expect(after.code, after.stderr).toBe(0);
  });

  it('refuses a name that cannot be a username at once, and logs only its digest, as for a well-formed name no user has', async () => {
    const junk = `${'Z'.repeat(3000)}\n{"msg":"forged"}`;
    const outcome = await rawSftp({ host: owner.connection.host, port: owner.connection.port, username: junk, password: 'whatever' }).then(
      (raw) => {
        raw.client.destroy();
        return 'logged in';
      },
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/authentication methods failed/i);
    expect(
      site.node
        .agent()
        .logs()
        .some((line) => line.msg === 'sftp login refused: not a valid username' && /^sha256:[0-9a-f]{16}$/.test(String(line.username_digest))),
    ).toBe(true);
    expect(site.node.agent().output()).not.toContain('ZZZ');
    expect(site.node.agent().output()).not.toContain('forged');
    // a password pasted into the username field fits the username pattern: it is not logged either
    const pasted = `pw-${randomBytes(6).toString('hex')}`;
    await rawSftp({ host: owner.connection.host, port: owner.connection.port, username: pasted, password: 'whatever' }).then(
      (raw) => raw.client.destroy(),
      () => undefined,
    );
    await until(
      async () =>
        site.node
          .agent()
          .logs()
          .some((line) => line.msg === 'sftp login refused: wrong password or unknown user' && line.username_digest === nameDigest(pasted)),
      'the refusal to be logged',
      10_000,
      100,
    );
    expect(site.node.agent().output()).not.toContain(pasted);
  });

  it("logs in by public key; a staging user never sees production's files, nor production's user staging's", async () => {
    const staged = await site.stack.client().post(`/v1/sites/${site.siteId}/environments`, { kind: 'staging' }, site.bearer());
    expect(staged.status, JSON.stringify(staged.body)).toBe(202);
    expect((await operationOutcome(site.stack, site.token, staged.body.data.operation.id)).status).toBe('succeeded');
    const key = path.join(work, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'dev@laptop', '-f', key]);
    const stagingUser = await createUser(
      { username: `stg-${randomBytes(3).toString('hex')}`, public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')] },
      'staging',
    );
    expect(stagingUser.password).toBeNull();
    const listed = await site.stack.client().get(users('staging'), site.bearer());
    expect(listed.body.data[0].public_keys[0]).toMatchObject({
      type: 'ssh-ed25519',
      comment: 'dev@laptop',
      fingerprint: execFileSync('ssh-keygen', ['-l', '-f', `${key}.pub`], { encoding: 'utf8' }).split(' ')[1],
    });

    const staging = await site.stack.ctx.db('environments').where({ site_id: site.siteId, kind: 'staging' }).first('id', 'node_id');
    const stagingFiles = filesOf(staging);
    fs.writeFileSync(path.join(filesOf(site.production), 'production-only.txt'), 'production\n');
    fs.writeFileSync(path.join(stagingFiles, 'staging-only.txt'), 'staging\n');
    const asStaging = await sftpBatch(
      loginOf(stagingUser, { identity: key }),
      ['ls -1', '-get production-only.txt p.out', '-get /../production-only.txt p2.out', 'get staging-only.txt s.out'],
      work,
    );
    expect(asStaging.code, asStaging.stderr).toBe(0);
    const listing = (output: string) => output.split('\n').filter((line) => line !== '' && !line.startsWith('sftp>'));
    expect(listing(asStaging.stdout)).toContain('staging-only.txt');
    expect(listing(asStaging.stdout)).toContain('wp-config.php');
    expect(listing(asStaging.stdout)).not.toContain('production-only.txt');
    expect(fs.existsSync(path.join(work, 'p.out')) || fs.existsSync(path.join(work, 'p2.out'))).toBe(false);
    expect(fs.readFileSync(path.join(work, 's.out'), 'utf8')).toBe('staging\n');
    const asProduction = await sftpBatch(loginOf(owner, { password: owner.password! }), ['ls -1', '-get staging-only.txt s2.out'], work);
    expect(listing(asProduction.stdout)).toContain('production-only.txt');
    expect(listing(asProduction.stdout)).not.toContain('staging-only.txt');
    expect(fs.existsSync(path.join(work, 's2.out'))).toBe(false);
    // the key is no password: a password login of the staging user is refused
    expect((await sftpBatch(loginOf(stagingUser, { password: 'anything at all' }), ['pwd'], work)).code).not.toBe(0);

    // the environment's deletion revokes its users first
    const deleted = await site.stack.client().request('DELETE', `/v1/sites/${site.siteId}/environments/staging`, site.bearer());
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(202);
    expect((await operationOutcome(site.stack, site.token, deleted.body.data.operation.id)).status).toBe('succeeded');
    expect(await SftpUser.query(site.stack.ctx.db).findById(stagingUser.id)).toBeUndefined(); // its row went with the environment's
    expect((await sftpBatch(loginOf(stagingUser, { identity: key }), ['pwd'], work)).code).not.toBe(0);
    expect(
      site.node
        .agent()
        .logs()
        .some((line) => line.kind === 'sftp.users.remove' && String(line.command).includes(':route:')),
    ).toBe(true);
  }, 240_000);

  it('revokes at once: the answer says revoked, the open session is cut, a new login is refused', async () => {
    const doomed = await createUser({ password: 'soon to be revoked' });
    const login = loginOf(doomed, { password: 'soon to be revoked' });
    const open = sftpSession(login, work);
    open.send('pwd');
    await until(async () => open.output().includes('Remote working directory'), 'the session to open', 15_000, 50);
    const revoked = await site.stack.client().request('DELETE', `${users()}/${doomed.id}`, site.bearer());
    const answeredAt = Date.now();
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(202);
    expect(revoked.body.data.sftp_user).toMatchObject({ status: 'revoked', password: false });
    expect((await SftpUser.query(site.stack.ctx.db).findById(doomed.id))!.status).toBe('revoked');
    // ssh tells at once ("Received disconnect … Connection closed"); sftp itself notices at its next command
    await until(
      async () => /Connection closed|Received disconnect/.test(open.output()) || open.child.exitCode !== null,
      'the open session to be cut',
      10_000,
      20,
    ).catch(() => {
      throw new Error(
        `the session was not cut: ${open.output()}\n${site.node
          .agent()
          .output()
          .split('\n')
          .filter((line) => /sftp/.test(line))
          .slice(-5)
          .join('\n')}`,
      );
    });
    const cutAfterMs = Date.now() - answeredAt;
    open.child.stdin!.end();
    open.child.kill('SIGTERM');
    const again = await sftpBatch(login, ['pwd'], work);
    expect(again.code).not.toBe(0);
    const outcome = await operationOutcome(site.stack, site.token, revoked.body.data.operation.id, 60_000);
    expect(outcome).toMatchObject({ status: 'succeeded', kind: 'sftp.revoke' });
    expect((await site.stack.client().request('DELETE', `${users()}/${doomed.id}`, site.bearer())).status).toBe(409);
    console.log(`sftp: open session cut ${cutAfterMs} ms after the revoke's answer`);
  });

  it('revokes a client that ignores the disconnect: its open session writes and opens nothing more', async () => {
    const stubborn = await createUser({ password: 'revoked but stubborn' });
    const files = filesOf(site.production);
    const raw = await rawSftp({
      host: stubborn.connection.host,
      port: stubborn.connection.port,
      username: stubborn.username,
      password: 'revoked but stubborn',
    });
    const opened = await settle<Buffer>((done) => raw.sftp.open('held-open.txt', 'w', done));
    expect(opened.ok).toBe(true);
    const handle = (opened as { value: Buffer }).value;
    const revoked = await site.stack.client().request('DELETE', `${users()}/${stubborn.id}`, site.bearer());
    expect(revoked.status).toBe(202);
    expect((await operationOutcome(site.stack, site.token, revoked.body.data.operation.id, 60_000)).status).toBe('succeeded');
    // the same channel, as if the disconnect had not been seen: a write on the held handle, a new file
    const wrote = await settle((done) => raw.sftp.write(handle, Buffer.from('after the revocation'), 0, 20, 0, done), 2_000);
    const made = await settle((done) => raw.sftp.open('after-revocation.txt', 'w', done), 2_000);
    expect([wrote.ok, made.ok]).toEqual([false, false]);
    await until(async () => raw.closed(), 'the connection to be gone', 5_000, 20);
    expect(fs.statSync(path.join(files, 'held-open.txt')).size).toBe(0);
    expect(fs.existsSync(path.join(files, 'after-revocation.txt'))).toBe(false);
    raw.client.destroy();
    fs.rmSync(path.join(files, 'held-open.txt'));
  });

  it('changes a password by an operation: the old one is refused from then on, the new one works', async () => {
    const user = await createUser({ password: 'the first password' });
    const idempotent = { headers: { ...site.bearer().headers, 'idempotency-key': `sftp-patch-${randomBytes(6).toString('hex')}` } };
    const patched = await site.stack.client().request('PATCH', `${users()}/${user.id}`, { json: { generate_password: true }, ...idempotent });
    expect(patched.status, JSON.stringify(patched.body)).toBe(202);
    // a replay answers without the password, and Redis never held it
    const replayed = await site.stack.client().request('PATCH', `${users()}/${user.id}`, { json: { generate_password: true }, ...idempotent });
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body.data.password]).toEqual([202, 'true', null]);
    for (const key of await site.stack.ctx.redis.keys(`${site.stack.ctx.config.redisPrefix}:idem:*`))
      expect(await site.stack.ctx.redis.get(key)).not.toContain(patched.body.data.password);
    expect(patched.body.data).toMatchObject({
      sftp_user: { status: 'provisioning' },
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      operation: { kind: 'sftp.update' },
    });
    expect((await operationOutcome(site.stack, site.token, patched.body.data.operation.id, 60_000)).status).toBe('succeeded');
    expect((await sftpBatch(loginOf(user, { password: 'the first password' }), ['pwd'], work)).code).not.toBe(0);
    expect((await sftpBatch(loginOf(user, { password: patched.body.data.password }), ['pwd'], work)).code).toBe(0);
    const keysOnly = await site.stack.client().request('PATCH', `${users()}/${user.id}`, { json: { public_keys: [] }, ...site.bearer() });
    expect(keysOnly.status).toBe(202); // the password stays: a user keeps at least one way in
    expect((await operationOutcome(site.stack, site.token, keysOnly.body.data.operation.id, 60_000)).status).toBe('succeeded');
  });

  it('keeps users and the host key across an agent restart', async () => {
    const before = owner.connection.host_key_fingerprint;
    await site.node.restartAgent();
    const port = await until(
      async () => {
        const node = await site.stack.ctx.db('nodes').where({ id: site.node.nodeId }).first('sftp_port', 'sftp_host_key_fingerprint', 'agent_started_at');
        return node.sftp_port !== owner.connection.port ? node : null;
      },
      'the restarted agent to report its SFTP server',
      30_000,
    );
    expect(port.sftp_host_key_fingerprint).toBe(before);
    const again = (await site.stack.client().get(`${users()}/${owner.id}`, site.bearer())).body.data;
    const run = await sftpBatch(loginOf({ ...owner, connection: again.connection }, { password: owner.password! }), ['pwd'], work);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe('SFTP users after an agent restart', () => {
  it('are reconciled from the records: a user the node lost is served again, one revoked while its command was lost is removed', async () => {
    // the earlier restart's reconciliation must have ended: while one is unfinished no other is made
    await until(
      async () =>
        (await Operation.query(site.stack.ctx.db)
          .where({ kind: 'node.reconcile', target_id: site.node.nodeId })
          .whereIn('status', ['queued', 'running'])
          .resultSize()) === 0 || undefined,
      'the earlier node.reconcile to end',
      120_000,
      500,
    );
    const lost = await createUser({});
    const revokedMeanwhile = await createUser({});
    await site.node.stopAgent();
    // the node loses one user's entry; the other's revocation never reached it (its command lapsed)
    const usersFile = path.join(site.node.dataDir, 'sftp', 'users.json');
    const stored = JSON.parse(fs.readFileSync(usersFile, 'utf8')) as { users: Array<{ id: number }> };
    expect(stored.users.map((user) => user.id)).toEqual(expect.arrayContaining([lost.id, revokedMeanwhile.id]));
    fs.writeFileSync(usersFile, JSON.stringify({ ...stored, users: stored.users.filter((user) => user.id !== lost.id) }));
    await SftpUser.query(site.stack.ctx.db).patch({ status: 'revoked', revoked_at: new Date() }).where({ id: revokedMeanwhile.id });
    const restartedAt = new Date();
    await site.node.restartAgent();

    const reconcile = await until(
      async () =>
        (
          await Operation.query(site.stack.ctx.db)
            .where({ kind: 'node.reconcile', target_id: site.node.nodeId })
            .where('created_at', '>=', restartedAt)
            .whereIn('status', ['succeeded', 'failed'])
        )[0],
      'the node.reconcile operation to end',
      120_000,
      500,
    );
    expect(reconcile.status, JSON.stringify(reconcile.error)).toBe('succeeded');
    const logs = (await site.stack.client().get(`/v1/operations/${reconcile.id}`, site.bearer())).body;
    expect(reconcile.team_id).toBeNull(); // a platform operation: the team does not see it
    expect(logs.error?.code).toBe('NOT_FOUND');
    const lines = await site.stack.ctx.db('operation_logs').where({ operation_id: reconcile.id, step: 'sftp_users' }).pluck('line');
    expect(lines.join('\n')).toMatch(/\d+ SFTP users served, 1 removed/);

    const connection = (await site.stack.client().get(`${users()}/${lost.id}`, site.bearer())).body.data.connection;
    const back = await sftpBatch(loginOf({ ...lost, connection }, { password: lost.password! }), ['pwd'], work);
    expect(back.code, back.stderr).toBe(0);
    const refused = await sftpBatch(loginOf({ ...revokedMeanwhile, connection }, { password: revokedMeanwhile.password! }), ['pwd'], work);
    expect(refused.code).not.toBe(0);
    const after = JSON.parse(fs.readFileSync(usersFile, 'utf8')) as { users: Array<{ id: number }>; revoked: Array<{ id: number }> };
    expect(after.users.map((user) => user.id)).toContain(lost.id);
    expect(after.users.map((user) => user.id)).not.toContain(revokedMeanwhile.id);
    expect(after.revoked.map((user) => user.id)).toContain(revokedMeanwhile.id);
    // the command's stored copy keeps no hash once it ran
    const command = await site.stack.ctx.db('agent_commands').where({ operation_id: reconcile.id, kind: 'sftp.users.sync' }).first('payload');
    expect(JSON.stringify(command.payload)).not.toContain('$argon2id$');
  }, 300_000);
});

describe('SFTP users API refusals', () => {
  it('refuses bad usernames, short passwords, bad or weak keys and taken names (422, 409)', async () => {
    const client = site.stack.client();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: 'Root' }, 'username'],
      [{ username: 'ab' }, 'username'],
      [{ username: 'root' }, 'username'],
      [{ password: 'short' }, 'password'],
      [{ public_keys: ['ssh-ed25519 not-base64!'] }, 'public_keys.0'],
      [{ public_keys: ['ssh-dss AAAAB3NzaC1kc3MAAACBAP'] }, 'public_keys.0'],
      [{ password: 'long enough password', generate_password: true }, 'generate_password'],
    ];
    const weakRsa = path.join(work, 'id_rsa_1024');
    execFileSync('ssh-keygen', ['-q', '-t', 'rsa', '-b', '1024', '-N', '', '-f', weakRsa]);
    cases.push([{ public_keys: [fs.readFileSync(`${weakRsa}.pub`, 'utf8')] }, 'public_keys.0']);
    for (const [body, field] of cases) {
      const reply = await client.post(users(), body, site.bearer());
      expect([JSON.stringify(body), reply.status], JSON.stringify(reply.body)).toEqual([JSON.stringify(body), 422]);
      expect(JSON.stringify(reply.body.error)).toContain(field);
    }
    const first = await client.post(users(), { username: `taken-${randomBytes(3).toString('hex')}`, password: 'long enough password' }, site.bearer());
    expect(first.status).toBe(202);
    expect((await client.post(users(), { username: first.body.data.sftp_user.username, password: 'long enough password' }, site.bearer())).status).toBe(409);
    expect((await client.post(users('development'), {}, site.bearer())).status).toBe(404);
  });

  it("hides another team's users (404), shows them to a viewer, and asks for the sftp permissions (403)", async () => {
    const client = site.stack.client();
    const listed = await client.get(users(), site.bearer());
    const someone = listed.body.data[0].id as number;
    const stranger = await accessTokenOf(site.stack.client(), await createOwner(site.stack.ctx.db));
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    expect((await client.get(users(), as(stranger))).status).toBe(404);
    expect((await client.get(`${users()}/${someone}`, as(stranger))).status).toBe(404);
    expect((await client.post(users(), {}, as(stranger))).status).toBe(404);
    expect((await client.request('DELETE', `${users()}/${someone}`, as(stranger))).status).toBe(404);

    const team = { teamId: site.owner.teamId, teamName: site.owner.teamName };
    const viewer = await accessTokenOf(client, await addMember(site.stack.ctx.db, team, 'viewer'));
    // a viewer reads everything (names and hosts, never a password) and changes nothing
    const readOnly = await client.get(users(), as(viewer));
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.data.map((user: { id: number }) => user.id)).toContain(someone);
    const billing = await accessTokenOf(client, await addMember(site.stack.ctx.db, team, 'billing'));
    const unread = await client.get(users(), as(billing));
    expect([unread.status, unread.body.error?.details?.permission]).toEqual([403, 'sftp:read']);
    const creating = await client.post(users(), {}, as(viewer));
    expect([creating.status, creating.body.error?.details?.permission]).toEqual([403, 'sftp:create']);
    expect((await client.request('DELETE', `${users()}/${someone}`, as(viewer))).status).toBe(403);
    expect((await SftpUser.query(site.stack.ctx.db).findById(someone))!.status).not.toBe('revoked');
  });
});
