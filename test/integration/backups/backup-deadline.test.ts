import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualBackup } from '../../../shared/domains/backups/backups.ts';
import { sweepOperations } from '../../../workers/operations/sweep.processor.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, workerDepsOf, type Stack } from '../../helpers/stack.ts';

/**
 * A backup whose node never finishes it must not stay `running` for ever: past its operation's
 * deadline the sweeper fails the operation, and the backup reads `failed` with why, though no
 * runbook code ran to say so. Its node here is only a row (no agent), so nothing ever answers.
 */
let stack: Stack;
let owner: TestUser;
let token = '';
let siteId = 0;

beforeAll(async () => {
  // No workers: the operation is handed to the queue when it is started, and a worker would begin its
  // first step on a node that does not exist; the test plays the stuck worker itself.
  stack = await startStack({ workers: false });
  owner = await createOwner(stack.ctx.db);
  token = await accessTokenOf(stack.client(), owner);
  const db = stack.ctx.db;
  const [node] = await db('nodes')
    .insert({ name: unique('node'), region: unique('region'), public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root', status: 'online' })
    .returning('id');
  const slug = unique('dl').slice(0, 20);
  const [site] = await db('sites').insert({ team_id: owner.teamId, name: slug, slug, region: 'test', status: 'active' }).returning('id');
  siteId = site.id;
  await db('environments').insert({
    site_id: site.id,
    team_id: owner.teamId,
    kind: 'production',
    node_id: node.id,
    php_version: '8.2',
    domain: `${slug}.test`,
    status: 'active',
    db_name: `wp_${slug}`,
    db_user: `wp_${slug}`,
    db_password_sealed: 'x',
    disk_quota_bytes: 1,
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('a backup stuck past its deadline', () => {
  it('is failed by the sweeper and reads failed, naming the step and the deadline', async () => {
    const { backup, operation } = await createManualBackup(stack.ctx, { teamId: owner.teamId, userId: owner.userId }, siteId, 'production', null);
    // as a worker that started it and then lost its node would leave it
    await stack.ctx
      .db('operations')
      .where({ id: operation.id })
      .update({ status: 'running', started_at: new Date(), deadline_at: new Date(Date.now() - 1000) });
    await stack.ctx.db('operation_steps').where({ operation_id: operation.id, name: 'snapshot' }).update({ status: 'running', started_at: new Date() });
    const path = `/v1/sites/${siteId}/environments/production/backups/${backup.id}`;
    const bearer = { headers: { authorization: `Bearer ${token}` } };
    expect((await stack.client().get(path, bearer)).body.data).toMatchObject({ status: 'running', error: null });

    const swept = await sweepOperations(workerDepsOf(stack));
    expect(swept.timedOut).toContain(operation.id);
    const shown = (await stack.client().get(path, bearer)).body.data;
    expect(shown.status).toBe('failed');
    expect(shown.error).toMatch(/^snapshot: Did not finish within its deadline of 3600 s/);
    expect(shown.snapshot_id).toBeNull();
  });
});
