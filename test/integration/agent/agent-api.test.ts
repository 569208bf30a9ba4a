import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentCommandRow, Node } from '../../../shared/db/models.ts';
import { MIN_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../../../shared/agent-protocol/protocol.ts';
import { signalTopics } from '../../../shared/domains/agent/signals.ts';
import { recordExportOwner, RELAYED_HEADER } from '../../../shared/domains/backups/export-relay.ts';
import { issueEnrollmentToken } from '../../../shared/domains/nodes/enrollment.ts';
import { insertTestOperation, testKind } from '../../helpers/test-operations.ts';
import { runAgentCommand } from '../../../workers/agent/run-command.ts';
import { StepFailed } from '../../../workers/operations/runbook.ts';
import { agentFacts, agentProtocol, asAgent, enrolledAgent, nodeRow } from '../../helpers/enrolled-agent.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

const metrics = {
  cpu_percent: 3.5,
  load_average: [0.1, 0.2, 0.3],
  memory: { total_bytes: 8e9, used_bytes: 2e9 },
  disk: { total_bytes: 1e11, used_bytes: 4e10, path: '/var/lib/berth' },
  containers: { running: 1, total: 2 },
};

async function operationFor(): Promise<{ id: string }> {
  return insertTestOperation(stack.ctx.db, testKind('test.agent'), { teamId: null, target: { type: 'node', id: 'x' } });
}

describe('enrollment', () => {
  it('refuses a missing or unknown protocol version with 426 and the supported range', async () => {
    const variants: Array<Record<string, string>> = [{}, { 'berth-agent-protocol': '1' }, { 'berth-agent-protocol': '99' }, { 'berth-agent-protocol': 'one' }];
    for (const headers of variants) {
      const reply = await stack.client().post('/v1/agent/enroll', {}, { headers });
      expect(reply.status).toBe(426);
      expect(reply.body.error.code).toBe('PROTOCOL_MISMATCH');
      expect(reply.body.error.details.supported).toEqual({ min: MIN_PROTOCOL_VERSION, max: PROTOCOL_VERSION });
    }
  });

  it('consumes the one-time token: a second enrollment with it is 401', async () => {
    const nodeId = await nodeRow(stack);
    const enrollmentToken = await issueEnrollmentToken(stack.ctx.db, nodeId);
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const body = { enrollment_token: enrollmentToken, public_key: jwk, agent_version: '0.1.0', facts: agentFacts };
    expect((await stack.client().post('/v1/agent/enroll', body, { headers: agentProtocol })).status).toBe(200);
    const again = await stack.client().post('/v1/agent/enroll', body, { headers: agentProtocol });
    expect(again.status).toBe(401);
    const row = await Node.query(stack.ctx.db).findById(nodeId);
    expect(row!.enrollment_token_hash).toBeNull();
    expect(row!.public_key).toEqual(jwk);
    expect(row!.status).toBe('enrolling');
  });

  it('rejects a body that is not a valid enrollment with 422', async () => {
    const reply = await stack
      .client()
      .post(
        '/v1/agent/enroll',
        { enrollment_token: 'x'.repeat(30), public_key: { kty: 'RSA' }, agent_version: '1', facts: agentFacts },
        { headers: agentProtocol },
      );
    expect(reply.status).toBe(422);
    expect(reply.body.error.details.fields.map((field: { field: string }) => field.field)).toContain('public_key.kty');
  });
});

describe('agent tokens', () => {
  it("accepts the node's own short-lived token and turns the node online at the first heartbeat", async () => {
    const agent = await enrolledAgent(stack);
    const reply = await stack.client().post('/v1/agent/heartbeat', { agent_version: '0.1.0', metrics }, await asAgent(agent));
    expect(reply.status).toBe(200);
    expect(reply.body.data.node_status).toBe('online');
    const node = await Node.query(stack.ctx.db).findById(agent.nodeId);
    expect(node!.metrics).toMatchObject({ cpu_percent: 3.5 });
    expect(node!.last_heartbeat_at).not.toBeNull();
  });

  it("refuses another key, another node's kid, a long-lived token, a wrong audience and no token", async () => {
    const agent = await enrolledAgent(stack);
    const other = await enrolledAgent(stack);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const tokens = [
      await agent.token({ key: stranger }),
      await agent.token({ kid: other.nodeId }),
      await agent.token({ lifetime: 3600 }),
      await agent.token({ audience: 'someone-else' }),
      await agent.token({ lifetime: -60 }),
    ];
    for (const token of tokens) {
      const reply = await stack
        .client()
        .post('/v1/agent/heartbeat', { agent_version: '0.1.0', metrics }, { headers: { ...agentProtocol, authorization: `Bearer ${token}` } });
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
    }
    expect((await stack.client().post('/v1/agent/heartbeat', { agent_version: '0.1.0', metrics }, { headers: agentProtocol })).status).toBe(401);
  });

  it('cuts a disabled node off at its next request', async () => {
    const agent = await enrolledAgent(stack);
    expect((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent))).status).toBe(200);
    await Node.query(stack.ctx.db).patch({ status: 'disabled' }).where({ id: agent.nodeId });
    const reply = await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent));
    expect(reply.status).toBe(403);
    expect(reply.body.error.details.reason).toBe('node_disabled');
  });
});

