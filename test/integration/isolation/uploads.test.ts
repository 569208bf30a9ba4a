import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_LOCK_CLASS, uploadContent } from '../../../shared/domains/uploads/uploads.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { holdLockAlone } from '../../helpers/lock-barrier.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { bodyParts, streamedRequest } from '../../helpers/streamed-request.ts';
import { addMember } from '../../helpers/team-members.ts';
import { zipArchive } from '../../helpers/zip.ts';

const MiB = 1024 * 1024;
const MAX_BYTES = 4 * MiB;
const QUOTA_BYTES = 6 * MiB;
const QUOTA_COUNT = 3;
const ZIP_HEAD = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    workers: false,
    env: { UPLOAD_MAX_BYTES: String(MAX_BYTES), UPLOAD_QUOTA_BYTES: String(QUOTA_BYTES), UPLOAD_QUOTA_COUNT: String(QUOTA_COUNT) },
  });
});
afterAll(async () => {
  await stack?.stop();
});

async function team(): Promise<{ owner: TestUser; token: string }> {
  const owner = await createOwner(stack.ctx.db);
  return { owner, token: await accessTokenOf(stack.client(), owner) };
}

/** An upload sent in 256 KiB parts (chunked unless `contentLength`), answered possibly before it is all sent. */
function send(token: string, parts: Buffer[], options: { contentLength?: number; pauseMs?: number; readAfterMs?: number; filename?: string } = {}) {
  return streamedRequest(stack.api.url, 'POST', `/v1/uploads?filename=${options.filename ?? 'package.zip'}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    parts,
    contentLength: options.contentLength,
    pauseMs: options.pauseMs,
    readAfterMs: options.readAfterMs,
  });
}

const stored = async (teamId: number) => {
  const uploads = await stack.ctx.db('uploads').where({ team_id: teamId }).pluck('id');
  const chunks = uploads.length === 0 ? 0 : Number((await stack.ctx.db('upload_chunks').whereIn('upload_id', uploads).count({ n: '*' }).first())!.n);
  return { uploads: uploads.length, chunks };
};

describe('the permission is checked before the body is read', () => {
  it('answers a member without wordpress:install 403 while most of a large body is still unsent, and stores nothing', async () => {
    const { owner } = await team();
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const viewerToken = await accessTokenOf(stack.client(), viewer);
    // 64 MiB announced, sent slowly in 256 KiB parts: a server that read the body first would wait for it all
    const parts = bodyParts(64 * MiB, 256 * 1024, ZIP_HEAD);
    const reply = await send(viewerToken, parts, { contentLength: 64 * MiB, pauseMs: 20 });
    expect(reply.status).toBe(403);
    expect(reply.body.error.details).toEqual({ reason: 'missing_permission', permission: 'wordpress:install' });
    expect(reply.answeredEarly).toBe(true);
    expect(reply.sentBytes).toBeLessThan(8 * MiB);
    expect(await stored(owner.teamId)).toEqual({ uploads: 0, chunks: 0 });
  });

  it('does the same with an Idempotency-Key, and for a caller without credentials (401)', async () => {
    const { owner } = await team();
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const viewerToken = await accessTokenOf(stack.client(), viewer);
    const parts = bodyParts(64 * MiB, 256 * 1024, ZIP_HEAD);
    const keyed = await streamedRequest(stack.api.url, 'POST', '/v1/uploads?filename=a.zip', {
      headers: { authorization: `Bearer ${viewerToken}`, 'content-type': 'application/zip', 'idempotency-key': `k-${randomBytes(4).toString('hex')}` },
      parts,
      contentLength: 64 * MiB,
      pauseMs: 20,
    });
    expect(keyed.status).toBe(403);
    expect(keyed.answeredEarly).toBe(true);
    const anonymous = await streamedRequest(stack.api.url, 'POST', '/v1/uploads?filename=a.zip', {
      headers: { 'content-type': 'application/zip' },
      parts,
      contentLength: 64 * MiB,
      pauseMs: 20,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.answeredEarly).toBe(true);
  });
});

describe('the body is streamed into chunks', () => {
  it('stores a multi-chunk upload as 1 MiB chunks whose concatenation is the body, with its SHA-256; the node reads it back in order', async () => {
    const { owner, token } = await team();
    const body = Buffer.concat([zipArchive({ 'a/plugin.php': '<?php' }), randomBytes(Math.floor(2.5 * MiB))]);
    const reply = await send(token, [body.subarray(0, 1000), body.subarray(1000, 1_500_000), body.subarray(1_500_000)]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data).toMatchObject({ size_bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    const chunks = await stack.ctx.db('upload_chunks').where({ upload_id: reply.body.data.id }).orderBy('seq').select('seq', 'bytes');
    expect(chunks.map((chunk) => [chunk.seq, chunk.bytes.length])).toEqual([
      [0, MiB],
      [1, MiB],
      [2, body.length - 2 * MiB],
    ]);
    const read: Buffer[] = [];
    for await (const chunk of uploadContent(stack.ctx.db, { id: reply.body.data.id, size_bytes: body.length })) read.push(chunk);
    expect(Buffer.concat(read).equals(body)).toBe(true);
    expect(await stored(owner.teamId)).toEqual({ uploads: 1, chunks: 3 });
  });

  it('refuses a chunked body with 413 as soon as it crosses UPLOAD_MAX_BYTES, before the rest is sent, and keeps nothing', async () => {
    const { owner, token } = await team();
    const reply = await send(token, bodyParts(16 * MiB, 256 * 1024, ZIP_HEAD), { pauseMs: 5 });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(reply.answeredEarly).toBe(true);
    expect(reply.sentBytes).toBeLessThan(12 * MiB);
    expect(await stored(owner.teamId)).toEqual({ uploads: 0, chunks: 0 });
  });

  it('refuses an announced Content-Length over the limit at once, and a body that does not start like a zip on its first bytes', async () => {
    const { owner, token } = await team();
    const announced = await send(token, bodyParts(16 * MiB, 256 * 1024, ZIP_HEAD), { contentLength: 16 * MiB, pauseMs: 5 });
    expect(announced.status).toBe(413);
    expect(announced.sentBytes).toBeLessThan(4 * MiB);
    const notZip = await send(token, bodyParts(3 * MiB, 256 * 1024, Buffer.from('<?php')), { pauseMs: 20 });
    expect(notZip.status).toBe(422);
    expect(notZip.body.error.details.fields).toEqual([{ field: 'body', message: expect.stringContaining('zip') }]);
    expect(notZip.answeredEarly).toBe(true);
    expect(await stored(owner.teamId)).toEqual({ uploads: 0, chunks: 0 });
  });
});

describe('an early answer reaches a client that reads it late', () => {
  it('half-closes after the 413 and discards the rest, so the answer is not lost to a reset (Connection: close, read after 1 s)', async () => {
    const { token } = await team();
    // the client writes 8 MiB and reads nothing for a second: a server that destroyed the socket
    // after its answer would reset the connection, and the client's kernel would drop the answer unread
    const reply = await send(token, bodyParts(8 * MiB, 256 * 1024, ZIP_HEAD), { contentLength: 8 * MiB, readAfterMs: 1_000 });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('per-team quota of live uploads', () => {
  const small = zipArchive({ 'p/p.php': '<?php' });

  it(`refuses the ${QUOTA_COUNT + 1}th live upload with 429 upload_quota; an expired one no longer counts`, async () => {
    const { owner, token } = await team();
    const ids: string[] = [];
    for (let index = 0; index < QUOTA_COUNT; index++) {
      const reply = await send(token, [small]);
      expect(reply.status).toBe(201);
      ids.push(reply.body.data.id);
    }
    const refused = await send(token, [small]);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.body.error.details).toMatchObject({ reason: 'upload_quota', used_count: QUOTA_COUNT, quota_count: QUOTA_COUNT, quota_bytes: QUOTA_BYTES });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect((await stored(owner.teamId)).uploads).toBe(QUOTA_COUNT);

    // another team is not affected
    const other = await team();
    expect((await send(other.token, [small])).status).toBe(201);

    await stack.ctx
      .db('uploads')
      .where({ id: ids[0] })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await send(token, [small])).status).toBe(201);
  });

  it('refuses bytes past UPLOAD_QUOTA_BYTES: at once when announced, as soon as they cross it when chunked, storing nothing', async () => {
    const { owner, token } = await team();
    const first = await send(token, bodyParts(3 * MiB, 256 * 1024, ZIP_HEAD));
    expect(first.status).toBe(201);

    const announced = await send(token, bodyParts(Math.floor(3.5 * MiB), 256 * 1024, ZIP_HEAD), { contentLength: Math.floor(3.5 * MiB), pauseMs: 20 });
    expect(announced.status).toBe(429);
    expect(announced.body.error.details).toMatchObject({ reason: 'upload_quota', used_bytes: 3 * MiB, used_count: 1 });
    expect(announced.answeredEarly).toBe(true);

    // it crosses the quota at 3 MiB: the last parts, 100 ms apart, leave the server time to answer even on a loaded machine
    const chunked = await send(token, bodyParts(Math.floor(3.9 * MiB), 256 * 1024, ZIP_HEAD), { pauseMs: 100 });
    expect(chunked.status).toBe(429);
    expect(chunked.body.error.details.reason).toBe('upload_quota');
    expect(chunked.answeredEarly).toBe(true);
    expect(await stored(owner.teamId)).toEqual({ uploads: 1, chunks: 3 });
  });

  it('lets only one of two concurrent uploads through when together they pass the quota', async () => {
    const { owner, token } = await team();
    const size = Math.floor(3.5 * MiB); // each fits alone (6 MiB), both do not
    // both pass the early check (nothing stored yet) and stream side by side: only the lock at the end
    // decides. The test holds that lock until both uploads, all their bytes stored, wait on it.
    const barrier = await holdLockAlone((trx) => trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [QUOTA_LOCK_CLASS, owner.teamId]));
    let replies: Array<Awaited<ReturnType<typeof send>>>;
    try {
      const sending = Promise.all([
        send(token, bodyParts(size, 512 * 1024, ZIP_HEAD), { pauseMs: 30, filename: 'one.zip' }),
        send(token, bodyParts(size, 512 * 1024, ZIP_HEAD), { pauseMs: 30, filename: 'two.zip' }),
      ]);
      await barrier.untilWaiting(2, 'uploads');
      await barrier.release();
      replies = await sending;
    } finally {
      await barrier.release();
    }
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 429]);
    expect(replies.find((reply) => reply.status === 429)!.body.error.details.reason).toBe('upload_quota');
    const usage = await stack.ctx.db('uploads').where({ team_id: owner.teamId }).select('size_bytes');
    expect(usage.map((row) => Number(row.size_bytes))).toEqual([size]);
  });
});
