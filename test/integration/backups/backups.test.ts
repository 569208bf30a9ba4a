import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, EnvironmentBackupRepository, Operation } from '../../../shared/db/models.ts';
import { startDuePrunes } from '../../../shared/domains/backups/prune.ts';
import { QUICK_KEY_N } from '../../../shared/domains/backups/restic-quick-key.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { backUp, backupsPath } from '../../helpers/backups.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { docker, operationOutcome, type SiteNode } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import type { Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';
import { resticReader, type ResticReader } from '../../helpers/restic-reader.ts';
import { treeSnapshot } from '../../helpers/tree.ts';

/**
 * Backups on a real node: the site's database and files read into a restic snapshot in the node's
 * repository, checked by reading the snapshot back with restic itself; the plan's retention; a
 * storage failure that must fail the backup, never record it.
 */
let stack: Stack;
let node: SiteNode;
let owner: TestUser;
let token = '';
let siteId = 0;
let production: Environment;
let site: SiteOnNode;
/** restic against an environment's repository (production's unless named), a local directory on the node. */
let reader: ResticReader;

beforeAll(async () => {
  // a failing step is tried twice, 200 ms apart (the defaults, 5 tries from 2 s doubling, spent half a minute on the failure test)
  site = await startSiteOnNode('backups', { plan: { backups_manual_keep: 2 }, env: { OPERATION_ATTEMPTS: '2', OPERATION_RETRY_DELAY_MS: '200' } });
  ({ stack, node, owner, token, siteId, production } = site);
  // every environment's own repository, below the agent's data directory
  reader = resticReader(stack, node, () => production.id, {
    env: (environmentId) => ({ RESTIC_REPOSITORY: `/repos/${environmentId}` }),
    hostConfig: { Mounts: [{ Type: 'bind', Source: path.join(node.dataDir, 'backups/environments'), Target: '/repos' }] },
  });
}, 400_000);

afterAll(async () => {
  await reader?.remove();
  await site?.stop();
}, 60_000);

describe('backups of an environment', () => {
  it('backs up the database and the files into one snapshot that restic reads back byte for byte', async () => {
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    const marker = Buffer.from(`marker ${unique('m')}\n`);
    fs.writeFileSync(path.join(files, 'wp-content/uploads/marker.txt'), marker);
    await node.sql(`INSERT INTO ${production.db_name}.wp_options (option_name, option_value, autoload) VALUES ('berth_backup_marker', 'in the dump', 'no')`);

    const { reply, outcome } = await backUp(site, { note: 'before the theme update' });
    expect(reply.body.data.backup).toMatchObject({ kind: 'manual', status: 'pending', note: 'before the theme update', environment_id: production.id });
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(outcome.steps.map((step: { name: string }) => step.name)).toEqual(['repository', 'snapshot', 'retention']);
    const backup = (await stack.client().get(`${backupsPath(siteId)}/${reply.body.data.backup.id}`, site.bearer())).body.data;
    expect(backup).toMatchObject({ status: 'succeeded', error: null, snapshot_id: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(backup.file_count).toBeGreaterThan(1000);
    expect(backup.database_bytes).toBeGreaterThan(1000);
    expect(backup.size_bytes).toBeGreaterThan(backup.database_bytes);

    const snapshots = JSON.parse(await reader.run(['snapshots', '--json']));
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0].tags).toEqual(expect.arrayContaining([`backup-${backup.id}`, `env-${production.id}`, 'kind-manual']));
    expect(await reader.run(['dump', backup.snapshot_id, '/data/files/wp-content/uploads/marker.txt'])).toBe(marker.toString());
    expect(await reader.run(['dump', backup.snapshot_id, '/data/files/wp-config.php'])).toContain(production.db_name);
    const dump = await reader.run(['dump', backup.snapshot_id, '/tmp/berth-backup/database.sql']);
    expect(dump).toContain("'berth_backup_marker','in the dump'");
    // the throwaway container is gone
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=backup'] } })).toEqual([]);
    // the repository opens with one key, the quick one (restic read it above with the password alone)
    const keysDir = path.join(node.dataDir, `backups/environments/${production.id}/keys`);
    const keys = fs.readdirSync(keysDir).map((name) => JSON.parse(fs.readFileSync(path.join(keysDir, name), 'utf8')) as { kdf: string; N: number });
    expect(keys).toEqual([expect.objectContaining({ kdf: 'scrypt', N: QUICK_KEY_N })]);
    expect((await EnvironmentBackupRepository.query(stack.ctx.db).findById(production.id))!.quick_key_at).toBeInstanceOf(Date);
  }, 300_000);

  it("keeps the plan's number of manual backups: the oldest beyond it expires and its snapshot is forgotten", async () => {
    await backUp(site);
    await backUp(site);
    const listed = (await stack.client().get(backupsPath(siteId), site.bearer())).body;
    expect(listed.pagination.total).toBe(3);
    expect(listed.data.map((backup: { status: string }) => backup.status)).toEqual(['succeeded', 'succeeded', 'expired']);
    const kept = JSON.parse(await reader.run(['snapshots', '--json']))
      .map((snapshot: { id: string }) => snapshot.id)
      .sort();
    expect(kept).toEqual(
      listed.data
        .slice(0, 2)
        .map((backup: { snapshot_id: string }) => backup.snapshot_id)
        .sort(),
    );
  }, 300_000);

  it('leaves the expired data to the prune sweep: its backup.prune removes it from the repository, and a sweep finds nothing more to prune', async () => {
    const marked = (await EnvironmentBackupRepository.query(stack.ctx.db).findById(production.id))!;
    expect(marked.forgotten_at).toBeInstanceOf(Date);
    expect(marked.pruned_at).toBeNull();
    // the backups only forgot: the expired snapshot's own data is still in the repository
    const toPrune = async (policy: string[]) => {
      const said = await reader.run(['prune', '--dry-run', '--no-lock', ...policy]);
      return Number(/total prune:\s+(\d+) blobs/.exec(said)?.[1] ?? NaN);
    };
    expect(await toPrune(['--max-unused', '0'])).toBeGreaterThan(0);
    const snapshots = await reader.run(['snapshots', '--json']);

    expect(await startDuePrunes(stack.ctx, { intervalSeconds: 86_400 })).toBe(1);
    const operation = await until(
      async () => {
        const found = await Operation.query(stack.ctx.db).findOne({ kind: 'backup.prune', target_type: 'environment', target_id: String(production.id) });
        return found && ['succeeded', 'failed', 'cancelled'].includes(found.status) ? found : null;
      },
      'the backup.prune operation to end',
      240_000,
    );
    expect(operation, JSON.stringify(operation.error)).toMatchObject({ status: 'succeeded', team_id: null });
    const pruned = (await EnvironmentBackupRepository.query(stack.ctx.db).findById(production.id))!;
    expect(pruned).toMatchObject({ forgotten_at: null, pruned_at: expect.any(Date) });
    // pruned as restic's policy says (packs more than 5 % unused repacked): a prune now would do nothing
    expect(await toPrune([])).toBe(0);
    expect(await reader.run(['snapshots', '--json'])).toBe(snapshots);
    await reader.run(['check', '--no-lock']);
    // nothing forgotten since: the next sweep starts none, and the prune container is gone
    expect(await startDuePrunes(stack.ctx, { intervalSeconds: 0 })).toBe(0);
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=backup'] } })).toEqual([]);
  }, 300_000);

  it('fails, naming the step, when the repository cannot be written, and records no snapshot', async () => {
    // the snapshot's own file is the last thing restic writes: refused, after its data went in
    const snapshotsDir = path.join(node.dataDir, `backups/environments/${production.id}/snapshots`);
    const before = await reader.run(['snapshots', '--json']);
    fs.chmodSync(snapshotsDir, 0o500); // root in the backup container has no DAC_OVERRIDE: this holds it
    try {
      const { reply, outcome } = await backUp(site);
      expect(outcome).toMatchObject({ status: 'failed', error: { step: 'snapshot' } });
      const backup = (await stack.client().get(`${backupsPath(siteId)}/${reply.body.data.backup.id}`, site.bearer())).body.data;
      expect(backup).toMatchObject({ status: 'failed', snapshot_id: null });
      expect(backup.error).toMatch(/^snapshot: the snapshot failed \(exit \d+\): .*permission denied/i);
    } finally {
      fs.chmodSync(snapshotsDir, 0o700);
    }
    expect(await reader.run(['snapshots', '--json'])).toBe(before);
  }, 300_000);

  it('restores a backup beside the site, checks it, swaps it in: files byte-equal, rows equal, the target backed up first, nothing left over', async () => {
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    const posts = () => node.sql(`SELECT ID, post_title, post_status FROM ${production.db_name}.wp_posts ORDER BY ID`);
    const { reply } = await backUp(site, { note: 'known good' });
    const restorable = reply.body.data.backup.id as string;
    const filesThen = treeSnapshot(files);
    const postsThen = await posts();

    fs.rmSync(path.join(files, 'wp-content/uploads/marker.txt'));
    fs.writeFileSync(path.join(files, 'after.txt'), 'written after the backup');
    fs.chownSync(path.join(files, 'after.txt'), 33, 33);
    await node.sql(
      `UPDATE ${production.db_name}.wp_options SET option_value = 'changed' WHERE option_name = 'berth_backup_marker'; DELETE FROM ${production.db_name}.wp_posts`,
    );

    const restore = await stack.client().post(`${backupsPath(siteId)}/${restorable}/restore`, {}, site.bearer());
    expect(restore.status, JSON.stringify(restore.body)).toBe(202);
    expect(restore.body.data.safety_backup).toMatchObject({ kind: 'pre_restore', status: 'pending' });
    const outcome = await operationOutcome(stack, token, restore.body.data.operation.id);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(outcome.steps.map((step: { name: string }) => step.name)).toEqual([
      'safety_repository',
      'safety_snapshot',
      'restore_files',
      'restore_database',
      'verify_restore',
      'swap',
      'configure',
      'rewrite_urls',
      'inventory',
      'verify',
      'purge_cache',
      'cleanup',
    ]);

    expect(treeSnapshot(files)).toEqual(filesThen);
    expect(await posts()).toEqual(postsThen);
    expect(await node.sql(`SELECT option_value FROM ${production.db_name}.wp_options WHERE option_name = 'berth_backup_marker'`)).toEqual(['in the dump']);
    expect((await node.throughEdge(`http://${production.domain}/`)).status).toBe(200);

    // the state before the restore is a backup of its own
    const safety = (await stack.client().get(`${backupsPath(siteId)}/${restore.body.data.safety_backup.id}`, site.bearer())).body.data;
    expect(safety).toMatchObject({ kind: 'pre_restore', status: 'succeeded' });
    expect(await reader.run(['dump', safety.snapshot_id, '/data/files/after.txt'])).toBe('written after the backup');
    // nothing left beside the site: no restore or replaced directory, no scratch database, no container
    expect(fs.readdirSync(path.dirname(files)).sort()).toEqual(['files', 'run', 'work']);
    expect(await node.sql(`SHOW DATABASES LIKE '${production.db_name}\\_%'`)).toEqual([]);
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=restore'] } })).toEqual([]);
  }, 400_000);

  it("restores a backup into a new site: its own address, database and files, the backup's content byte-equal, the site backed up untouched", async () => {
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    await node.sql(`UPDATE ${production.db_name}.wp_options SET option_value = 'for the new site' WHERE option_name = 'berth_backup_marker'`);
    const { reply } = await backUp(site, { note: 'seed of a new site' });
    expect((await stack.client().get(`${backupsPath(siteId)}/${reply.body.data.backup.id}`, site.bearer())).body.data.host).toBe(production.domain);
    const filesThen = treeSnapshot(files);
    const postsThen = await node.sql(`SELECT ID, post_title, post_status FROM ${production.db_name}.wp_posts ORDER BY ID`);
    // the site backed up moves on meanwhile; the new site must hold the backup, not today's site
    fs.writeFileSync(path.join(files, 'later.txt'), 'after the backup');
    fs.chownSync(path.join(files, 'later.txt'), 33, 33);

    const restore = await stack
      .client()
      .post(`${backupsPath(siteId)}/${reply.body.data.backup.id}/restore`, { new_site: { name: 'Restored copy' } }, site.bearer());
    expect(restore.status, JSON.stringify(restore.body)).toBe(202);
    expect(restore.body.data).toMatchObject({
      safety_backup: null,
      site: { name: 'Restored copy', slug: 'restored-copy', status: 'creating' },
      operation: { kind: 'site.restore' },
    });
    const outcome = await operationOutcome(stack, token, restore.body.data.operation.id);
    expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');

    const copy = (await Environment.query(stack.ctx.db).findOne({ site_id: restore.body.data.site.id, kind: 'production' }))!;
    expect(copy).toMatchObject({ status: 'active', node_id: production.node_id, php_version: production.php_version, table_prefix: production.table_prefix });
    expect(copy.db_name).not.toBe(production.db_name);
    const copyFiles = path.join(node.dataDir, environmentLayout(copy).filesDir);
    const withoutConfig = (tree: Record<string, unknown>) => Object.fromEntries(Object.entries(tree).filter(([name]) => name !== 'wp-config.php'));
    expect(withoutConfig(treeSnapshot(copyFiles))).toEqual(withoutConfig(filesThen));
    expect(fs.readFileSync(path.join(copyFiles, 'wp-config.php'), 'utf8')).toContain(`'${copy.db_name}'`);
    expect(await node.sql(`SELECT ID, post_title, post_status FROM ${copy.db_name}.wp_posts ORDER BY ID`)).toEqual(postsThen);
    expect(
      await node.sql(`SELECT option_value FROM ${copy.db_name}.wp_options WHERE option_name IN ('berth_backup_marker', 'siteurl') ORDER BY option_name`),
    ).toEqual(['for the new site', `http://${copy.domain}`]);
    const front = await node.throughEdge(`http://${copy.domain}/`);
    expect(front.status).toBe(200);
    expect(front.body).toContain(copy.domain);
    // the site backed up is as it was, and nothing of the restore is left beside the new one
    expect(fs.readFileSync(path.join(files, 'later.txt'), 'utf8')).toBe('after the backup');
    expect(await node.sql(`SELECT option_value FROM ${production.db_name}.wp_options WHERE option_name = 'siteurl'`)).toEqual([`http://${production.domain}`]);
    expect(fs.readdirSync(path.dirname(copyFiles)).sort()).toEqual(['files', 'run', 'work']);
    expect(await node.sql(`SHOW DATABASES LIKE '${copy.db_name}\\_%'`)).toEqual([]);
    fs.rmSync(path.join(files, 'later.txt'));
  }, 400_000);

  it('checks a restore into a new site like a new site: `sites:create` (403), the plan (402), a taken slug (409), not both target and new_site (422)', async () => {
    const listed = (await stack.client().get(`${backupsPath(siteId)}?page_size=100`, site.bearer())).body.data as Array<{ id: string; status: string }>;
    const good = listed.find((backup) => backup.status === 'succeeded')!.id;
    const restore = (body: unknown, as = token) => stack.client().post(`${backupsPath(siteId)}/${good}/restore`, body, site.bearer(as));
    const scoped = await stack.client().post('/v1/api-tokens', { name: 'restores only', permissions: ['backups:*', 'sites:read'] }, site.bearer());
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(201);
    const denied = await restore({ new_site: { name: 'Not allowed' } }, scoped.body.data.token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'sites:create' });

    expect((await restore({ new_site: { name: 'Restored copy' } })).status).toBe(409);
    const both = await restore({ target: 'production', new_site: { name: 'Both' } });
    expect(both.status).toBe(422);
    expect(both.body.error.details.fields).toEqual([{ field: 'new_site', message: expect.stringContaining('not both') }]);
    expect((await restore({ new_site: { name: 'x' } })).status).toBe(422);

    const sites = Number((await stack.ctx.db('sites').where({ team_id: owner.teamId }).count({ n: '*' }).first())!.n);
    await stack.ctx.db('team_entitlements').where({ team_id: owner.teamId }).update({ max_sites: sites });
    const full = await restore({ new_site: { name: 'One too many' } });
    expect(full.status).toBe(402);
    await stack.ctx.db('team_entitlements').where({ team_id: owner.teamId }).update({ max_sites: 10 });
    expect(Number((await stack.ctx.db('sites').where({ team_id: owner.teamId }).count({ n: '*' }).first())!.n)).toBe(sites);
  });

  // another team's backups, through either team's site path: isolation/backups-cross-team.test.ts
  it('refuses to restore a failed or unknown backup (409, 404), onto an environment the site lacks (404) or an unknown target (422)', async () => {
    const listed = (await stack.client().get(`${backupsPath(siteId)}?page_size=100`, site.bearer())).body.data as Array<{ id: string; status: string }>;
    const failed = listed.find((backup) => backup.status === 'failed')!;
    expect((await stack.client().post(`${backupsPath(siteId)}/${failed.id}/restore`, {}, site.bearer())).status).toBe(409);
    expect((await stack.client().post(`${backupsPath(siteId)}/00000000-0000-4000-8000-000000000000/restore`, {}, site.bearer())).status).toBe(404);
    expect((await stack.client().post(`${backupsPath(siteId)}/${listed[0]!.id}/restore`, { target: 'staging' }, site.bearer())).status).toBe(404);
    expect((await stack.client().post(`${backupsPath(siteId)}/${listed[0]!.id}/restore`, { target: 'nowhere' }, site.bearer())).status).toBe(422);
  });

  it('deletes a backup: one without a snapshot at once (204), one with through an operation that forgets and prunes its snapshot', async () => {
    const listed = (await stack.client().get(`${backupsPath(siteId)}?page_size=100`, site.bearer())).body.data as Array<{
      id: string;
      status: string;
      snapshot_id: string | null;
    }>;
    const failed = listed.find((backup) => backup.status === 'failed')!;
    expect((await stack.client().request('DELETE', `${backupsPath(siteId)}/${failed.id}`, site.bearer())).status).toBe(204);
    expect((await stack.client().get(`${backupsPath(siteId)}/${failed.id}`, site.bearer())).status).toBe(404);

    const kept = listed.find((backup) => backup.status === 'succeeded')!;
    const reply = await stack.client().request('DELETE', `${backupsPath(siteId)}/${kept.id}`, site.bearer());
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const outcome = await operationOutcome(stack, token, reply.body.data.operation.id);
    expect(outcome).toMatchObject({ kind: 'backup.delete', status: 'succeeded', result: { deleted: true, forgotten: true } });
    expect((await stack.client().get(`${backupsPath(siteId)}/${kept.id}`, site.bearer())).status).toBe(404);
    const ids = JSON.parse(await reader.run(['snapshots', '--json'])).map((snapshot: { id: string }) => snapshot.id);
    expect(ids).not.toContain(kept.snapshot_id);
    expect(ids.length).toBeGreaterThan(0);
  }, 300_000);

  it("forgets an environment's snapshots when the environment is deleted", async () => {
    const made = await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, site.bearer());
    expect((await operationOutcome(stack, token, made.body.data.operation.id)).status).toBe('succeeded');
    const staging = (await Environment.query(stack.ctx.db).findOne({ site_id: siteId, kind: 'staging' }))!;
    const backup = await stack.client().post(`/v1/sites/${siteId}/environments/staging/backups`, {}, site.bearer());
    expect((await operationOutcome(stack, token, backup.body.data.operation.id)).status).toBe('succeeded');
    // staging's snapshot is in staging's own repository, not production's
    const snapshotsOf = async (environmentId: number) => JSON.parse(await reader.run(['snapshots', '--json'], environmentId)) as Array<{ tags: string[] }>;
    expect((await snapshotsOf(staging.id)).map((snapshot) => snapshot.tags)).toEqual([expect.arrayContaining([`env-${staging.id}`])]);
    const production_ = await snapshotsOf(production.id);
    expect(production_.length).toBeGreaterThan(0);
    expect(production_.every((snapshot) => snapshot.tags.includes(`env-${production.id}`))).toBe(true);

    const deleted = await stack.client().request('DELETE', `/v1/sites/${siteId}/environments/staging`, site.bearer());
    const outcome = await operationOutcome(stack, token, deleted.body.data.operation.id);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(await snapshotsOf(staging.id)).toEqual([]);
    expect(await snapshotsOf(production.id)).toHaveLength(production_.length);
  }, 400_000);

  it('refuses another team (404), unknown fields (422) and a malformed backup id (404)', async () => {
    const stranger = await createOwner(stack.ctx.db);
    const strangerToken = await accessTokenOf(stack.client(), stranger);
    expect((await stack.client().get(backupsPath(siteId), { headers: { authorization: `Bearer ${strangerToken}` } })).status).toBe(404);
    expect((await stack.client().post(backupsPath(siteId), {}, { headers: { authorization: `Bearer ${strangerToken}` } })).status).toBe(404);
    expect((await stack.client().post(backupsPath(siteId), { note: 'x', when: 'now' }, site.bearer())).status).toBe(422);
    expect((await stack.client().get(`${backupsPath(siteId)}/not-a-uuid`, site.bearer())).status).toBe(404);
  });
});