describe('commands', () => {
  it('wakes a waiting long-poll, streams progress into the operation log, and hands the result to the waiting step', async () => {
    const agent = await enrolledAgent(stack);
    const operation = await operationFor();
    // the poll is waiting once the API waits for the node's signal (found nothing, holds the request)
    const signalWait = vi.spyOn(stack.ctx.signals, 'wait');
    const poll = stack.client().get('/v1/agent/commands?wait=20', await asAgent(agent));
    try {
      await until(
        async () => signalWait.mock.calls.some(([topic]) => topic === signalTopics.nodeHasWork(agent.nodeId)),
        "the long poll to wait on its node's topic",
        10_000,
        50,
      );
    } finally {
      signalWait.mockRestore();
    }
    const waiting = runAgentCommand(stack.ctx, {
      operation,
      step: 'work',
      nodeId: agent.nodeId,
      kind: 'container.remove',
      payload: { name: 'site-1' },
      timeoutSeconds: 30,
    });
    // how soon the wake-up answers is a figure: test/bench/agent-poll-wake.bench.ts
    const delivered = await poll;
    expect(delivered.status).toBe(200);
    expect(delivered.body.data.commands).toEqual([
      expect.objectContaining({ id: `${operation.id}:work`, kind: 'container.remove', payload: { name: 'site-1' }, delivery: 1 }),
    ]);

    const progress = await stack
      .client()
      .post(`/v1/agent/commands/${operation.id}:work/progress`, { logs: [{ stream: 'stdout', line: 'removing site-1' }] }, await asAgent(agent));
    expect(progress.status).toBe(200);
    const result = await stack
      .client()
      .post(`/v1/agent/commands/${operation.id}:work/result`, { status: 'succeeded', result: { removed: true } }, await asAgent(agent));
    expect(result.status).toBe(200);
    await expect(waiting).resolves.toEqual({ removed: true });

    const logs = await stack.ctx.db('operation_logs').where({ operation_id: operation.id }).select('step', 'stream', 'line');
    expect(logs).toEqual([{ step: 'work', stream: 'stdout', line: 'removing site-1' }]);
    // A lost answer: the same outcome again is fine, another outcome is a conflict.
    expect(
      (await stack.client().post(`/v1/agent/commands/${operation.id}:work/result`, { status: 'succeeded', result: { removed: true } }, await asAgent(agent)))
        .status,
    ).toBe(200);
    expect(
      (await stack.client().post(`/v1/agent/commands/${operation.id}:work/result`, { status: 'failed', error: { message: 'no' } }, await asAgent(agent)))
        .status,
    ).toBe(409);
  });

  it("never shows one node's commands to another, nor lets it answer them", async () => {
    const a = await enrolledAgent(stack);
    const b = await enrolledAgent(stack);
    const operation = await operationFor();
    const waiting = runAgentCommand(stack.ctx, {
      operation,
      step: 'work',
      nodeId: b.nodeId,
      kind: 'container.remove',
      payload: { name: 'x' },
      timeoutSeconds: 30,
    });
    await until(async () => (await AgentCommandRow.query(stack.ctx.db).findById(`${operation.id}:work`)) !== undefined, "the step's command row", 10_000, 50);
    const seenByA = await stack.client().get('/v1/agent/commands?wait=0', await asAgent(a));
    expect(seenByA.body.data.commands).toEqual([]);
    for (const path of ['progress', 'result']) {
      const body = path === 'progress' ? { logs: [] } : { status: 'succeeded', result: { removed: true } };
      const reply = await stack.client().post(`/v1/agent/commands/${operation.id}:work/${path}`, body, await asAgent(a));
      expect(reply.status).toBe(404);
    }
    const seenByB = await stack.client().get('/v1/agent/commands?wait=0', await asAgent(b));
    expect(seenByB.body.data.commands.map((command: { id: string }) => command.id)).toEqual([`${operation.id}:work`]);
    await stack.client().post(`/v1/agent/commands/${operation.id}:work/result`, { status: 'succeeded', result: { removed: false } }, await asAgent(b));
    await expect(waiting).resolves.toEqual({ removed: false });
  });

  it('delivers a command again once its lease has run out, with the same id', async () => {
    const agent = await enrolledAgent(stack);
    const operation = await operationFor();
    const waiting = runAgentCommand(stack.ctx, {
      operation,
      step: 'work',
      nodeId: agent.nodeId,
      kind: 'container.stop',
      payload: { name: 'x' },
      timeoutSeconds: 30,
    });
    const first = await stack.client().get('/v1/agent/commands?wait=5', await asAgent(agent));
    expect(first.body.data.commands[0].delivery).toBe(1);
    expect((await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent))).body.data.commands).toEqual([]);
    await AgentCommandRow.query(stack.ctx.db)
      .patch({ lease_until: new Date(Date.now() - 1000) })
      .where({ id: `${operation.id}:work` });
    const second = await stack.client().get('/v1/agent/commands?wait=0', await asAgent(agent));
    expect(second.body.data.commands).toEqual([expect.objectContaining({ id: `${operation.id}:work`, delivery: 2 })]);
    await stack.client().post(`/v1/agent/commands/${operation.id}:work/result`, { status: 'succeeded', result: { stopped: true } }, await asAgent(agent));
    await expect(waiting).resolves.toEqual({ stopped: true });
  });

  it("fails the step with the agent's message, exit code and stderr; a retry of the step queues a fresh run", async () => {
    const agent = await enrolledAgent(stack);
    const operation = await operationFor();
    const request = {
      operation,
      step: 'work',
      nodeId: agent.nodeId,
      kind: 'container.exec' as const,
      payload: { name: 'x', cmd: ['false'] },
      timeoutSeconds: 30,
    };
    const first = runAgentCommand(stack.ctx, request);
    await stack.client().get('/v1/agent/commands?wait=5', await asAgent(agent));
    await stack
      .client()
      .post(
        `/v1/agent/commands/${operation.id}:work/result`,
        { status: 'failed', error: { message: 'exec exited 1', exit_code: 1, stderr_tail: 'boom' } },
        await asAgent(agent),
      );
    const error = await first.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StepFailed);
    expect(error).toMatchObject({ message: 'exec exited 1', exitCode: 1, stderrTail: 'boom', permanent: false });

    const retry = runAgentCommand(stack.ctx, request);
    const redelivered = await stack.client().get('/v1/agent/commands?wait=5', await asAgent(agent));
    expect(redelivered.body.data.commands.map((command: { id: string }) => command.id)).toEqual([`${operation.id}:work~2`]);
    await stack
      .client()
      .post(
        `/v1/agent/commands/${operation.id}:work~2/result`,
        { status: 'succeeded', result: { exit_code: 0, stdout: '', stderr: '' } },
        await asAgent(agent),
      );
    await expect(retry).resolves.toEqual({ exit_code: 0, stdout: '', stderr: '' });
  });

  it('gives up when the node does not pick the command up before its deadline', async () => {
    const nodeId = await nodeRow(stack);
    const operation = await operationFor();
    const error = await runAgentCommand(stack.ctx, { operation, step: 'work', nodeId, kind: 'runtime.info', payload: {}, timeoutSeconds: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StepFailed);
    expect((error as StepFailed).message).toMatch(/did not pick up runtime\.info within 1 s/);
  });

  it('refuses an agent result its schema does not allow', async () => {
    const agent = await enrolledAgent(stack);
    const reply = await stack.client().post('/v1/agent/commands/anything/result', { status: 'maybe' }, await asAgent(agent));
    expect(reply.status).toBe(422);
  });
});

