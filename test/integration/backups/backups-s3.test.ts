import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment } from '../../../shared/db/models.ts';
import { FORGOTTEN } from '../../../shared/domains/agent/agent-commands.ts';
import { environmentLayout, nodeLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { backUp, backupsPath } from '../../helpers/backups.ts';
import { unique } from '../../helpers/factories.ts';
import { startS3Server, type TestS3Server } from '../../helpers/s3-server.ts';
import { operationOutcome, type SiteNode } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { resticReader, type ResticReader } from '../../helpers/restic-reader.ts';
import type { Stack } from '../../helpers/stack.ts';

/**
 * Backups in S3-compatible object storage, by configuration: the same backup operation on a real
 * node, its repository at `s3:<endpoint>/<bucket>/nodes/<node id>` in a real S3-protocol server
 * (s3rver over TLS, test/helpers/s3-server.ts), read back by the test's own restic; retention; and a
 * store that does not answer, which must fail the backup in time and never record it.
 */
/** Short, so the failure (one deadline per try, two tries) fits the test; the default is 60 s. */
const ANSWER_SECONDS = 15;
let s3: TestS3Server;
let s3Stopped = false;
let bucket = '';
let stack: Stack;
let node: SiteNode;
let token = '';
let siteId = 0;
let production: Environment;
let site: SiteOnNode;
/** restic against the node's repository in the store, from a container on the node's network. */
let reader: ResticReader;

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = await s3.bucket(`berth-backups-${randomBytes(4).toString('hex')}`);
  site = await startSiteOnNode('backups-s3', {
    title: 'Backed up to S3',
    plan: { backups_manual_keep: 2 },
    env: {
      BACKUP_S3_ENDPOINT: s3.hostEndpoint,
      BACKUP_S3_BUCKET: bucket,
      BACKUP_S3_ACCESS_KEY_ID: s3.accessKeyId,
      BACKUP_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      BACKUP_S3_REGION: 'us-east-1',
      BACKUP_S3_CA_CERT: s3.caCertPath,
      BACKUP_S3_ANSWER_TIMEOUT_SECONDS: String(ANSWER_SECONDS),
      OPERATION_ATTEMPTS: '2',
    },
  });
  ({ stack, node, token, siteId, production } = site);
  reader = resticReader(stack, node, () => production.id, {
    env: (environmentId) => ({
      RESTIC_REPOSITORY: `s3:${s3.hostEndpoint}/${bucket}/environments/${environmentId}`,
      RESTIC_CACERT: '/s3/ca.pem',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    }),
    hostConfig: { NetworkMode: nodeLayout(node.nodeId).network, Mounts: [{ Type: 'bind', Source: s3.caCertPath, Target: '/s3/ca.pem', ReadOnly: true }] },
  });
}, 400_000);

afterAll(async () => {
  await reader?.remove();
  await site?.stop();
  if (s3 && !s3Stopped) await s3.stop();
}, 60_000);

