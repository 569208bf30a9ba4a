/**
 * What the SFTP server holds a client to, from the client's side (the real OpenSSH sftp, typed by
 * sshpass): each wrong password is refused after a delay that doubles (AGENT_SFTP_FAILURE_DELAY_MS,
 * 100 ms here: 100, 200, 400, 800, 1600 ms), and a revoked user's open session is cut. The baseline,
 * measured in the same run, is a login with the right password running `pwd` (the median of 5): each
 * refusal is shown as a multiple of it and as the difference (a refusal skips the session's start, so the
 * first, held 100 ms, can be quicker than a login). These figures were timed assertions in
 * test/integration/sftp/sftp.test.ts (the 5th refusal over 1 s slower than the 1st; the session cut
 * within 5 s of the revoke's answer). The whole stack runs here (API, workers, a real agent, podman).
 *   npm run bench -- test/bench/sftp-refusals.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { accessTokenOf, createOwner, unique } from '../helpers/factories.ts';
import { median } from '../helpers/measure.ts';
import { wordpressImages } from '../helpers/runtime-peers.ts';
import { sftpBatch, sftpSession, type SftpLogin } from '../helpers/sftp-client.ts';
import { operationSucceeded, siteStackEnv, startSiteNode, type SiteNode } from '../helpers/site-node.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';
import { reportFigure } from './report.ts';

const FAILURE_DELAY_MS = 100;
const setup = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(setup);
await setup.destroy();

let token = '';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sftp-bench-'));
const stack = await startStack({ env: siteStackEnv() });
let node: SiteNode | undefined;
try {
  node = await startSiteNode(stack, 'sftp-bench', { agentEnv: { AGENT_SFTP_FAILURE_DELAY_MS: String(FAILURE_DELAY_MS), AGENT_SFTP_LOCKOUT_SECONDS: '60' } });
  const owner = await createOwner(stack.ctx.db);
  await stack.ctx.db('team_entitlements').insert({ team_id: owner.teamId, plan: 'bench', max_sites: 10, max_disk_bytes: 100 * 1024 ** 3 });
  token = await accessTokenOf(stack.client(), owner);
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const made = await stack.client().post(
    '/v1/sites',
    {
      name: unique('sftp-bench'),
      region: node.region,
      php_version: wordpressImages().php[0]!.version,
      wordpress: { title: 'SFTP bench', admin_user: 'admin', admin_email: 'admin@example.test' },
    },
    auth,
  );
  await operationSucceeded(stack, token, made, { timeoutMs: 600_000 });
  const users = `/v1/sites/${made.body.data.site.id}/environments/production/sftp-users`;

  /** A new SFTP user with a generated password, and a login for it pinned to the server's host key. */
  const newUser = async (): Promise<{ id: number; login: SftpLogin }> => {
    const reply = await stack.client().post(users, {}, auth);
    await operationSucceeded(stack, token, reply, { timeoutMs: 600_000 });
    const { sftp_user: user, password } = reply.body.data;
    const knownHosts = path.join(work, `known_hosts-${user.username}`);
    fs.writeFileSync(knownHosts, `[${user.connection.host}]:${user.connection.port} ${user.connection.host_key}\n`);
    return { id: user.id, login: { host: user.connection.host, port: user.connection.port, username: user.username, knownHosts, password } };
  };

  const user = await newUser();
  await sftpBatch(user.login, ['pwd'], work); // warm up
  const logins: number[] = [];
  for (let round = 0; round < 5; round++) logins.push(await timedLogin(user.login, 'logged in'));
  const baseline = median(logins);

  const refusals: number[] = [];
  for (let attempt = 0; attempt < 5; attempt++) refusals.push(await timedLogin({ ...user.login, password: 'a wrong password' }, 'refused'));

  // a revoked user's open session: from the DELETE's answer until ssh reports the connection closed
  const doomed = await newUser();
  const open = sftpSession(doomed.login, work);
  open.send('pwd');
  while (!open.output().includes('Remote working directory')) await new Promise((resolve) => setTimeout(resolve, 10));
  const revoked = await stack.client().request('DELETE', `${users}/${doomed.id}`, auth);
  if (revoked.status !== 202) throw new Error(`the revoke answered ${revoked.status}: ${JSON.stringify(revoked.body)}`);
  const answeredAt = performance.now();
  while (!/Connection closed|Received disconnect/.test(open.output()) && open.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
  const cutMs = performance.now() - answeredAt;
  open.child.stdin!.end();
  open.child.kill('SIGTERM');
  await operationSucceeded(stack, token, revoked, { timeoutMs: 600_000 });

  console.log(`\nSFTP refusals, the real sftp client on loopback, AGENT_SFTP_FAILURE_DELAY_MS=${FAILURE_DELAY_MS}`);
  console.log(`  baseline: a login with the right password and \`pwd\`, median of 5: ${baseline.toFixed(0)} ms`);
  refusals.forEach((ms, index) => {
    const held = FAILURE_DELAY_MS * 2 ** index;
    console.log(
      `  wrong password #${index + 1} (held ${held} ms): ${ms.toFixed(0)} ms, ${ms - baseline >= 0 ? '+' : ''}${(ms - baseline).toFixed(0)} ms against the baseline, ${(ms / baseline).toFixed(2)}x`,
    );
  });
  console.log(`  the 5th refusal against the 1st: ${(refusals[4]! - refusals[0]!).toFixed(0)} ms slower`);
  console.log(`  revoked user's open session cut ${cutMs.toFixed(0)} ms after the revoke's answer (${(cutMs / baseline).toFixed(2)}x the baseline)`);
  // the goals the timed assertions of test/integration/sftp/sftp.test.ts had
  const floorWhat = 'login with the right password and pwd';
  reportFigure({
    name: 'sftp 5th wrong password against the 1st',
    measured: refusals[4]! - refusals[0]!,
    unit: 'ms',
    floor: baseline,
    floorWhat,
    goal: { measuredAtLeast: 1000 },
  });
  reportFigure({
    name: "sftp revoked user's session cut after the revoke",
    measured: cutMs,
    unit: 'ms',
    floor: baseline,
    floorWhat,
    goal: { measuredAtMost: 5000 },
  });
} finally {
  await node?.remove();
  await stack.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

/** Milliseconds of one sftp login running `pwd`, which must end as `outcome` says. */
async function timedLogin(login: SftpLogin, outcome: 'logged in' | 'refused'): Promise<number> {
  const run = await sftpBatch(login, ['pwd'], work);
  if (outcome === 'logged in' ? run.code !== 0 : run.code === 0) throw new Error(`sftp exited ${run.code}: ${run.stderr}`);
  return run.ms;
}
