import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCommandRow } from '../../../shared/db/models.ts';
import { queueAgentCommand } from '../../../shared/domains/agent/agent-commands.ts';
import { forwardedFor } from '../../helpers/client.ts';
import { agentProtocol, asAgent, enrolledAgent, type TestAgent } from '../../helpers/enrolled-agent.ts';
import { unique } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { streamedRequest } from '../../helpers/streamed-request.ts';

const AUTH_FAILURES = 3;
const AGENT_REQUESTS = 40;
const MB = 1000 * 1000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    workers: false,
    env: { TRUSTED_PROXIES: 'loopback', RATE_LIMIT_AGENT: `${AGENT_REQUESTS}/1m`, RATE_LIMIT_AGENT_AUTH_FAILURES: `${AUTH_FAILURES}/10m` },
  });
});
afterAll(async () => {
  await stack?.stop();
});

const metrics = {
  cpu_percent: 1,
  load_average: [0.1],
  memory: { total_bytes: 8e9, used_bytes: 2e9 },
  disk: { total_bytes: 1e11, used_bytes: 4e10, path: '/var/lib/berth' },
  containers: { running: 0, total: 0 },
};
let nextIp = 1;
/** Each test speaks from its own documentation address (X-Forwarded-For, trusted from loopback), so the per-IP limits do not mix. */
const freshIp = () => `198.51.100.${nextIp++}`;

/**
 * A large body sent in 64 KB parts, stopping once the server has answered. `slow` pauses 25 ms
 * between parts: a server that answers early has answered before the next part (it then closes).
 */
function largePost(path: string, headers: Record<string, string>, body: Buffer, pace: 'slow' | 'fast' = 'slow') {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += 64 * 1024) parts.push(body.subarray(offset, offset + 64 * 1024));
  return streamedRequest(stack.api.url, 'POST', path, {
    headers: { 'content-type': 'application/json', ...agentProtocol, ...headers },
    parts,
    contentLength: body.length,
    pauseMs: pace === 'slow' ? 25 : 0,
  });
}

async function queued(agent: TestAgent, step: string): Promise<string> {
  const id = `${unique('op')}:${step}`;
  await queueAgentCommand(stack.ctx, {
    id,
    nodeId: agent.nodeId,
    operationId: null,
    kind: 'container.remove',
    payload: { name: 'x' },
    deadlineAt: new Date(Date.now() + 60_000),
  });
  return id;
}

describe('/v1/agent bodies are read only after the agent is authenticated', () => {
  it('answers 401 to an unauthenticated 5 MB body that is not even JSON, before it is all sent', async () => {
    const garbage = Buffer.alloc(5 * MB, 0x7b); // "{{{{...": a parser would answer 400/422, or 413
    for (const path of ['/v1/agent/heartbeat', '/v1/agent/commands/x/result', '/v1/agent/commands/x/progress']) {
      for (const authorization of [
        undefined,
        'Bearer not.a.token',
        `Bearer ${await (await enrolledAgent(stack, { ip: freshIp() })).token({ key: generateKeyPairSync('ed25519').privateKey })}`,
      ]) {
        const reply = await largePost(path, { 'x-forwarded-for': freshIp(), ...(authorization ? { authorization } : {}) }, garbage);
        expect(reply.status, `${path} ${authorization}`).toBe(401);
        expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
        expect(reply.answeredEarly).toBe(true);
      }
    }
  });

  it('refuses a large body on an authenticated route other than results with 413, and still takes a large result', async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const big = Buffer.from(JSON.stringify({ agent_version: '0.1.0', metrics, running: [], padding: 'a'.repeat(5 * MB) }));
    const heartbeat = await largePost('/v1/agent/heartbeat', { authorization: `Bearer ${await agent.token()}`, ...forwardedFor(agent.ip).headers }, big);
    expect(heartbeat.status).toBe(413);
    expect(heartbeat.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    const id = await queued(agent, 'big');
    expect(
      (await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent))).body.data.commands.map((command: { id: string }) => command.id),
    ).toEqual([id]);
    const progress = await largePost(
      `/v1/agent/commands/${id}/progress`,
      { authorization: `Bearer ${await agent.token()}`, ...forwardedFor(agent.ip).headers },
      Buffer.from(JSON.stringify({ logs: [], padding: 'a'.repeat(5 * MB) })),
    );
    expect(progress.status).toBe(413);

    const content = 'b'.repeat(5 * MB);
    const result = await largePost(
      `/v1/agent/commands/${id}/result`,
      { authorization: `Bearer ${await agent.token()}`, ...forwardedFor(agent.ip).headers },
      Buffer.from(JSON.stringify({ status: 'succeeded', result: { content } })),
      'fast',
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const row = await AgentCommandRow.query(stack.ctx.db).findById(id);
    expect((row!.result as { content: string }).content.length).toBe(content.length);
  });

  it('keeps enrollment small and unauthenticated-by-key: a large enrollment body is 413', async () => {
    const reply = await largePost('/v1/agent/enroll', { 'x-forwarded-for': freshIp() }, Buffer.from(JSON.stringify({ enrollment_token: 'x'.repeat(5 * MB) })));
    expect(reply.status).toBe(413);
  });
});

