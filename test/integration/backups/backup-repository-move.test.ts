import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal, unseal } from '../../../shared/crypto/sealed.ts';
import { EnvironmentBackupRepository } from '../../../shared/db/models.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { backupsPath, downloadAndUnpack } from '../../helpers/backups.ts';
import { unique } from '../../helpers/factories.ts';
import { wordpressImages } from '../../helpers/runtime-peers.ts';
import { docker, execChecked, execResult, operationOutcome } from '../../helpers/site-node.ts';
import { startTwoSites, type TenantSite, type TwoSites } from '../../helpers/two-sites.ts';

/**
 * Before issue 19 a node kept one restic repository for every environment, under one password. This
 * builds such a repository the way that code did (same layout, tags and paths) with a backup of each
 * of two teams' sites, then checks that each environment's next backup moves its own snapshots into
 * its own repository (the rows pointed at the copies, the archives unchanged), that the other team's
 * snapshot stays readable until its turn, that the shared repository is removed once empty, and that
 * one environment's password opens no other's repository.
 */
let sites: TwoSites;
/** The test's own containers of the backup image: the node's backups directory at /backups, and a site's files at /data/files. */
const tools: Record<'a' | 'b', string> = { a: '', b: '' };
let legacyPassword = '';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-backup-move-'));
const markers = { a: `marker a ${randomBytes(6).toString('hex')}\n`, b: `marker b ${randomBytes(6).toString('hex')}\n` };
const legacyBackups: Record<'a' | 'b', string> = { a: randomUUID(), b: randomUUID() };

/** restic in the test's own container of the backup image, with the node's backups directory at /backups. */
const restic = (password: string, repository: string, args: string[]) =>
  execResult(tools.a, ['restic', '-r', repository, ...args], { RESTIC_PASSWORD: password, RESTIC_CACHE_DIR: '/tmp/cache' });

/** The backup's download, as its team's owner gets it, unpacked into a new directory. */
async function download(who: 'a' | 'b', backupId: string): Promise<string> {
  return (await downloadAndUnpack({ stack: sites.stack, siteId: sites[who].id, bearer: () => sites.bearer(who) }, backupId, scratch)).dir;
}

beforeAll(async () => {
  sites = await startTwoSites('backup-move');
  const { stack, node } = sites;
  // the old layout: one repository per node at backups/restic, its password sealed in backup_repositories
  legacyPassword = randomBytes(32).toString('base64url');
  await stack.ctx
    .db('backup_repositories')
    .insert({ node_id: node.nodeId, password_sealed: seal(stack.ctx.config.secrets.secretKey, legacyPassword), initialized_at: new Date() });
  fs.mkdirSync(path.join(node.dataDir, 'backups/restic'), { recursive: true, mode: 0o700 });
  for (const who of ['a', 'b'] as const) {
    tools[who] = `berth-test-move-${who}-${unique('t').slice(-8)}`;
    const mounts = [
      { Type: 'bind', Source: path.join(node.dataDir, 'backups'), Target: '/backups', ReadOnly: false },
      { Type: 'bind', Source: path.join(node.dataDir, sites[who].filesDir), Target: '/data/files', ReadOnly: true },
    ] as Array<{ Type: 'bind'; Source: string; Target: string; ReadOnly: boolean }>;
    await (
      await docker.createContainer({ name: tools[who], Image: wordpressImages().backup, Labels: { 'berth.node': node.nodeId }, HostConfig: { Mounts: mounts } })
    ).start();
  }
  expect((await restic(legacyPassword, '/backups/restic', ['init'])).exit_code).toBe(0);
  for (const who of ['a', 'b'] as const) {
    const { environment } = sites[who];
    fs.writeFileSync(path.join(node.dataDir, sites[who].filesDir, 'marker.txt'), markers[who]);
    // a snapshot as the old SNAPSHOT_SCRIPT took it: the files at /data/files and the dump beside them
    await execChecked(tools[who], ['sh', '-c', `mkdir -p /tmp/berth-backup && echo "-- dump of ${who}" > /tmp/berth-backup/database.sql`]);
    const out = await execChecked(
      tools[who],
      [
        'restic',
        '-r',
        '/backups/restic',
        'backup',
        '--json',
        '--host',
        `env-${environment.id}`,
        '--tag',
        'berth',
        '--tag',
        `env-${environment.id}`,
        '--tag',
        'kind-manual',
        '--tag',
        `backup-${legacyBackups[who]}`,
        '/data/files',
        '/tmp/berth-backup/database.sql',
      ],
      { RESTIC_PASSWORD: legacyPassword, RESTIC_CACHE_DIR: '/tmp/cache' },
    );
    const summary = JSON.parse(
      out
        .trim()
        .split('\n')
        .filter((line) => line.includes('"summary"'))
        .at(-1)!,
    );
    await stack.ctx.db('backups').insert({
      id: legacyBackups[who],
      team_id: environment.team_id,
      site_id: environment.site_id,
      environment_id: environment.id,
      node_id: node.nodeId,
      kind: 'manual',
      status: 'succeeded',
      snapshot_id: summary.snapshot_id,
      repository: 'node',
      host: sites[who].domain,
      finished_at: new Date(),
    });
  }
}, 600_000);

