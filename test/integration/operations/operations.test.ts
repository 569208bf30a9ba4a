import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Operation, OperationStep } from '../../../shared/db/models.ts';
import { z } from 'zod';
import { operationKind } from '../../../shared/domains/operations/operation-kind.ts';
import { insertOperations, startOperation } from '../../../shared/domains/operations/operations.ts';
import { enqueue } from '../../../shared/jobs/queues.ts';
import { OPERATIONS_QUEUE } from '../../../shared/jobs/operation.jobs.ts';
import { startWorkers, type RunningWorkers } from '../../../workers/main.ts';
import { runnableKind, StepFailed } from '../../../workers/operations/runbook.ts';
import { sweepOperations } from '../../../workers/operations/sweep.processor.ts';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, workerDepsOf, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

/** Each test's runbook records what its steps did here, keyed by the operation's `input.tag`. */
const runs = new Map<string, string[]>();
const gates = new Map<string, { open(): void; opened: Promise<void> }>();

function gate(name: string): Promise<void> {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gates.set(name, { open, opened });
  return opened;
}

type PipelineInput = {
  tag: string;
  failApplyTimes?: number | undefined;
  permanent?: boolean | undefined;
  unexpected?: boolean | undefined;
  waitOn?: string | undefined;
};
const record = (input: { tag: string }, entry: string) => runs.set(input.tag, [...(runs.get(input.tag) ?? []), entry]);

/** Three steps: the second reads the first's checkpoint, fails as the input says, or waits on a gate. */
const pipelineKind = operationKind({
  kind: 'test.pipeline',
  input: z.object({
    tag: z.string(),
    failApplyTimes: z.number().optional(),
    permanent: z.boolean().optional(),
    unexpected: z.boolean().optional(),
    waitOn: z.string().optional(),
  }),
  steps: [{ name: 'prepare' }, { name: 'apply', cancellable: true }, { name: 'verify' }],
  deadlineSeconds: 30 * 60,
});
const pipeline = runnableKind(pipelineKind, {
  steps: {
    async prepare({ input, log }) {
      record(input, 'prepare');
      await log('prepared the thing', 'stdout');
      return { prepared: `${input.tag}-ready` };
    },
    async apply({ input, results, attempt }) {
      record(input, `apply#${attempt}`);
      if (input.waitOn) await gates.get(input.waitOn)?.opened;
      if (input.unexpected) throw new TypeError('cannot read properties of undefined (reading secretThing) at /srv/internal.ts');
      if (input.permanent)
        throw new StepFailed('The host refused the key berth@node', { permanent: true, exitCode: 255, stderrTail: 'Permission denied (publickey).' });
      if (attempt <= (input.failApplyTimes ?? 0)) throw new StepFailed(`transient trouble #${attempt}`);
      return { applied: (results.prepare as { prepared: string }).prepared };
    },
    async verify({ input, results }) {
      record(input, 'verify');
      return { verified: (results.apply as { applied: string }).applied };
    },
  },
});

/** One step that cannot be interrupted, waiting on a gate. */
const rigidKind = operationKind({
  kind: 'test.rigid',
  input: z.object({ tag: z.string(), waitOn: z.string().optional() }),
  steps: [{ name: 'migrate' }],
  deadlineSeconds: 30 * 60,
});
const rigid = runnableKind(rigidKind, {
  steps: {
    async migrate({ input }) {
      record(input, 'migrate');
      if (input.waitOn) await gates.get(input.waitOn)?.opened;
      return null;
    },
  },
});

let stack: Stack;
let owner: TestUser;
let token: string;
beforeAll(async () => {
  stack = await startStack({
    operationKinds: [pipeline, rigid],
    env: { OPERATION_RETRY_DELAY_MS: '50', OPERATION_ATTEMPTS: '3', OPERATION_LOCK_MS: '1500', OPERATION_SWEEP_INTERVAL_MS: '600000' },
  });
  owner = await createOwner(stack.ctx.db);
  token = await accessTokenOf(stack.client(), owner);
});
afterAll(async () => {
  for (const { open } of gates.values()) open();
  await stack?.stop();
});

type StartOptions = { serialKeys?: string[]; kind?: typeof pipelineKind | typeof rigidKind; deadlineSeconds?: number; dispatch?: boolean };

