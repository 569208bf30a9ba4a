import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../../shared/domains/webhooks/events.ts';
import { SCHEDULES_QUEUE } from '../../../shared/jobs/schedule.jobs.ts';
import { IN_FLIGHT_PER_ENDPOINT } from '../../../workers/webhooks/dispatch.processor.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call } from '../../helpers/team-members.ts';
import { until } from '../../helpers/until.ts';
import { WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/**
 * Delivery started by the committing transaction (issue 24), not by the dispatch poll: the poll is
 * set to an hour and then removed altogether, so whatever is delivered here was woken by a commit
 * (LISTEN/NOTIFY) or by a finished attempt.
 */
let stack: Stack;
let receiver: WebhookReceiver;
let owner: TestUser;
let token = '';

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL: '1h' } });
  owner = await createOwner(stack.ctx.db);
  token = await accessTokenOf(stack.client(), owner);
  // the poll ran once when its schedule was declared; removed, and with no run of it left, it runs no more
  const schedules = stack.ctx.queues.get(SCHEDULES_QUEUE);
  await schedules.removeJobScheduler('webhooks.dispatch');
  await until(
    async () => (await schedules.getJobs(['active', 'waiting', 'delayed', 'prioritized'])).every((job) => job.name !== 'webhooks.dispatch'),
    'no webhooks.dispatch job left',
    10_000,
    50,
  );
  expect(await schedules.getJobScheduler('webhooks.dispatch')).toBeUndefined();
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

let paths = 0;
async function addEndpoint(): Promise<{ id: number; path: string }> {
  const path = `/wake-${++paths}`;
  const reply = await call(stack.client(), 'POST', '/v1/webhooks', token, { url: receiver.url(path), event_types: ['site.renamed'] });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { id: reply.body.data.id, path };
}

const renamed = (name: string) => ({ teamId: owner.teamId, type: 'site.renamed', data: { site: { id: 1, name } } });

describe('webhook delivery without the poll', () => {
  it('delivers an event once its transaction commits, and not before', async () => {
    const endpoint = await addEndpoint();
    const trx = await stack.ctx.db.transaction();
    await emitEvent(trx, renamed('committed later'));
    // written but not committed: nothing is told, so nothing is sent (the receipt below is the commit's doing)
    expect(await stack.ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id })).toEqual([]);
    await trx.commit();
    const [request] = await receiver.waitFor(endpoint.path, 1);
    expect(JSON.parse(request!.body).data.site.name).toBe('committed later');
  });

  it(`delivers a burst to one endpoint in full, more than its ${IN_FLIGHT_PER_ENDPOINT} attempts in flight: each success takes the next due one`, async () => {
    const endpoint = await addEndpoint();
    const count = IN_FLIGHT_PER_ENDPOINT * 3;
    await stack.ctx.db.transaction(async (trx) => {
      for (let i = 0; i < count; i++) await emitEvent(trx, renamed(`burst ${i}`));
    });
    const requests = await receiver.waitFor(endpoint.path, count);
    expect(new Set(requests.map((request) => JSON.parse(request.body).data.site.name)).size).toBe(count);
    await until(
      async () => Number((await stack.ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' }).count({ n: '*' }))[0]!.n) === count,
      `${count} deliveries logged as succeeded`,
      10_000,
      50,
    );
  });

  it('sends a redelivery and a test event asked for through the API at once', async () => {
    const endpoint = await addEndpoint();
    await stack.ctx.db.transaction((trx) => emitEvent(trx, renamed('first')));
    const [first] = await receiver.waitFor(endpoint.path, 1);
    const delivery = await until(
      async () => (await stack.ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' }).first('id')) as { id: string } | undefined,
      'the first delivery logged',
      10_000,
      50,
    );
    const again = await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, token);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    const [, second] = await receiver.waitFor(endpoint.path, 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const tested = await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/test`, token);
    expect(tested.status, JSON.stringify(tested.body)).toBe(202);
    const [, , third] = await receiver.waitFor(endpoint.path, 3);
    expect(JSON.parse(third!.body).type).toBe('webhook.test');
  });
});