describe('per-IP limits on /v1/agent', () => {
  it(`refuses an IP with ${AUTH_FAILURES} failed authentications (429), even with a valid token; other IPs are not affected`, async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const attacker = freshIp();
    for (let attempt = 0; attempt < AUTH_FAILURES; attempt++) {
      const reply = await stack
        .client()
        .get('/v1/agent/commands?wait=0', { headers: { ...agentProtocol, authorization: 'Bearer forged.token.here', 'x-forwarded-for': attacker } });
      expect(reply.status).toBe(401);
    }
    const refused = await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent, { ip: attacker }));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent))).status).toBe(200);
  });

  it('counts the failures of every address of one IPv6 /64 together, and not those of the next /64', async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const sameSubnet = ['2001:db8:77:1::1', '2001:db8:77:1:ffff:ffff:ffff:fffe', '2001:0db8:0077:0001:0:0:0:abcd'];
    for (const ip of sameSubnet) {
      const reply = await stack
        .client()
        .get('/v1/agent/commands?wait=0', { headers: { ...agentProtocol, authorization: 'Bearer forged.token.here', 'x-forwarded-for': ip } });
      expect(reply.status, ip).toBe(401);
    }
    expect((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent, { ip: '2001:db8:77:1:1234::9' }))).status).toBe(429);
    expect((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent, { ip: '2001:db8:77:2::1' }))).status).toBe(200);
  });

  it(`answers 429 past RATE_LIMIT_AGENT (${AGENT_REQUESTS}/1m) requests from one IP, authenticated or not`, async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const statuses: number[] = [];
    for (let request = 0; request < AGENT_REQUESTS; request++)
      statuses.push((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent))).status);
    // the enrollment counted too
    expect(statuses.filter((status) => status === 200)).toHaveLength(AGENT_REQUESTS - 1);
    expect(statuses.at(-1)).toBe(429);
    expect((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent, { ip: freshIp() }))).status).toBe(200);
  });
});

describe('results and progress only for commands leased to the node', () => {
  it('refuses both for a pending (never delivered) command with 409 not_delivered, and leaves it pending', async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const id = await queued(agent, 'pending');
    const progress = await stack.client().post(`/v1/agent/commands/${id}/progress`, { logs: [{ stream: 'info', line: 'made up' }] }, await asAgent(agent));
    expect(progress.status).toBe(409);
    expect(progress.body.error.details).toEqual({ reason: 'not_delivered', status: 'pending' });
    const result = await stack.client().post(`/v1/agent/commands/${id}/result`, { status: 'succeeded', result: { removed: true } }, await asAgent(agent));
    expect(result.status).toBe(409);
    expect(result.body.error.details).toEqual({ reason: 'not_delivered', status: 'pending' });
    expect((await AgentCommandRow.query(stack.ctx.db).findById(id))!.status).toBe('pending');
  });

  it('takes them once delivered; after the result, progress is refused and the same result is accepted again', async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const id = await queued(agent, 'delivered');
    await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent));
    expect((await stack.client().post(`/v1/agent/commands/${id}/progress`, { logs: [] }, await asAgent(agent))).status).toBe(200);
    expect(
      (await stack.client().post(`/v1/agent/commands/${id}/result`, { status: 'succeeded', result: { removed: true } }, await asAgent(agent))).status,
    ).toBe(200);
    const late = await stack.client().post(`/v1/agent/commands/${id}/progress`, { logs: [] }, await asAgent(agent));
    expect(late.status).toBe(409);
    expect(late.body.error.details).toEqual({ reason: 'not_delivered', status: 'succeeded' });
    expect(
      (await stack.client().post(`/v1/agent/commands/${id}/result`, { status: 'succeeded', result: { removed: true } }, await asAgent(agent))).status,
    ).toBe(200);
  });

  it('takes the journaled result of a redelivered command', async () => {
    const agent = await enrolledAgent(stack, { ip: freshIp() });
    const id = await queued(agent, 'redelivered');
    await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent));
    await AgentCommandRow.query(stack.ctx.db)
      .patch({ lease_until: new Date(Date.now() - 1000) })
      .where({ id });
    // the lease ran out but nothing claimed it again yet: still delivered to this node
    expect((await AgentCommandRow.query(stack.ctx.db).findById(id))!.status).toBe('delivered');
    const again = await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent));
    expect(again.body.data.commands).toEqual([expect.objectContaining({ id, delivery: 2 })]);
    expect(
      (await stack.client().post(`/v1/agent/commands/${id}/result`, { status: 'failed', error: { message: 'journaled' } }, await asAgent(agent))).status,
    ).toBe(200);
    expect((await AgentCommandRow.query(stack.ctx.db).findById(id))!.status).toBe('failed');
  });
});