/** An operation of a test kind, written as every operation is; handed to the workers unless `dispatch` is false. */
async function start(input: PipelineInput, options: StartOptions = {}): Promise<Operation> {
  const kind = options.kind ?? pipelineKind;
  const spec = options.deadlineSeconds === undefined ? kind : { ...kind, deadlineSeconds: options.deadlineSeconds };
  const [operation] = await stack.ctx.db.transaction((trx) =>
    insertOperations(trx, spec, [{ input, start: { teamId: owner.teamId, target: { type: 'thing', id: 7 }, serialKeys: options.serialKeys ?? [] } }]),
  );
  if (options.dispatch !== false) await dispatch(operation!);
  return operation!;
}

/** What startOperation does after commit (and the sweeper for an operation it finds without a job). */
const dispatch = (operation: Pick<Operation, 'id'>) => enqueue(stack.ctx.queues, 'operation.run', { operationId: operation.id }, { jobId: operation.id });

async function read(id: string): Promise<any> {
  const reply = await stack.client().get(`/v1/operations/${id}`, bearer(token));
  expect(reply.status).toBe(200);
  return reply.body.data;
}

/** Reads the operation until `done` holds for it; a timeout shows the last reading. */
async function readUntil(id: string, done: (operation: any) => boolean, what: string, timeoutMs = 20_000): Promise<any> {
  let last: unknown;
  return until(
    async () => {
      last = await read(id);
      return done(last) ? last : null;
    },
    () => `${what}: ${JSON.stringify(last)}`,
    timeoutMs,
    50,
  );
}

const finished = (operation: any) => ['succeeded', 'failed', 'cancelled'].includes(operation.status);

describe('an operation, end to end', () => {
  it('is readable at once, then runs its steps in order, passing checkpoints, to succeeded', async () => {
    const tag = unique('happy');
    const operation = await start({ tag }, { dispatch: false });
    const queued = await read(operation.id);
    expect(queued).toMatchObject({ status: 'queued', progress: 0, kind: 'test.pipeline', target: { type: 'thing', id: '7' }, error: null });
    expect(queued.steps.map((step: { name: string; status: string }) => `${step.name}:${step.status}`)).toEqual([
      'prepare:pending',
      'apply:pending',
      'verify:pending',
    ]);

    await dispatch(operation);
    const done = await readUntil(operation.id, finished, 'the operation to finish');
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, result: { verified: `${tag}-ready` }, attempts: 1 });
    expect(
      done.steps.every(
        (step: { status: string; started_at: string; finished_at: string }) => step.status === 'succeeded' && step.started_at <= step.finished_at,
      ),
    ).toBe(true);
    expect(done.logs).toContainEqual(expect.objectContaining({ step: 'prepare', stream: 'stdout', line: 'prepared the thing' }));
    expect(runs.get(tag)).toEqual(['prepare', 'apply#1', 'verify']);
  });

  it('retries a failing step after its backoff without running the finished steps again', async () => {
    const tag = unique('retry');
    const operation = await start({ tag, failApplyTimes: 2 });
    const done = await readUntil(operation.id, finished, 'the operation to finish');
    expect(done.status).toBe('succeeded');
    expect(runs.get(tag)).toEqual(['prepare', 'apply#1', 'apply#2', 'apply#3', 'verify']);
    expect(done.steps.find((step: { name: string }) => step.name === 'apply').attempts).toBe(3);
    expect(done.logs.filter((log: { stream: string }) => log.stream === 'stderr').map((log: { line: string }) => log.line)).toEqual([
      'apply: transient trouble #1',
      'apply: transient trouble #2',
    ]);
  });

  it('fails at once on a permanent failure, naming the step, the message, the exit code and the stderr tail; the job is kept', async () => {
    const tag = unique('permanent');
    const operation = await start({ tag, permanent: true });
    const done = await readUntil(operation.id, finished, 'the operation to finish');
    expect(done).toMatchObject({
      status: 'failed',
      error: { step: 'apply', message: 'The host refused the key berth@node', exit_code: 255, stderr_tail: 'Permission denied (publickey).' },
    });
    expect(done.steps.map((step: { status: string }) => step.status)).toEqual(['succeeded', 'failed', 'cancelled']);
    expect(runs.get(tag)).toEqual(['prepare', 'apply#1']);
    const job = await stack.ctx.queues.get('operations').getJob(operation.id);
    expect(await job?.getState()).toBe('failed');
  });

  it('gives an unexpected error a message without internals once the tries are spent', async () => {
    const tag = unique('unexpected');
    const operation = await start({ tag, unexpected: true });
    const done = await readUntil(operation.id, finished, 'the operation to finish');
    expect(done.status).toBe('failed');
    expect(done.error.step).toBe('apply');
    expect(done.error.message).toContain(operation.id);
    expect(JSON.stringify(done)).not.toMatch(/secretThing|internal\.ts|TypeError/);
    expect(runs.get(tag)).toEqual(['prepare', 'apply#1', 'apply#2', 'apply#3']);
  });
});

