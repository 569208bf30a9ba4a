import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';

/** An upload is fetched by a node within this; then the sweeper deletes it. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** What a download reads from Postgres at a time (sent on while the next is read). */
const CHUNK_BYTES = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Every column but the bytes, which only a download reads. */
const COLUMNS = ['id', 'team_id', 'created_by_user_id', 'filename', 'content_type', 'size_bytes', 'sha256', 'created_at', 'expires_at'] as const;

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

export type NewUpload = { teamId: number; userId: number | null; filename: string; contentType: string; content: Buffer };

/** Stores a package with its SHA-256; it expires after UPLOAD_TTL_MS. */
export async function createUpload(db: Db, input: NewUpload, now = new Date()): Promise<Upload> {
  const [row] = await db('uploads')
    .insert({
      team_id: input.teamId,
      created_by_user_id: input.userId,
      filename: input.filename,
      content_type: input.contentType,
      size_bytes: input.content.length,
      sha256: createHash('sha256').update(input.content).digest('hex'),
      content: input.content,
      created_at: now,
      expires_at: new Date(now.getTime() + UPLOAD_TTL_MS),
    })
    .returning([...COLUMNS]);
  return row as Upload;
}

/** The team's unexpired upload; another team's, an expired, an unknown or a malformed id is NotFound. */
export async function findUpload(db: Db, teamId: number, id: string): Promise<Upload> {
  if (!UUID.test(id)) throw new NotFound('No such upload');
  const row = await db('uploads').where({ id, team_id: teamId }).where('expires_at', '>', db.fn.now()).first([...COLUMNS]);
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
      command.select(db.raw('1')).from('agent_commands')
        .where({ node_id: nodeId, kind: 'files.fetch' })
        .whereIn('status', ['pending', 'delivered'])
        .whereRaw("lower(payload->>'upload_id') = ?", [id.toLowerCase()]),
    )
    .first([...COLUMNS]);
  if (!row) throw new NotFound('No such upload for this node');
  return row as Upload;
}

/** The bytes of an upload in order, a chunk at a time, so a large package is never held whole. */
export async function* uploadContent(db: Db, upload: Pick<Upload, 'id' | 'size_bytes'>): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < upload.size_bytes; offset += CHUNK_BYTES) {
    // substring() counts from 1
    const row = await db('uploads').where({ id: upload.id }).first(db.raw('substring(content from ? for ?) AS chunk', [offset + 1, CHUNK_BYTES]));
    if (!row) throw new NotFound('The upload was deleted while it was being downloaded');
    yield row.chunk as Buffer;
  }
}

/** Deletes the uploads past their expiry; returns how many. */
export async function deleteExpiredUploads(db: Db, now = new Date()): Promise<number> {
  return db('uploads').where('expires_at', '<=', now).delete();
}
