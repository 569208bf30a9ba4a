import { expect } from 'vitest';
import { bearer, type Client, type Reply } from './client.ts';

/** POST /v1/uploads with the bytes as the body, named `filename` ('package.zip' unless told; null names none). */
export function upload(
  client: Client,
  token: string,
  bytes: Buffer | string,
  options: { filename?: string | null; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const filename = options.filename === undefined ? 'package.zip' : options.filename;
  const query = filename === null ? '' : `?filename=${encodeURIComponent(filename)}`;
  return client.request('POST', `/v1/uploads${query}`, {
    raw: typeof bytes === 'string' ? bytes : new Uint8Array(bytes),
    contentType: options.contentType ?? 'application/zip',
    headers: { ...bearer(token).headers, ...options.headers },
  });
}

/** The id of an upload of a zip that must be accepted (201). */
export async function uploadedId(client: Client, token: string, zip: Buffer, filename: string): Promise<string> {
  const reply = await upload(client, token, zip, { filename });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data.id as string;
}