describe('inputs checked against the kind', () => {
  it('refuses to start an operation whose input its kind does not take, and writes nothing', async () => {
    const target = { type: 'environment', id: 990_001 };
    const count = () =>
      Operation.query(stack.ctx.db)
        .where({ team_id: owner.teamId, target_type: target.type, target_id: String(target.id) })
        .resultSize();
    const bad = { site_id: 1, environment_id: target.id, backup_id: 'not-a-uuid' };
    await expect(stack.ctx.db.transaction((trx) => startOperation(trx, stack.ctx, 'backup.create', bad, { teamId: owner.teamId, target }))).rejects.toThrow(
      /backup_id/,
    );
    expect(await count()).toBe(0);
  });

  it('fails an operation whose stored input its kind does not take (made by another version) before any step runs', async () => {
    const tag = unique('foreign-input');
    const operation = await start({ tag }, { dispatch: false });
    await stack.ctx
      .db('operations')
      .where({ id: operation.id })
      .update({ input: JSON.stringify({ tag: 42 }) });
    await dispatch(operation);
    const done = await readUntil(operation.id, finished, 'the operation to end');
    expect(done).toMatchObject({ status: 'failed', error: { step: null } });
    expect(done.error.message).toMatch(/^This operation's input does not match what test\.pipeline takes \(tag: /);
    expect(done.steps.map((step: { status: string }) => step.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(runs.get(tag)).toBeUndefined();
  });
});

describe('one at a time per serial key', () => {
  it('starts the second operation only when the first has finished', async () => {
    const first = unique('first');
    const second = unique('second');
    const serialKey = unique('environment');
    gate(first);
    const a = await start({ tag: first, waitOn: first }, { serialKeys: [serialKey] });
    const b = await start({ tag: second }, { serialKeys: [serialKey] });
    await readUntil(a.id, (operation) => operation.steps[1].status === 'running', 'the first to reach apply');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await read(b.id)).status).toBe('queued');
    expect(runs.get(second)).toBeUndefined();
    gates.get(first)!.open();
    await readUntil(b.id, finished, 'the second to finish');
    const [doneA, doneB] = [await read(a.id), await read(b.id)];
    expect([doneA.status, doneB.status]).toEqual(['succeeded', 'succeeded']);
    expect(doneB.started_at >= doneA.finished_at).toBe(true);
  });

  it('never runs two at once when the one committed last carries the earlier creation time', async () => {
    const key = unique('environment');
    const [slow, fast] = [unique('slow'), unique('fast')];
    gate(fast);
    // the slow one's transaction begins first (its created_at), and commits after the fast one has started
    const trx = await stack.ctx.db.transaction();
    await trx.raw('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = await start({ tag: fast, waitOn: fast }, { serialKeys: [key] });
    await readUntil(b.id, (operation) => operation.steps[1].status === 'running', 'the fast one to reach apply');
    const [a] = await insertOperations(trx, pipelineKind, [
      { input: { tag: slow }, start: { teamId: owner.teamId, target: { type: 'thing', id: 7 }, serialKeys: [key] } },
    ]);
    if (!a) throw new Error('no operation written');
    await trx.commit();
    await dispatch(a);
    expect(Date.parse((await read(a.id)).created_at)).toBeLessThan(Date.parse((await read(b.id)).created_at));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await read(a.id)).status).toBe('queued');
    expect(runs.get(slow)).toBeUndefined();
    gates.get(fast)!.open();
    await readUntil(a.id, finished, 'the slow one to finish');
    const [doneA, doneB] = [await read(a.id), await read(b.id)];
    expect([doneA.status, doneB.status]).toEqual(['succeeded', 'succeeded']);
    expect(doneA.started_at >= doneB.finished_at).toBe(true);
  });

  it('makes an operation holding several keys wait for any older one sharing a key, and no other', async () => {
    const [source, target, elsewhere] = [unique('source'), unique('target'), unique('elsewhere')];
    const [holder, copy, unrelated] = [unique('holder'), unique('copy'), unique('unrelated')];
    gate(holder);
    const a = await start({ tag: holder, waitOn: holder }, { serialKeys: [target] });
    const b = await start({ tag: copy }, { serialKeys: [source, target] });
    const c = await start({ tag: unrelated }, { serialKeys: [source, elsewhere] });
    await readUntil(a.id, (operation) => operation.steps[1].status === 'running', 'the holder to reach apply');
    // c shares `source` with b, which is older and still queued: c waits for b, b waits for a
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([(await read(b.id)).status, (await read(c.id)).status]).toEqual(['queued', 'queued']);
    const free = await start({ tag: unique('free') }, { serialKeys: [elsewhere + '-x'] });
    expect((await readUntil(free.id, finished, 'an operation without a shared key to finish')).status).toBe('succeeded');
    gates.get(holder)!.open();
    await readUntil(c.id, finished, 'the last to finish');
    const [doneA, doneB, doneC] = [await read(a.id), await read(b.id), await read(c.id)];
    expect([doneA.status, doneB.status, doneC.status]).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(doneB.started_at >= doneA.finished_at).toBe(true);
    expect(doneC.started_at >= doneB.finished_at).toBe(true);
  });
});