afterAll(async () => {
  for (const name of Object.values(tools))
    if (name)
      await docker
        .getContainer(name)
        .remove({ force: true })
        .catch(() => undefined);
  await sites?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}, 120_000);

describe("backups taken into the node's shared repository before issue 19", () => {
  it("move into each environment's own repository on its next backup, stay readable meanwhile, and the shared one goes once empty", async () => {
    const { stack, node } = sites;
    const row = (id: string) => stack.ctx.db('backups').where({ id }).first();
    const before = { b: await row(legacyBackups.b) };

    // A's next backup moves A's snapshot; B's stays where it was
    const reply = await stack.client().post(backupsPath(sites.a.id), {}, sites.bearer('a'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const tokenA = sites.token('a');
    const outcome = await operationOutcome(stack, tokenA, reply.body.data.operation.id);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    // the operation's own log (the answer shows its last 50 lines only; the agent's output comes after)
    const logged = await stack.ctx.db('operation_logs').where({ operation_id: outcome.id, step: 'repository' }).pluck('line');
    expect(logged.join('\n')).toMatch(/1 earlier backup moved from the node's shared repository/);
    const movedA = await row(legacyBackups.a);
    expect(movedA).toMatchObject({ repository: 'environment', status: 'succeeded' });
    expect(movedA.snapshot_id).toMatch(/^[0-9a-f]{64}$/);
    expect(await row(legacyBackups.b)).toMatchObject({ repository: 'node', snapshot_id: before.b.snapshot_id });

    // the shared repository no longer holds A's snapshot; it still holds B's
    const legacyLeft = JSON.parse((await restic(legacyPassword, '/backups/restic', ['snapshots', '--json'])).stdout) as Array<{ tags: string[] }>;
    expect(legacyLeft.map((snapshot) => snapshot.tags)).toEqual([expect.arrayContaining([`backup-${legacyBackups.b}`])]);

    // both old backups download as they were taken: A's from its own repository, B's from the shared one
    for (const who of ['a', 'b'] as const) {
      const dir = await download(who, legacyBackups[who]);
      expect(fs.readFileSync(path.join(dir, 'data/files/marker.txt'), 'utf8')).toBe(markers[who]);
      expect(fs.readFileSync(path.join(dir, 'tmp/berth-backup/database.sql'), 'utf8')).toBe(`-- dump of ${who}\n`);
    }

    // B's next backup moves B's; the shared repository is then empty: removed, its password forgotten
    const replyB = await stack.client().post(backupsPath(sites.b.id), {}, sites.bearer('b'));
    const tokenB = sites.token('b');
    expect((await operationOutcome(stack, tokenB, replyB.body.data.operation.id)).status).toBe('succeeded');
    expect(await row(legacyBackups.b)).toMatchObject({ repository: 'environment' });
    expect(fs.existsSync(path.join(node.dataDir, 'backups/restic'))).toBe(false);
    expect(await stack.ctx.db('backup_repositories').where({ node_id: node.nodeId }).first()).toBeUndefined();
    const dirB = await download('b', legacyBackups.b);
    expect(fs.readFileSync(path.join(dirB, 'data/files/marker.txt'), 'utf8')).toBe(markers.b);

    // one environment's password opens its own repository and no other's
    const passwordOf = async (site: TenantSite) =>
      unseal(stack.ctx.config.secrets.secretKey, (await EnvironmentBackupRepository.query(stack.ctx.db).findById(site.environment.id))!.password_sealed);
    const [passwordA, passwordB] = [await passwordOf(sites.a), await passwordOf(sites.b)];
    expect(passwordA).not.toBe(passwordB);
    const repositoryOf = (site: TenantSite) => `/backups/environments/${site.environment.id}`;
    const own = JSON.parse((await restic(passwordA, repositoryOf(sites.a), ['snapshots', '--json'])).stdout) as Array<{ tags: string[] }>;
    expect(own.length).toBe(2);
    expect(own.every((snapshot) => snapshot.tags.includes(`env-${sites.a.environment.id}`))).toBe(true);
    const across = await restic(passwordA, repositoryOf(sites.b), ['snapshots', '--json']);
    expect(across.exit_code).not.toBe(0);
    expect(across.stderr).toMatch(/wrong password|no key found/i);
    expect(environmentLayout(sites.a.environment).filesDir).not.toBe(environmentLayout(sites.b.environment).filesDir);
  }, 900_000);
});
