import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateKey, signAgentToken } from '../../../agent/identity.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { pruneEnvironmentLogs } from '../../../shared/domains/logs/environment-logs.ts';
import { sweepOperations } from '../../../workers/operations/sweep.processor.ts';
import { workerDepsOf } from '../../helpers/stack.ts';
import { bearer } from '../../helpers/client.ts';
import { agentProtocol, asAgent, enrolledAgent } from '../../helpers/enrolled-agent.ts';
import { EventStream } from '../../helpers/event-stream.ts';
import { expectV1Error } from '../../helpers/expect-error.ts';
import { accessTokenOf, createOwner } from '../../helpers/factories.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { addMember } from '../../helpers/team-members.ts';
import { until } from '../../helpers/until.ts';

/**
 * Environment logs end to end: a real node's edge and php-fpm write them, its agent ships them, the
 * API reads them back (pages and the live tail).
 */
let site: SiteOnNode;

beforeAll(async () => {
  site = await startSiteOnNode('env-logs');
}, 600_000);

afterAll(async () => {
  await site?.stop();
}, 60_000);

const logsPath = (query: string) => `/v1/sites/${site.siteId}/environments/production/logs?${query}`;
const readLogs = (query: string, token = site.token) => site.stack.client().get(logsPath(query), bearer(token));
const visit = (pathAndQuery: string) => site.node.throughEdge(`http://${site.production.domain}${pathAndQuery}`);
/** The lines of `file` containing `marker`, once there are at least `count`. */
const linesWith = (file: string, marker: string, count = 1) =>
  until(
    async () => {
      const reply = await readLogs(`file=${file}&search=${encodeURIComponent(marker)}&lines=1000`);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.data.lines.length >= count ? (reply.body.data.lines as Array<{ id: number; time: string; line: string }>) : undefined;
    },
    `${count} ${file} line(s) with ${marker}`,
    30_000,
    300,
  );
const filesDir = () => path.join(site.node.dataDir, environmentLayout(site.production).filesDir);
const phpLog = () => path.join(site.node.dataDir, environmentLayout(site.production).logFiles.php);

