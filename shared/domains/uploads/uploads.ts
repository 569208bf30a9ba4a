import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound, PayloadTooLarge, UploadQuotaExceeded, ValidationFailed } from '../../errors.ts';

/** An upload is fetched by a node within this; then the sweeper deletes it. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The size of each stored chunk (`upload_chunks`); a download sends one while it reads the next. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Every column of an upload (the bytes are in `upload_chunks`). */
const COLUMNS = ['id', 'team_id', 'created_by_user_id', 'filename', 'content_type', 'size_bytes', 'sha256', 'created_at', 'expires_at'] as const;
/** Every zip archive that holds a file starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** The first key of the advisory lock that serialises the quota check of one team's uploads (the team id is the second). */
export const QUOTA_LOCK_CLASS = 0x75706c64; // "upld"

export type Upload = {
  id: string;
  team_id: number;
  created_by_user_id: number | null;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: Date;
  expires_at: Date;
};

export type UploadLimits = { maxBytes: number; quotaBytes: number; quotaCount: number };

export type NewUpload = {
  teamId: number;
  userId: number | null;
  filename: string;
  contentType: string;
  /** The bytes, as they arrive (a request stream); a Buffer for callers that have them already. */
  content: AsyncIterable<Buffer | Uint8Array> | Buffer;
  /** The length the client announced (Content-Length), to refuse at once what cannot fit. */
  declaredBytes?: number;
};

/** What a team holds in live uploads now. */
export type UploadUsage = { bytes: number; count: number; nextExpiry: Date | null };

/**
 * Stores a zip package as it streams in: chunk by chunk into `upload_chunks` in one transaction,
 * hashing as it goes, so memory stays at about one chunk whatever the size. Refused with nothing
 * stored: a body that does not start like a zip or is empty (ValidationFailed `body`), one over
 * `maxBytes` (PayloadTooLarge, as soon as the limit is crossed), and one that would take the team's
 * live uploads past `quotaBytes`/`quotaCount` (UploadQuotaExceeded). The quota is checked early
 * without a lock (to stop reading at once), then again at the end under a per-team advisory lock,
 * so two concurrent uploads cannot both squeeze past it.
 */
export async function storeUpload(db: Db, input: NewUpload, limits: UploadLimits, now = new Date()): Promise<Upload> {
  const before = await uploadUsage(db, input.teamId);
  const declared = input.declaredBytes;
  if (declared !== undefined && declared > limits.maxBytes) throw new PayloadTooLarge();
  assertWithinQuota(before, declared ?? 0, limits, now);

  return db.transaction(async (trx) => {
    const [row] = await trx('uploads')
      .insert({
        team_id: input.teamId,
        created_by_user_id: input.userId,
        filename: input.filename,
        content_type: input.contentType,
        size_bytes: 0,
        sha256: '',
        created_at: now,
        expires_at: new Date(now.getTime() + UPLOAD_TTL_MS),
      })
      .returning('id');
    const id = (row as { id: string }).id;

    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let checkedMagic = false;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await trx('upload_chunks').insert({ upload_id: id, seq: seq++, bytes });
    };
    for await (const piece of Buffer.isBuffer(input.content) ? [input.content] : input.content) {
      let buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      if (buffer.length === 0) continue;
      size += buffer.length;
      if (size > limits.maxBytes) throw new PayloadTooLarge();
      assertWithinQuota(before, size, limits, now);
      hash.update(buffer);
      while (buffer.length > 0) {
        const take = Math.min(buffer.length, UPLOAD_CHUNK_BYTES - pendingBytes);
        pending.push(take === buffer.length ? buffer : buffer.subarray(0, take));
        pendingBytes += take;
        buffer = buffer.subarray(take);
        if (!checkedMagic && pendingBytes >= ZIP_MAGIC.length) {
          assertZipMagic(Buffer.concat(pending, pendingBytes));
          checkedMagic = true;
        }
        if (pendingBytes === UPLOAD_CHUNK_BYTES) await flush();
      }
    }
    if (size === 0) throw ValidationFailed.field('body', 'is empty: send the zip file as the request body');
    if (!checkedMagic) assertZipMagic(Buffer.concat(pending, pendingBytes));
    await flush();

    // The authoritative check: one team's uploads pass here one at a time, and each sees the others' commits.
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [QUOTA_LOCK_CLASS, input.teamId]);
    assertWithinQuota(await uploadUsage(trx, input.teamId, id), size, limits, now);

    const [stored] = await trx('uploads')
      .where({ id })
      .update({ size_bytes: size, sha256: hash.digest('hex') })
      .returning([...COLUMNS]);
    return stored as Upload;
  });
}

