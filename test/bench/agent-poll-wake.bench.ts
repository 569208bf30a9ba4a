/**
 * How soon a waiting agent long-poll (`GET /v1/agent/commands?wait=20`) answers once a command is
 * queued for its node: the Redis signal wakes it (without it, the poll looks again every 5 s). The
 * baseline, measured in the same run, is a poll that finds the command queued already (answered at
 * once): the wake-up's cost is the difference. This figure was a timed assertion in
 * test/integration/agent/agent-api.test.ts ("wakes a waiting long-poll", under 10 s).
 *   npm run bench -- test/bench/agent-poll-wake.bench.ts      (BENCH_ROUNDS, default 30)
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { AGENT_TOKEN_AUDIENCE, PROTOCOL_VERSION } from '../../shared/agent-protocol/protocol.ts';
import { createDb } from '../../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { queueAgentCommand } from '../../shared/domains/agent/agent-commands.ts';
import { signalTopics } from '../../shared/domains/agent/signals.ts';
import { issueEnrollmentToken } from '../../shared/domains/nodes/enrollment.ts';
import { unique } from '../helpers/factories.ts';
import { median } from '../helpers/measure.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';
import { reportFigure } from './report.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const setup = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(setup);
await setup.destroy();

const stack = await startStack({ workers: false });
const protocol = { 'berth-agent-protocol': String(PROTOCOL_VERSION) };

// the poll is waiting once the API waits on the node's signal: counted here, as the test observes it
const signals = stack.ctx.signals;
const realWait = signals.wait.bind(signals);
const waits = new Map<string, number>();
signals.wait = (topic, ms, abort) => {
  waits.set(topic, (waits.get(topic) ?? 0) + 1);
  return realWait(topic, ms, abort);
};

try {
  const [node] = await stack.ctx
    .db('nodes')
    .insert({ name: unique('bench-node'), region: 'bench', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root' })
    .returning('id');
  const nodeId = node.id as string;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const facts = { hostname: 'bench', os: 'Debian GNU/Linux 12 (bookworm)', arch: 'x86_64', docker: { version: '4.3.1', api_version: '1.41' } };
  const enrolled = await stack
    .client()
    .post(
      '/v1/agent/enroll',
      { enrollment_token: await issueEnrollmentToken(stack.ctx.db, nodeId), public_key: publicKey.export({ format: 'jwk' }), agent_version: '0.1.0', facts },
      { headers: protocol },
    );
  if (enrolled.status !== 200) throw new Error(`enrollment answered ${enrolled.status}: ${JSON.stringify(enrolled.body)}`);
  const token = () =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: nodeId })
      .setSubject(nodeId)
      .setAudience(AGENT_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
      .setJti(unique('jti'))
      .sign(privateKey);
  const queue = () =>
    queueAgentCommand(stack.ctx, {
      id: unique('bench'),
      nodeId,
      operationId: null,
      kind: 'runtime.info',
      payload: {},
      deadlineAt: new Date(Date.now() + 60_000),
    });
  const poll = async () => {
    const reply = await fetch(`${stack.api.url}/v1/agent/commands?wait=20`, { headers: { ...protocol, authorization: `Bearer ${await token()}` } });
    const body = (await reply.json()) as { data: { commands: unknown[] } };
    if (reply.status !== 200 || body.data.commands.length !== 1) throw new Error(`the poll answered ${reply.status} with ${JSON.stringify(body)}`);
  };

  const baseline: number[] = [];
  const woken: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // baseline: the command is there when the poll comes
    await queue();
    let at = performance.now();
    await poll();
    baseline.push(performance.now() - at);

    // woken: the poll waits first, then the command is queued
    const topic = signalTopics.nodeHasWork(nodeId);
    const before = waits.get(topic) ?? 0;
    const answered = poll();
    while ((waits.get(topic) ?? 0) === before) await new Promise((resolve) => setTimeout(resolve, 2));
    at = performance.now();
    await queue();
    await answered;
    woken.push(performance.now() - at);
  }
  const max = (values: number[]) => Math.max(...values);
  console.log(`\nagent long-poll, ${rounds} rounds, API in this process`);
  console.log(`  baseline (command queued before the poll), poll to answer: median ${median(baseline).toFixed(1)} ms, max ${max(baseline).toFixed(1)} ms`);
  console.log(
    `  waiting poll woken, queue to answer:                      median ${median(woken).toFixed(1)} ms, max ${max(woken).toFixed(1)} ms, ${(median(woken) / median(baseline)).toFixed(2)}x the baseline`,
  );
  // goal: a woken poll answers within a Redis round trip or two of a poll that found the command waiting
  reportFigure({
    name: 'agent long-poll woken, queue to answer (median)',
    measured: median(woken),
    unit: 'ms',
    floor: median(baseline),
    floorWhat: 'poll that finds the command queued',
    goal: { measuredAtMost: 50 },
  });
} finally {
  await stack.stop();
}