describe('backups in S3-compatible storage', () => {
  it("backs up into the node's repository in the bucket, which restic reads back byte for byte", async () => {
    const marker = Buffer.from(`marker ${unique('m')}\n`);
    fs.writeFileSync(path.join(node.dataDir, environmentLayout(production).filesDir, 'wp-content/uploads/marker.txt'), marker);

    const { backupId, outcome } = await backUp(site);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    const backup = (await stack.client().get(`${backupsPath(siteId)}/${backupId}`, site.bearer())).body.data;
    expect(backup).toMatchObject({ status: 'succeeded', error: null, snapshot_id: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(backup.database_bytes).toBeGreaterThan(1000);

    const snapshots = JSON.parse(await reader.run(['snapshots', '--json']));
    expect(snapshots.map((snapshot: { id: string }) => snapshot.id)).toEqual([backup.snapshot_id]);
    expect(snapshots[0].tags).toEqual(expect.arrayContaining([`backup-${backupId}`, `env-${production.id}`, 'kind-manual']));
    expect(Buffer.from(await reader.run(['dump', backup.snapshot_id, '/data/files/wp-content/uploads/marker.txt']))).toEqual(marker);
    // nothing went to the node's disk: no local repository was made
    expect(fs.existsSync(path.join(node.dataDir, `backups/environments/${production.id}/config`))).toBe(false);
    // the keys reached the container through exec environments only (restic itself through a file), and the control plane forgot them
    const stored = (await stack.ctx
      .db('agent_commands')
      .where({ operation_id: outcome.id })
      .whereRaw("payload->'env' \\? 'BERTH_STORE_SECRET_ACCESS_KEY'")
      .select(stack.ctx.db.raw("payload->'env'->>'BERTH_STORE_SECRET_ACCESS_KEY' as secret"))) as Array<{ secret: string }>;
    expect(stored.length).toBeGreaterThan(0);
    expect(new Set(stored.map((row) => row.secret))).toEqual(new Set([FORGOTTEN]));
  }, 300_000);

  it("keeps the plan's number of manual backups there: the oldest expires and its snapshot is pruned", async () => {
    for (let i = 0; i < 2; i++) expect((await backUp(site)).outcome.status).toBe('succeeded');
    const listed = (await stack.client().get(backupsPath(siteId), site.bearer())).body;
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

  it('restores from the store and deletes there: the marker is back byte for byte, the deleted snapshot is gone', async () => {
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    const latest = (await stack.client().get(backupsPath(siteId), site.bearer())).body.data[0] as { id: string; snapshot_id: string };
    const marker = fs.readFileSync(path.join(files, 'wp-content/uploads/marker.txt'));
    fs.rmSync(path.join(files, 'wp-content/uploads/marker.txt'));
    const restore = await stack.client().post(`${backupsPath(siteId)}/${latest.id}/restore`, {}, site.bearer());
    expect(restore.status, JSON.stringify(restore.body)).toBe(202);
    const restored = await operationOutcome(stack, token, restore.body.data.operation.id);
    expect(restored.status, JSON.stringify(restored.error)).toBe('succeeded');
    expect(fs.readFileSync(path.join(files, 'wp-content/uploads/marker.txt'))).toEqual(marker);

    const deletion = await stack.client().request('DELETE', `${backupsPath(siteId)}/${latest.id}`, site.bearer());
    expect((await operationOutcome(stack, token, deletion.body.data.operation.id)).status).toBe('succeeded');
    expect(JSON.parse(await reader.run(['snapshots', '--json'])).map((snapshot: { id: string }) => snapshot.id)).not.toContain(latest.snapshot_id);
  }, 300_000);

  it("fails in time when nothing answers at the store's address, without naming the store to the team, and records no backup", async () => {
    const succeededBefore = await stack.ctx
      .db('backups')
      .where({ environment_id: production.id, status: 'succeeded' })
      .count<{ count: string }[]>('* as count');
    // the configured port now has nothing listening on it
    await s3.stop();
    s3Stopped = true;
    const started = Date.now();
    const { backupId, outcome } = await backUp(site);
    const seconds = (Date.now() - started) / 1000;
    expect(outcome.status).toBe('failed');
    expect(['repository', 'snapshot']).toContain(outcome.error.step);
    const backup = (await stack.client().get(`${backupsPath(siteId)}/${backupId}`, site.bearer())).body.data;
    expect(backup).toMatchObject({ status: 'failed', snapshot_id: null });
    expect(backup.error).toContain(`the repository at <backup storage> did not answer within ${ANSWER_SECONDS} s`);
    const operation = (await stack.client().get(`/v1/operations/${outcome.id}`, site.bearer())).body.data;
    for (const infrastructure of [s3.hostEndpoint, new URL(s3.hostEndpoint).host, s3.secretAccessKey]) {
      expect(backup.error).not.toContain(infrastructure);
      expect(JSON.stringify(operation.error)).not.toContain(infrastructure);
      // the exec's own output, streamed into the log, is kept clear of its environment's secrets too
      expect(JSON.stringify(operation.logs)).not.toContain(infrastructure);
    }
    expect(JSON.stringify(operation.error)).not.toMatch(/dial tcp \d/);
    // two tries of at most ANSWER_SECONDS each (and the retry's pause), not restic's 15 minutes
    expect(seconds).toBeLessThan(2 * ANSWER_SECONDS + 40);
    console.info(`unreachable store: the backup failed after ${seconds.toFixed(1)} s (${ANSWER_SECONDS} s deadline, 2 tries): ${backup.error}`);
    const succeededAfter = await stack.ctx.db('backups').where({ environment_id: production.id, status: 'succeeded' }).count<{ count: string }[]>('* as count');
    expect(succeededAfter).toEqual(succeededBefore);
  }, 300_000);
});
