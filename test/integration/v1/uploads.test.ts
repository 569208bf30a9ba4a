import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpload, deleteExpiredUploads, findUpload } from '../../../shared/domains/uploads/uploads.ts';
import { NotFound } from '../../../shared/errors.ts';
import { sweepOperations } from '../../../workers/operations/sweep.processor.ts';
import { bearer, type Reply } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { sha256Hex } from '../../helpers/sha256.ts';
import { startStack, workerDepsOf, type Stack } from '../../helpers/stack.ts';
import { addMember, failedFields } from '../../helpers/team-members.ts';
import { upload } from '../../helpers/upload.ts';
import { zipArchive } from '../../helpers/zip.ts';

/** Small, so the 413 needs no large body; the real default is 64 MiB. (The quota and streaming are in test/integration/isolation/uploads.test.ts.) */
const MAX_BYTES = 4096;
const DAY_MS = 24 * 60 * 60 * 1000;

let stack: Stack;
let owner: TestUser;
let ownerToken: string;

beforeAll(async () => {
  stack = await startStack({ workers: false, env: { UPLOAD_MAX_BYTES: String(MAX_BYTES) } });
  owner = await createOwner(stack.ctx.db);
  ownerToken = await accessTokenOf(stack.client(), owner);
});
afterAll(async () => {
  await stack?.stop();
});

const plugin = zipArchive({ 'hello-dolly/hello.php': '<?php\n/* Plugin Name: Hello Dolly */\n', 'hello-dolly/readme.txt': 'Hello, Dolly' });

const readUpload = (token: string, id: string) => stack.client().get(`/v1/uploads/${id}`, bearer(token));
const uploadsOf = async (teamId: number) => Number((await stack.ctx.db('uploads').where({ team_id: teamId }).count({ count: '*' }).first())!.count);