describe('a stream part for a download another API process holds', () => {
  it("is forwarded, as it came (the agent's token, its body), to the process recorded for the stream; one forwarded once is not forwarded again", async () => {
    const agent = await enrolledAgent(stack);
    // plays the API process that holds the download
    const received: Array<{ url: string; authorization: string | undefined; relayed: string | undefined; body: string }> = [];
    const owner = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          authorization: req.headers.authorization,
          relayed: req.headers[RELAYED_HEADER] as string | undefined,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { ok: true }, meta: { timestamp: new Date().toISOString(), request_id: 'owner' } }));
      });
    });
    await new Promise<void>((resolve) => owner.listen(0, '127.0.0.1', resolve));
    try {
      const streamId = randomUUID();
      await recordExportOwner(stack.ctx.redis, stack.ctx.config.redisPrefix, streamId, `http://127.0.0.1:${(owner.address() as AddressInfo).port}`, 60);
      const options = await asAgent(agent, { raw: Buffer.from('part zero'), contentType: 'application/octet-stream' });
      const reply = await stack.client().request('POST', `/v1/agent/streams/${streamId}?part=0`, options);
      expect(reply.status).toBe(200);
      expect(reply.body.meta.request_id).toBe('owner');
      expect(received).toEqual([
        {
          url: `/v1/agent/streams/${streamId}?part=0`,
          authorization: (options.headers as Record<string, string>).authorization,
          relayed: '1',
          body: 'part zero',
        },
      ]);

      const looped = await stack.client().request('POST', `/v1/agent/streams/${streamId}?part=1`, {
        ...(await asAgent(agent, { raw: Buffer.from('part one'), contentType: 'application/octet-stream' })),
        headers: { ...(await asAgent(agent)).headers, [RELAYED_HEADER]: '1' },
      });
      expect(looped.status).toBe(404);
      expect(received).toHaveLength(1);
    } finally {
      owner.close();
    }
  });
});
