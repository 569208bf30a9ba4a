import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Environment } from '../../../shared/db/models.ts';
import { exportStreams } from '../../../shared/domains/backups/exports.ts';
import { NotFound } from '../../../shared/errors.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { backUp, backupsPath, downloadAndUnpack } from '../../helpers/backups.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { docker, siteStackEnv, type SiteNode } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { TEST_RATE_LIMITS, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';
import { startBerth, stopBerthProcesses } from '../../helpers/berth-process.ts';
import { exportOwner } from '../../../shared/domains/backups/export-relay.ts';

/**
 * Downloading a backup from a real node: the agent streams `restic dump --archive tar | zstd` from a
 * throwaway container to the control plane, which pipes it to the caller; the archive is unpacked
 * with the zstd and tar commands and compared with what was backed up.
 */
let stack: Stack;
let node: SiteNode;
let owner: TestUser;
let siteId = 0;
let siteSlug = '';
let production: Environment;
let site: SiteOnNode;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-download-'));

/** Short parts (15 s unless told), so that every download here goes in several; and a short wait for the node's first bytes. */
const PART_MS = 300;
const START_SECONDS = 10;
let partsRelayed = 0;

beforeAll(async () => {
  site = await startSiteOnNode('download', {
    title: 'Downloaded',
    agentEnv: { AGENT_STREAM_PART_MS: String(PART_MS) },
    env: { BACKUP_DOWNLOAD_START_SECONDS: String(START_SECONDS) },
  });
  // counted as they pass: the same relay the API uses (the stack runs in this process)
  const relay = exportStreams.relay.bind(exportStreams);
  exportStreams.relay = (...args) => {
    partsRelayed += 1;
    return relay(...args);
  };
  ({ stack, node, owner, siteId, slug: siteSlug, production } = site);
}, 400_000);

afterAll(async () => {
  stopBerthProcesses();
  await site?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}, 60_000);

describe('downloading a backup', () => {
  it('streams the snapshot as a .tar.zst: the files byte for byte and the database dump; the stream id works once', async () => {
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    const marker = randomBytes(300_000);
    fs.writeFileSync(path.join(files, 'wp-content/uploads/marker.bin'), marker);
    await node.sql(`INSERT INTO ${production.db_name}.wp_options (option_name, option_value, autoload) VALUES ('berth_download_marker', 'in the dump', 'no')`);
    const { backupId } = await backUp(site, { mustSucceed: true });

    const { dir, headers } = await downloadAndUnpack(site, backupId, scratch);
    expect(headers.get('content-type')).toBe('application/zstd');
    expect(headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="${siteSlug}-production-\\d{4}-\\d{2}-\\d{2}-\\d{6}\\.tar\\.zst"$`));
    const unpacked = fs.readFileSync(path.join(dir, 'data/files/wp-content/uploads/marker.bin'));
    expect(createHash('sha256').update(unpacked).digest('hex')).toBe(createHash('sha256').update(marker).digest('hex'));
    expect(fs.readFileSync(path.join(dir, 'data/files/wp-config.php'), 'utf8')).toContain(production.db_name);
    expect(fs.readFileSync(path.join(dir, 'tmp/berth-backup/database.sql'), 'utf8')).toContain("'berth_download_marker','in the dump'");

    // the export's id (in its command's id) is spent: another post of it is refused, from this node or any other
    // the agent reports its result a moment after the last byte
    const command = await until(async () => {
      const row = await stack.ctx.db('agent_commands').where({ kind: 'stream.upload', node_id: node.nodeId }).orderBy('created_at', 'desc').first();
      return row?.status === 'succeeded' ? row : null;
    }, 'the stream.upload command succeeded');
    expect(command.payload.env.BERTH_RESTIC_PASSWORD).toBe('[forgotten]');
    const streamId = String(command.id).replace(/^export:/, '');
    await expect(exportStreams.relay(node.nodeId, streamId, 0, false, Readable.from([]))).rejects.toBeInstanceOf(NotFound);
    const unsigned = await stack.client().post(`/v1/agent/streams/${streamId}?part=0`, undefined, { headers: { 'berth-agent-protocol': '2' } });
    expect(unsigned.status).toBe(401);
    expect(exportStreams.size).toBe(0);
    // the throwaway container is gone
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=backup'] } })).toEqual([]);
  }, 300_000);

  it('works from any API process: asked of a second process, it gets every part the node posts to the first, forwarded', async () => {
    // a second API process on the same database, Redis prefix, keys and limits; the node posts to the stack's API only
    const other = await startBerth(
      { ...siteStackEnv(), ...TEST_RATE_LIMITS, REDIS_PREFIX: stack.ctx.config.redisPrefix, BACKUP_DOWNLOAD_START_SECONDS: String(START_SECONDS) },
      stack.ctx.config.dataDir,
      'api',
    );
    expect(other.baseUrl).not.toBe(stack.api.url);
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    const marker = randomBytes(200_000);
    fs.writeFileSync(path.join(files, 'wp-content/uploads/forwarded.bin'), marker);
    const { backupId } = await backUp(site, { mustSucceed: true });
    const partsBefore = partsRelayed;

    const { dir } = await downloadAndUnpack(site, backupId, scratch, { apiUrl: other.baseUrl });
    const unpacked = fs.readFileSync(path.join(dir, 'data/files/wp-content/uploads/forwarded.bin'));
    expect(createHash('sha256').update(unpacked).digest('hex')).toBe(createHash('sha256').update(marker).digest('hex'));
    // every part reached this process first (several: short parts), which holds no such stream and forwarded it
    expect(partsRelayed - partsBefore).toBeGreaterThan(1);
    expect(exportStreams.size).toBe(0);
    // the owner's address is forgotten once the download ends
    const streamId = String(
      (await stack.ctx.db('agent_commands').where({ kind: 'stream.upload', node_id: node.nodeId }).orderBy('created_at', 'desc').first()).id,
    ).replace(/^export:/, '');
    await until(async () => (await exportOwner(stack.ctx.redis, stack.ctx.config.redisPrefix, streamId)) === null, "the stream's owner forgotten");
  }, 300_000);

  it('answers 404 to another team and 409 for a backup that did not succeed', async () => {
    const backupId = (await stack.ctx.db('backups').where({ environment_id: production.id, status: 'succeeded' }).first('id')).id as string;
    const stranger = await createOwner(stack.ctx.db);
    const strangerToken = await accessTokenOf(stack.client(), stranger);
    const foreign = await stack.client().get(`${backupsPath(siteId)}/${backupId}/download`, site.bearer(strangerToken));
    expect(foreign.status).toBe(404);

    const [failed] = await stack.ctx
      .db('backups')
      .insert({
        team_id: owner.teamId,
        site_id: siteId,
        environment_id: production.id,
        node_id: production.node_id,
        kind: 'manual',
        status: 'failed',
        error: 'snapshot: made up',
      })
      .returning('id');
    const refused = await stack.client().get(`${backupsPath(siteId)}/${failed.id}/download`, site.bearer());
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(exportStreams.size).toBe(0);
  }, 60_000);

  it('streams a larger backup without holding it: the API process grows by far less than the archive', async () => {
    const files = path.join(node.dataDir, environmentLayout(production).filesDir);
    const big = path.join(files, 'wp-content/uploads/big.bin');
    const handle = fs.openSync(big, 'w');
    for (let i = 0; i < 160; i += 1) fs.writeSync(handle, randomBytes(1024 * 1024)); // incompressible: the archive stays as large
    fs.closeSync(handle);
    const { backupId } = await backUp(site, { mustSucceed: true });
    const started = Date.now();
    partsRelayed = 0;
    const { dir, archiveBytes, rssGrowth } = await downloadAndUnpack(site, backupId, scratch);
    const seconds = (Date.now() - started) / 1000;
    expect(fs.statSync(path.join(dir, 'data/files/wp-content/uploads/big.bin')).size).toBe(160 * 1024 * 1024);
    console.log(
      `backup download: ${(archiveBytes / 1024 ** 2).toFixed(1)} MiB archive in ${seconds.toFixed(1)} s; API process peak RSS growth ${(rssGrowth / 1024 ** 2).toFixed(1)} MiB`,
    );
    expect(archiveBytes).toBeGreaterThan(160 * 1024 * 1024);
    // holding the (incompressible) archive whole would grow the process by more than all of it; the
    // margin is for what else this test process does meanwhile (under a loaded suite, tens of MB)
    expect(rssGrowth).toBeLessThan(archiveBytes * 0.75);
    // several requests of the agent, joined in order into one download (and the empty last one)
    expect(partsRelayed).toBeGreaterThan(2);
    fs.rmSync(big);
  }, 300_000);

  it("stops the node's stream when the client goes away mid-download: the command ends, its container goes, nothing waits", async () => {
    const backupId = (await stack.ctx.db('backups').where({ environment_id: production.id, status: 'succeeded' }).orderBy('created_at', 'desc').first('id'))
      .id as string;
    const aborted = new AbortController();
    const response = await fetch(`${stack.api.url}${backupsPath(siteId)}/${backupId}/download`, { ...site.bearer(), signal: aborted.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    aborted.abort();
    const command = await until(
      async () => {
        const row = await stack.ctx.db('agent_commands').where({ kind: 'stream.upload', node_id: node.nodeId }).orderBy('created_at', 'desc').first();
        return row && ['failed', 'succeeded'].includes(row.status) ? row : null;
      },
      'the stream.upload command to end',
      60_000,
    );
    expect(command.status).toBe('failed');
    expect(exportStreams.size).toBe(0);
    await until(
      async () => (await docker.listContainers({ all: true, filters: { label: [`berth.node=${node.nodeId}`, 'berth.role=backup'] } })).length === 0,
      'the export container removed',
      30_000,
    );
  }, 120_000);

  it("answers 502 NODE_UNAVAILABLE when the node cannot read the backup, naming restic's exit but not its words (they name the store)", async () => {
    const [lost] = await stack.ctx
      .db('backups')
      .insert({
        team_id: owner.teamId,
        site_id: siteId,
        environment_id: production.id,
        node_id: production.node_id,
        kind: 'manual',
        status: 'succeeded',
        snapshot_id: 'ab'.repeat(32),
        finished_at: new Date(),
      })
      .returning('id');
    const reply = await stack.client().get(`${backupsPath(siteId)}/${lost.id}/download`, site.bearer());
    expect(reply.status, JSON.stringify(reply.body)).toBe(502);
    expect(reply.body.error).toMatchObject({ code: 'NODE_UNAVAILABLE', details: { reason: 'node_failed' } });
    expect(reply.body.error.message).toMatch(/could not read the backup \(restic exited \d+/);
    expect(reply.body.error.message).not.toMatch(/abababab|\/repo|s3:/);
    expect(exportStreams.size).toBe(0);
    await stack.ctx.db('backups').where({ id: lost.id }).delete();
  }, 120_000);

  it(`answers 504 NODE_UNAVAILABLE when the node does not start within BACKUP_DOWNLOAD_START_SECONDS (${START_SECONDS} s), and withdraws the command`, async () => {
    const backupId = (await stack.ctx.db('backups').where({ environment_id: production.id, status: 'succeeded' }).orderBy('created_at', 'desc').first('id'))
      .id as string;
    await node.stopAgent();
    try {
      const reply = await stack.client().get(`${backupsPath(siteId)}/${backupId}/download`, site.bearer());
      expect(reply.status, JSON.stringify(reply.body)).toBe(504);
      expect(reply.body.error).toMatchObject({ code: 'NODE_UNAVAILABLE', details: { reason: 'node_timeout' } });
      // the command, with the repository's password in it, never reaches the node later
      expect(await stack.ctx.db('agent_commands').where({ kind: 'stream.upload', node_id: node.nodeId, status: 'pending' })).toEqual([]);
      expect(exportStreams.size).toBe(0);
    } finally {
      await node.restartAgent();
    }
  }, 120_000);
});