describe('POST /v1/uploads', () => {
  it('stores a zip with its SHA-256 for 24 hours and answers 201 with its metadata', async () => {
    const reply = await upload(stack.client(), ownerToken, plugin, { filename: 'hello-dolly.zip' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const data = reply.body.data;
    expect(data).toEqual({
      id: expect.any(String),
      filename: 'hello-dolly.zip',
      size_bytes: plugin.length,
      sha256: sha256Hex(plugin),
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(DAY_MS);
    expect(reply.headers.get('location')).toBe(`/v1/uploads/${data.id}`);

    const row = await stack.ctx.db('uploads').where({ id: data.id }).first();
    const chunks = await stack.ctx.db('upload_chunks').where({ upload_id: data.id }).orderBy('seq').pluck('bytes');
    expect(Buffer.compare(Buffer.concat(chunks), plugin)).toBe(0);
    expect(row).toMatchObject({
      team_id: owner.teamId,
      created_by_user_id: owner.userId,
      content_type: 'application/zip',
      size_bytes: plugin.length,
      sha256: sha256Hex(plugin),
    });

    const read = await readUpload(ownerToken, data.id);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(data);
    const activity = await stack.ctx.db('activity').where({ team_id: owner.teamId, action: 'upload.created' }).orderBy('id', 'desc').first();
    expect(activity).toMatchObject({ target_type: 'upload', target_id: data.id, status: 201 });
  });

  it('accepts application/octet-stream too, and a developer may upload', async () => {
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const reply = await upload(stack.client(), await accessTokenOf(stack.client(), developer), plugin, {
      contentType: 'application/octet-stream',
      filename: 'Hello Dolly (1).zip',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.filename).toBe('Hello Dolly (1).zip');
    expect((await stack.ctx.db('uploads').where({ id: reply.body.data.id }).first()).content_type).toBe('application/octet-stream');
  });

  it('refuses a body over UPLOAD_MAX_BYTES with 413 and stores nothing', async () => {
    const before = await uploadsOf(owner.teamId);
    const big = Buffer.concat([zipArchive({ 'big.bin': randomBytes(MAX_BYTES) })]);
    expect(big.length).toBeGreaterThan(MAX_BYTES);
    const reply = await upload(stack.client(), ownerToken, big);
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await uploadsOf(owner.teamId)).toBe(before);
  });

  it('refuses what is not a zip, an empty body, a missing or unsafe file name and another content type with 422', async () => {
    const before = await uploadsOf(owner.teamId);
    const cases: Array<[Promise<Reply>, string[]]> = [
      [upload(stack.client(), ownerToken, Buffer.from('<?php echo "not a zip";')), ['body']],
      [upload(stack.client(), ownerToken, Buffer.alloc(0)), ['body']],
      [upload(stack.client(), ownerToken, plugin, { filename: null }), ['filename']],
      [upload(stack.client(), ownerToken, plugin, { filename: '' }), ['filename']],
      [upload(stack.client(), ownerToken, plugin, { filename: '../../etc/passwd' }), ['filename']],
      [upload(stack.client(), ownerToken, plugin, { filename: 'plugins\\evil.zip' }), ['filename']],
      [upload(stack.client(), ownerToken, plugin, { filename: 'evil\n.zip' }), ['filename']],
      [upload(stack.client(), ownerToken, plugin, { filename: `${'x'.repeat(197)}.zip` }), ['filename']],
      [upload(stack.client(), ownerToken, plugin, { contentType: 'text/plain' }), ['content_type']],
      [upload(stack.client(), ownerToken, JSON.stringify({ zip: plugin.toString('base64') }), { contentType: 'application/json' }), ['content_type']],
      [
        upload(stack.client(), ownerToken, Buffer.from('nope'), { filename: '/abs.zip', contentType: 'multipart/form-data; boundary=x' }),
        ['filename', 'content_type'],
      ],
    ];
    for (const [pending, fields] of cases) {
      const reply = await pending;
      expect(reply.status, JSON.stringify(reply.body)).toBe(422);
      expect(reply.body.error.code).toBe('VALIDATION_ERROR');
      expect(failedFields(reply).sort()).toEqual([...fields].sort());
    }
    expect(await uploadsOf(owner.teamId)).toBe(before);
    // the 200-character limit itself is allowed
    expect((await upload(stack.client(), ownerToken, plugin, { filename: `${'x'.repeat(196)}.zip` })).status).toBe(201);
  });

  it('needs wordpress:install: a viewer gets 403 for both routes, and without credentials 401', async () => {
    const created = await upload(stack.client(), ownerToken, plugin);
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const viewerToken = await accessTokenOf(stack.client(), viewer);
    for (const reply of [await upload(stack.client(), viewerToken, plugin), await readUpload(viewerToken, created.body.data.id)]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.details).toEqual({ reason: 'missing_permission', permission: 'wordpress:install' });
    }
    const anonymous = await stack.client().request('POST', '/v1/uploads?filename=a.zip', { raw: new Uint8Array(plugin), contentType: 'application/zip' });
    expect(anonymous.status).toBe(401);
  });

  it("answers 404 for another team's upload, an unknown id and a malformed one", async () => {
    const created = await upload(stack.client(), ownerToken, plugin);
    const stranger = await createOwner(stack.ctx.db);
    const strangerToken = await accessTokenOf(stack.client(), stranger);
    for (const id of [created.body.data.id, randomUUID(), 'not-a-uuid', '00000000-0000-0000-0000-00000000000g']) {
      const reply = await readUpload(id === created.body.data.id ? strangerToken : ownerToken, id);
      expect(reply.status, id).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
    await expect(findUpload(stack.ctx.db, stranger.teamId, created.body.data.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('replays an Idempotency-Key repeat with the same bytes and file name; other bytes or another name is 409', async () => {
    const key = { 'idempotency-key': `upload-${randomUUID()}` };
    const before = await uploadsOf(owner.teamId);
    const first = await upload(stack.client(), ownerToken, plugin, { headers: key });
    expect(first.status).toBe(201);
    const repeat = await upload(stack.client(), ownerToken, plugin, { headers: key });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body.data).toEqual(first.body.data);
    expect(repeat.headers.get('location')).toBe(`/v1/uploads/${first.body.data.id}`);
    expect(await uploadsOf(owner.teamId)).toBe(before + 1);

    const otherBytes = zipArchive({ 'hello-dolly/hello.php': '<?php /* another version */' });
    for (const reply of [
      await upload(stack.client(), ownerToken, otherBytes, { headers: key }),
      await upload(stack.client(), ownerToken, plugin, { headers: key, filename: 'renamed.zip' }),
    ]) {
      expect(reply.status).toBe(409);
      expect(reply.body.error.details.reason).toBe('fingerprint_mismatch');
    }
    expect(await uploadsOf(owner.teamId)).toBe(before + 1);
  });
});

describe('expiry', () => {
  it('hides an expired upload at once, and deleteExpiredUploads deletes exactly the expired ones', async () => {
    const fresh = await createUpload(stack.ctx.db, {
      teamId: owner.teamId,
      userId: owner.userId,
      filename: 'fresh.zip',
      contentType: 'application/zip',
      content: plugin,
    });
    const old = await createUpload(
      stack.ctx.db,
      { teamId: owner.teamId, userId: owner.userId, filename: 'old.zip', contentType: 'application/zip', content: plugin },
      new Date(Date.now() - DAY_MS - 1000),
    );
    const older = await createUpload(
      stack.ctx.db,
      { teamId: owner.teamId, userId: null, filename: 'older.zip', contentType: 'application/zip', content: plugin },
      new Date(Date.now() - 3 * DAY_MS),
    );
    expect((await readUpload(ownerToken, old.id)).status).toBe(404);
    expect((await readUpload(ownerToken, fresh.id)).status).toBe(200);
    // Other test files expire uploads and sweep too: in one transaction, with these two expired in
    // the year 2000 and "now" the day after, the count is exactly theirs.
    const deleted = await stack.ctx.db.transaction(async (trx) => {
      await trx('uploads')
        .whereIn('id', [old.id, older.id])
        .update({ expires_at: new Date('2000-01-01T00:00:00Z') });
      return deleteExpiredUploads(trx, new Date('2000-01-02T00:00:00Z'));
    });
    expect(deleted).toBe(2);
    expect(await stack.ctx.db('uploads').whereIn('id', [fresh.id, old.id, older.id]).pluck('id')).toEqual([fresh.id]);
  });

  it('is part of the operations sweep', async () => {
    const expired = await createUpload(
      stack.ctx.db,
      { teamId: owner.teamId, userId: owner.userId, filename: 'expired.zip', contentType: 'application/zip', content: plugin },
      new Date(Date.now() - 2 * DAY_MS),
    );
    const kept = await createUpload(stack.ctx.db, {
      teamId: owner.teamId,
      userId: owner.userId,
      filename: 'kept.zip',
      contentType: 'application/zip',
      content: plugin,
    });
    await sweepOperations(workerDepsOf(stack));
    expect(await stack.ctx.db('uploads').whereIn('id', [expired.id, kept.id]).pluck('id')).toEqual([kept.id]);
  });
});