describe('environment logs', () => {
  it("shows a request through the edge as its JSON access line, the edge's fields in it", async () => {
    const marker = randomUUID();
    expect((await visit(`/?probe=${marker}`)).status).toBe(200);
    const [line] = await linesWith('access', marker);
    const entry = JSON.parse(line!.line);
    expect(entry).toMatchObject({ method: 'GET', uri: `/?probe=${marker}`, status: 200, host: site.production.domain });
    expect(entry).toHaveProperty('cache');
    expect(typeof entry.request_time).toBe('number');
    expect(Math.abs(Date.parse(line!.time) - Date.now())).toBeLessThan(120_000);
  });

  it('shows a PHP warning of the site in the php log', async () => {
    const marker = `warned-${randomUUID()}`;
    fs.writeFileSync(path.join(filesDir(), 'berth-logs-warning.php'), `<?php trigger_error('${marker}', E_USER_WARNING); echo 'done';\n`, { mode: 0o644 });
    const answer = await visit('/berth-logs-warning.php');
    expect(answer.status).toBe(200);
    const [line] = await linesWith('php', marker);
    expect(line!.line).toMatch(/PHP Warning: {2}warned-/);
  });

  it('pages newest first with lines and cursor, and bounds by since and until', async () => {
    const prefix = `paged-${randomUUID()}`;
    const before = new Date(Date.now() - 1000).toISOString();
    for (const n of [1, 2, 3]) expect((await visit(`/?${prefix}=${n}`)).status).toBe(200);
    await linesWith('access', prefix, 3);
    const first = await readLogs(`file=access&lines=2&search=${prefix}`);
    expect(first.body.data.lines.map((line: { line: string }) => JSON.parse(line.line).uri)).toEqual([`/?${prefix}=3`, `/?${prefix}=2`]);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await readLogs(`file=access&lines=2&search=${prefix}&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    expect(second.body.data.lines.map((line: { line: string }) => JSON.parse(line.line).uri)).toEqual([`/?${prefix}=1`]);
    expect(second.body.data.next_cursor).toBeNull();
    // the search is literal: LIKE's wildcards match only themselves
    expect((await readLogs(`file=access&search=${encodeURIComponent(`paged_%`)}`)).body.data.lines).toEqual([]);
    expect((await readLogs(`file=access&search=${prefix}&until=${encodeURIComponent(before)}`)).body.data.lines).toEqual([]);
    expect((await readLogs(`file=access&search=${prefix}&since=${encodeURIComponent(before)}`)).body.data.lines).toHaveLength(3);
    expect((await readLogs(`file=access&search=${prefix}&since=${encodeURIComponent(new Date(Date.now() + 600_000).toISOString())}`)).body.data.lines).toEqual(
      [],
    );
  });

  it('refuses bad queries with 422, another team with 404 and a viewer with 403', async () => {
    for (const query of [
      '',
      'file=nginx',
      'file=access&lines=0',
      'file=access&lines=1001',
      'file=access&lines=abc',
      'file=access&lines=-1',
      'file=access&since=yesterday',
      'file=access&since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z',
      'file=access&cursor=bm90LWEtY3Vyc29y',
      `file=access&search=${'x'.repeat(201)}`,
    ])
      expectV1Error(await readLogs(query), 422, 'VALIDATION_ERROR');
    const stranger = await createOwner(site.stack.ctx.db);
    expectV1Error(await readLogs('file=access', await accessTokenOf(site.stack.client(), stranger)), 404, 'NOT_FOUND');
    const viewer = await addMember(site.stack.ctx.db, site.owner, 'viewer');
    const viewerToken = await accessTokenOf(site.stack.client(), viewer);
    expectV1Error(await readLogs('file=access', viewerToken), 403, 'AUTHORIZATION_ERROR', { permission: 'sites:logs' });
    const developer = await addMember(site.stack.ctx.db, site.owner, 'developer');
    expect((await readLogs('file=access', await accessTokenOf(site.stack.client(), developer))).status).toBe(200);
  });

  it('tails the access log live over Server-Sent Events, resumable with Last-Event-ID', async () => {
    const streamUrl = `${site.stack.client().baseUrl}${logsPath('file=access').replace('/logs?', '/logs/stream?')}`;
    const stream = await EventStream.open(streamUrl, bearer(site.token).headers);
    let resumeAt = 0;
    try {
      expect(stream.status).toBe(200);
      const marker = randomUUID();
      expect((await visit(`/?tail=${marker}`)).status).toBe(200);
      for (;;) {
        const event = await stream.next(30_000);
        expect(event).toBeDefined();
        expect(event!.event).toBe('line');
        expect(Number(event!.id)).toBe(event!.data.id);
        if (event!.data.line.includes(marker)) {
          resumeAt = event!.data.id - 1;
          break;
        }
      }
    } finally {
      stream.close();
    }
    // resuming with Last-Event-ID sends the lines stored after it, the marker's first
    const resumed = await EventStream.open(streamUrl, { ...bearer(site.token).headers, 'last-event-id': String(resumeAt) });
    try {
      expect((await resumed.next(30_000))?.data.id).toBe(resumeAt + 1);
    } finally {
      resumed.close();
    }
  });

  it('ships nothing from a php.log planted as a symbolic link to /etc/passwd', async () => {
    fs.rmSync(phpLog(), { force: true });
    fs.symlinkSync('/etc/passwd', phpLog());
    try {
      // the agent looks at every file of the environment in each round: once an access line written
      // after the link was planted has arrived, the link was looked at (and shipping it would have come with it)
      const marker = randomUUID();
      expect((await visit(`/?after-link=${marker}`)).status).toBe(200);
      await linesWith('access', marker);
      expect((await readLogs('file=php&search=root:')).body.data.lines).toEqual([]);
      expect(
        await site.stack.ctx.db('environment_log_lines').where({ environment_id: site.production.id, file: 'php' }).whereLike('line', 'root:%').count(),
      ).toEqual([{ count: 0 }]);
    } finally {
      fs.rmSync(phpLog(), { force: true });
    }
  });

  it('stores a batch posted twice once', async () => {
    const token = await signAgentToken(loadOrCreateKey(site.node.dataDir), site.node.nodeId);
    const batch = {
      batch_id: randomUUID(),
      read_at: new Date().toISOString(),
      files: [{ environment_id: site.production.id, file: 'error', lines: [`twice-${randomUUID()}`, 'second line'] }],
    };
    const headers = { headers: { ...agentProtocol, authorization: `Bearer ${token}` } };
    const first = await site.stack.client().post('/v1/agent/logs', batch, headers);
    expect(first.body.data).toEqual({ stored: 2, dropped: 0 });
    const again = await site.stack.client().post('/v1/agent/logs', batch, headers);
    expect(again.body.data).toEqual({ stored: 0, dropped: 0 });
    expect(await site.stack.ctx.db('environment_log_lines').where({ batch_id: batch.batch_id }).count()).toEqual([{ count: 2 }]);
    expect((await readLogs(`file=error&search=${batch.files[0]!.lines[0]}`)).body.data.lines).toHaveLength(1);
  });

  it("drops lines a node sends for another node's environment", async () => {
    const other = await enrolledAgent(site.stack);
    const batch = {
      batch_id: randomUUID(),
      read_at: new Date().toISOString(),
      files: [{ environment_id: site.production.id, file: 'access', lines: ['{"forged":true}'] }],
    };
    const reply = await site.stack.client().post('/v1/agent/logs', batch, await asAgent(other));
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ stored: 0, dropped: 1 });
    expect(await site.stack.ctx.db('environment_log_lines').where({ batch_id: batch.batch_id }).count()).toEqual([{ count: 0 }]);
  });

  it('keeps 7 days (the operations sweep prunes) and at most the newest lines per environment and file', async () => {
    const db = site.stack.ctx.db;
    const batch = randomUUID();
    const row = (seq: number, daysAgo: number) => ({
      environment_id: site.production.id,
      file: 'error',
      time: new Date(Date.now() - daysAgo * 86_400_000),
      line: `retention-${batch}-${seq}`,
      batch_id: batch,
      seq,
    });
    await db('environment_log_lines').insert([row(1, 8), row(2, 6), row(3, 0.5), row(4, 0.25)]);
    await sweepOperations(workerDepsOf(site.stack));
    const kept = () => db('environment_log_lines').where({ batch_id: batch }).orderBy('seq').pluck('seq');
    expect(await kept()).toEqual([2, 3, 4]);
    const stored = await db('environment_log_lines').where({ environment_id: site.production.id, file: 'error' }).count();
    // a cap of (all the file's lines - 1) drops exactly the oldest one
    await pruneEnvironmentLogs(db, new Date(), Number(stored[0]!.count) - 1);
    expect(await kept()).toEqual([3, 4]);
  });
});