/** Stores bytes already in memory (tests, tools), with no quota: the API goes through `storeUpload`. */
export async function createUpload(db: Db, input: NewUpload & { content: Buffer }, now = new Date()): Promise<Upload> {
  return storeUpload(db, input, { maxBytes: Number.MAX_SAFE_INTEGER, quotaBytes: Number.MAX_SAFE_INTEGER, quotaCount: Number.MAX_SAFE_INTEGER }, now);
}

/** The team's live (unexpired) uploads: total bytes, how many, and when the first of them expires. */
export async function uploadUsage(db: Db | Knex.Transaction, teamId: number, except?: string): Promise<UploadUsage> {
  const query = db('uploads').where({ team_id: teamId }).where('expires_at', '>', db.fn.now());
  if (except) query.whereNot({ id: except });
  const row = (await query.first(
    db.raw('coalesce(sum(size_bytes), 0)::bigint AS bytes'),
    db.raw('count(*)::int AS count'),
    db.raw('min(expires_at) AS next_expiry'),
  )) as {
    bytes: string | number;
    count: number;
    next_expiry: Date | null;
  };
  return { bytes: Number(row.bytes), count: row.count, nextExpiry: row.next_expiry };
}

function assertWithinQuota(usage: UploadUsage, addedBytes: number, limits: UploadLimits, now: Date): void {
  if (usage.count + 1 <= limits.quotaCount && usage.bytes + addedBytes <= limits.quotaBytes) return;
  const retryAfterSeconds = usage.nextExpiry ? Math.max(1, Math.ceil((usage.nextExpiry.getTime() - now.getTime()) / 1000)) : 1;
  throw new UploadQuotaExceeded({ bytes: usage.bytes, count: usage.count, quotaBytes: limits.quotaBytes, quotaCount: limits.quotaCount }, retryAfterSeconds);
}

function assertZipMagic(head: Buffer): void {
  if (!head.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw ValidationFailed.field('body', 'is not a zip archive (it must start with PK\\x03\\x04)');
}

/** The team's unexpired upload; another team's, an expired, an unknown or a malformed id is NotFound. */
export async function findUpload(db: Db, teamId: number, id: string): Promise<Upload> {
  if (!UUID.test(id)) throw new NotFound('No such upload');
  const row = await db('uploads')
    .where({ id, team_id: teamId })
    .where('expires_at', '>', db.fn.now())
    .first([...COLUMNS]);
  if (!row) throw new NotFound('No such upload');
  return row as Upload;
}

/**
 * The upload a node may download: only while one of its own `files.fetch` commands that names it
 * is unfinished (pending or delivered). Any other node, or after the command ended, gets NotFound,
 * so an agent's credentials reach only what it was told to fetch.
 */
export async function findUploadForNode(db: Db, nodeId: string, id: string): Promise<Upload> {
  if (!UUID.test(id)) throw new NotFound('No such upload for this node');
  const row = await db('uploads')
    .where({ id })
    .where('expires_at', '>', db.fn.now())
    .whereExists((command) =>
      command
        .select(db.raw('1'))
        .from('agent_commands')
        .where({ node_id: nodeId, kind: 'files.fetch' })
        .whereIn('status', ['pending', 'delivered'])
        .whereRaw("lower(payload->>'upload_id') = ?", [id.toLowerCase()]),
    )
    .first([...COLUMNS]);
  if (!row) throw new NotFound('No such upload for this node');
  return row as Upload;
}

/** The bytes of an upload in order, one stored chunk at a time, so a large package is never held whole. */
export async function* uploadContent(db: Db, upload: Pick<Upload, 'id' | 'size_bytes'>): AsyncGenerator<Buffer> {
  let sent = 0;
  for (let seq = 0; sent < upload.size_bytes; seq++) {
    const row = await db('upload_chunks').where({ upload_id: upload.id, seq }).first('bytes');
    if (!row) throw new NotFound('The upload was deleted while it was being downloaded');
    sent += (row.bytes as Buffer).length;
    yield row.bytes as Buffer;
  }
}

/** Deletes the uploads past their expiry (their chunks go with them); returns how many. */
export async function deleteExpiredUploads(db: Db, now = new Date()): Promise<number> {
  return db('uploads').where('expires_at', '<=', now).delete();
}
