import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { backupsPath } from '../../helpers/backups.ts';
import { execChecked, execResult, operationOutcome } from '../../helpers/site-node.ts';
import { startTwoSites, type TwoSites } from '../../helpers/two-sites.ts';

/**
 * Another team's backup, asked for by its id: two real teams, each with its own site on one real
 * node; the victim (B) has a succeeded backup. The attacker (A) knows its id and tries everything a
 * backup id opens, through its own site's path (where the id would be taken as one of its own
 * backups, or restored onto its own site or into a new site of its own) and through the victim's
 * site's path. Every call is a 404, and the state shows that nothing happened: no operation, no
 * backup row, no site, no export command. The victim's own owner then downloads and restores the
 * same backup (the refusals were about the caller, not the backup). API-level only: nothing here
 * depends on where or how the node keeps its repositories.
 */
let sites: TwoSites;
let victimBackup = '';
/** A file the victim writes after the backup: its restore must take it away. */
const LATER_FILE = `${WORDPRESS_RUNTIME.docroot}/written-after-the-backup.txt`;

/** What an attack could have changed, as rows: both teams' operations, backups and sites, the node's export commands. */
async function state() {
  const db = sites.stack.ctx.db;
  const teams = [sites.owners.a.teamId, sites.owners.b.teamId];
  return {
    operations: await db('operations').whereIn('team_id', teams).orderBy('id').select('id', 'kind', 'status', 'input'),
    backups: await db('backups').whereIn('team_id', teams).orderBy('id').select('*'),
    sites: await db('sites').whereIn('team_id', teams).orderBy('id').select('id', 'team_id', 'name', 'status'),
    exports: await db('agent_commands').where({ node_id: sites.node.nodeId, kind: 'stream.upload' }).orderBy('id').pluck('id'),
  };
}

/** The operations that name the backup (as the one it makes, restores or deletes). */
async function operationsNaming(backupId: string) {
  return sites.stack.ctx
    .db('operations')
    .whereRaw("input->>'backup_id' = ? OR input->>'restore_backup_id' = ?", [backupId, backupId])
    .orderBy('created_at')
    .select('kind', 'team_id');
}

beforeAll(async () => {
  sites = await startTwoSites('backups-cross-team');
  const made = await sites.stack.client().post(backupsPath(sites.b.id), { note: "the victim's" }, sites.bearer('b'));
  expect(made.status, JSON.stringify(made.body)).toBe(202);
  const outcome = await operationOutcome(sites.stack, sites.token('b'), made.body.data.operation.id);
  expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
  victimBackup = made.body.data.backup.id as string;
}, 900_000);

afterAll(async () => {
  await sites?.stop();
}, 120_000);

describe("another team's backup, by its id", () => {
  it("answers the attacker 404 for read, restore (plain, with target, with new_site), download and delete, through its own site's path and the victim's, and nothing happens", async () => {
    const { stack, a, b } = sites;
    const client = stack.client();
    // the set-up is what the test claims: two teams, two sites on one node, the victim's backup succeeded
    expect(sites.owners.a.teamId).not.toBe(sites.owners.b.teamId);
    expect(a.environment.node_id).toBe(b.environment.node_id);
    const victims = await client.get(`${backupsPath(b.id)}/${victimBackup}`, sites.bearer('b'));
    expect(victims.body.data).toMatchObject({ id: victimBackup, status: 'succeeded', snapshot_id: expect.any(String) });
    // the attacker's own list does not hold it
    const own = await client.get(backupsPath(a.id), sites.bearer('a'));
    expect(own.status).toBe(200);
    expect(own.body.data.map((backup: { id: string }) => backup.id)).not.toContain(victimBackup);
    const before = await state();
    expect(await operationsNaming(victimBackup)).toEqual([{ kind: 'backup.create', team_id: sites.owners.b.teamId }]);

    const tries: Array<[string, string, unknown]> = [];
    for (const site of [a.id, b.id]) {
      const backup = `${backupsPath(site)}/${victimBackup}`;
      tries.push(
        ['GET', backup, undefined],
        ['POST', `${backup}/restore`, {}],
        ['POST', `${backup}/restore`, { target: 'production' }],
        ['POST', `${backup}/restore`, { new_site: { name: 'Stolen copy' } }],
        ['GET', `${backup}/download`, undefined],
        ['DELETE', backup, undefined],
      );
    }
    tries.push(['GET', backupsPath(b.id), undefined]);
    for (const [method, path, json] of tries) {
      const reply = await client.request(method, path, { ...sites.bearer('a'), ...(json === undefined ? {} : { json }) });
      expect({ status: reply.status, code: reply.body?.error?.code }, `${method} ${path} ${JSON.stringify(json ?? '')}`).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }

    // nothing happened: no operation, no safety backup, no new site, no export asked of the node;
    // the victim's backup row is as it was, and it still names its snapshot
    const after = await state();
    expect(after).toEqual(before);
    expect(after.sites.filter((site: { name: string }) => site.name === 'Stolen copy')).toEqual([]);
    expect(await operationsNaming(victimBackup)).toEqual([{ kind: 'backup.create', team_id: sites.owners.b.teamId }]);
    expect((await client.get(`${backupsPath(b.id)}/${victimBackup}`, sites.bearer('b'))).body.data).toEqual(victims.body.data);
  }, 120_000);

  it("lets the victim's own owner download the same backup and restore it (positive control)", async () => {
    const { stack, b } = sites;
    const exportsBefore = (await state()).exports.length;
    const response = await fetch(`${stack.api.url}${backupsPath(b.id)}/${victimBackup}/download`, sites.bearer('b'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zstd');
    const list = spawn('sh', ['-c', 'zstd -d -q | tar -t'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const listed: Buffer[] = [];
    list.stdout.on('data', (chunk: Buffer) => listed.push(chunk));
    const exited = new Promise<number>((resolve) => list.on('close', (code) => resolve(code ?? -1)));
    await pipeline(Readable.fromWeb(response.body as never), list.stdin);
    expect(await exited).toBe(0);
    const entries = Buffer.concat(listed).toString().split('\n');
    expect(entries.some((entry) => entry.endsWith('wp-config.php'))).toBe(true);
    expect(entries.some((entry) => entry.endsWith('database.sql'))).toBe(true);
    expect((await state()).exports.length).toBe(exportsBefore + 1);

    // a file written after the backup, as the site's user: the restore takes the tree back to the backup
    await execChecked(b.container, ['sh', '-c', `echo later > ${LATER_FILE}`], {}, WORDPRESS_RUNTIME.siteUser);
    const restore = await stack.client().post(`${backupsPath(b.id)}/${victimBackup}/restore`, {}, sites.bearer('b'));
    expect(restore.status, JSON.stringify(restore.body)).toBe(202);
    const outcome = await operationOutcome(stack, sites.token('b'), restore.body.data.operation.id);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect((await execResult(b.container, ['test', '-e', LATER_FILE])).exit_code).not.toBe(0);
    expect(await operationsNaming(victimBackup)).toEqual([
      { kind: 'backup.create', team_id: sites.owners.b.teamId },
      { kind: 'backup.restore', team_id: sites.owners.b.teamId },
    ]);
  }, 600_000);
});