describe('POST /v1/operations/{id}/cancel', () => {
  it('cancels a queued operation at once', async () => {
    const operation = await start({ tag: unique('queued') }, { dispatch: false });
    const reply = await stack.client().post(`/v1/operations/${operation.id}/cancel`, undefined, bearer(token));
    expect(reply.status).toBe(200);
    expect(reply.body.data.status).toBe('cancelled');
    expect(reply.body.data.steps.every((step: { status: string }) => step.status === 'cancelled')).toBe(true);
  });

  it('stops a running operation before its next step when the step allows it', async () => {
    const tag = unique('stoppable');
    gate(tag);
    const operation = await start({ tag, waitOn: tag });
    await readUntil(operation.id, (current) => current.steps[1].status === 'running', 'apply to run');
    const reply = await stack.client().post(`/v1/operations/${operation.id}/cancel`, undefined, bearer(token));
    expect(reply.status).toBe(200);
    expect(reply.body.data.status).toBe('running');
    expect(reply.body.data.cancel_requested_at).not.toBeNull();
    gates.get(tag)!.open();
    const done = await readUntil(operation.id, finished, 'the cancellation');
    expect(done.status).toBe('cancelled');
    expect(done.steps.map((step: { status: string }) => step.status)).toEqual(['succeeded', 'succeeded', 'cancelled']);
    expect(runs.get(tag)).toEqual(['prepare', 'apply#1']);
  });

  it('refuses with 409 while a step that cannot be interrupted runs, and once finished', async () => {
    const tag = unique('rigid');
    gate(tag);
    const operation = await start({ tag, waitOn: tag }, { kind: rigidKind });
    await readUntil(operation.id, (current) => current.steps[0].status === 'running', 'migrate to run');
    const refused = await stack.client().post(`/v1/operations/${operation.id}/cancel`, undefined, bearer(token));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('migrate');
    gates.get(tag)!.open();
    await readUntil(operation.id, finished, 'the operation to finish');
    const late = await stack.client().post(`/v1/operations/${operation.id}/cancel`, undefined, bearer(token));
    expect(late.status).toBe(409);
  });
});

describe('who sees operations', () => {
  it("lists the team's operations with filters and pagination; another team's id is 404", async () => {
    const other = await createOwner(stack.ctx.db);
    const [foreign] = await stack.ctx.db.transaction((trx) =>
      insertOperations(trx, pipelineKind, [{ input: { tag: unique('foreign') }, start: { teamId: other.teamId, target: { type: 'thing', id: 1 } } }]),
    );
    if (!foreign) throw new Error('no operation written');
    const reply = await stack.client().get('/v1/operations?status=succeeded&kind=test.pipeline&page_size=2', bearer(token));
    expect(reply.status).toBe(200);
    expect(reply.body.data.length).toBeLessThanOrEqual(2);
    expect(reply.body.pagination).toMatchObject({ page: 1, page_size: 2 });
    expect(reply.body.pagination.total).toBeGreaterThanOrEqual(2);
    expect(reply.body.data.every((operation: { status: string }) => operation.status === 'succeeded')).toBe(true);
    const ids = (await stack.client().get('/v1/operations?page_size=100', bearer(token))).body.data.map((operation: { id: string }) => operation.id);
    expect(ids).not.toContain(foreign.id);
    for (const path of [`/v1/operations/${foreign.id}`, '/v1/operations/not-a-uuid']) {
      const missing = await stack.client().get(path, bearer(token));
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    }
    expect((await stack.client().post(`/v1/operations/${foreign.id}/cancel`, undefined, bearer(token))).status).toBe(404);
    expect((await stack.client().get('/v1/operations?status=sleeping', bearer(token))).status).toBe(422);
  });

  it('lets a viewer read but not cancel', async () => {
    const viewerRole = await stack.ctx.db('roles').whereNull('team_id').where({ name: 'viewer' }).first('id');
    await stack.ctx.db('memberships').where({ team_id: owner.teamId, user_id: owner.userId }).update({ role_id: viewerRole.id });
    try {
      const operation = await start({ tag: unique('viewer') }, { dispatch: false });
      expect((await stack.client().get(`/v1/operations/${operation.id}`, bearer(token))).status).toBe(200);
      const refused = await stack.client().post(`/v1/operations/${operation.id}/cancel`, undefined, bearer(token));
      expect(refused.status).toBe(403);
      expect(refused.body.error.details.permission).toBe('operations:cancel');
    } finally {
      const ownerRole = await stack.ctx.db('roles').whereNull('team_id').where({ name: 'owner' }).first('id');
      await stack.ctx.db('memberships').where({ team_id: owner.teamId, user_id: owner.userId }).update({ role_id: ownerRole.id });
    }
  });
});

describe('nothing stays stuck', () => {
  const sweeperDeps = () => workerDepsOf(stack, [pipeline, rigid]);

  it('enqueues an operation whose job never was (a crash between commit and enqueue)', async () => {
    const tag = unique('orphan');
    const operation = await start({ tag }, { dispatch: false });
    const early = await sweepOperations(sweeperDeps());
    expect(early.requeued).not.toContain(operation.id);
    const later = await sweepOperations(sweeperDeps(), new Date(Date.now() + 60_000));
    expect(later.requeued).toContain(operation.id);
    expect((await readUntil(operation.id, finished, 'the swept operation')).status).toBe('succeeded');
  });

  it('fails a running operation past its deadline, naming the step it was in', async () => {
    const tag = unique('late');
    gate(tag);
    const operation = await start({ tag, waitOn: tag }, { deadlineSeconds: 1 });
    await readUntil(operation.id, (current) => current.steps[1].status === 'running', 'apply to run');
    const swept = await sweepOperations(sweeperDeps(), new Date(Date.now() + 5_000));
    expect(swept.timedOut).toContain(operation.id);
    const failed = await read(operation.id);
    expect(failed).toMatchObject({ status: 'failed', error: { step: 'apply', message: 'Did not finish within its deadline of 1 s' } });
    gates.get(tag)!.open();
    // the job that was running it has ended (its id is the operation's): nothing more will run for it
    const job = (await stack.ctx.queues.get(OPERATIONS_QUEUE).getJob(operation.id))!;
    await until(async () => ['completed', 'failed'].includes(await job.getState()), 'the job to end', 20_000, 50);
    expect((await read(operation.id)).status).toBe('failed');
    expect(runs.get(tag)).toEqual(['prepare', 'apply#1']);
  });

  it('resumes after the last finished step when the worker running it dies', async () => {
    const tag = unique('crash');
    gate(tag); // never opened for the first worker: it "dies" inside apply
    const operation = await start({ tag, waitOn: tag });
    await readUntil(operation.id, (current) => current.steps[1].status === 'running', 'apply to run');
    await stack.workers!.close({ force: true });
    gates.delete(tag); // the next run of apply does not wait
    let replacement: RunningWorkers | undefined;
    try {
      replacement = await startWorkers(stack.ctx, stack.mailer, { operationKinds: [pipeline, rigid] });
      const done = await readUntil(operation.id, finished, 'the resumed operation', 30_000);
      expect(done.status).toBe('succeeded');
      expect(runs.get(tag)).toEqual(['prepare', 'apply#1', 'apply#2', 'verify']);
      const steps = await OperationStep.query(stack.ctx.db).where({ operation_id: operation.id }).orderBy('position');
      expect(steps.map((step) => step.attempts)).toEqual([1, 2, 1]);
      expect((await Operation.query(stack.ctx.db).findById(operation.id))!.attempts).toBe(2);
    } finally {
      await replacement?.close();
    }
  });
});
