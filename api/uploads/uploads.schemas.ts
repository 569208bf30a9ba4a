import { z } from 'zod';
import type { Upload } from '../../shared/domains/uploads/uploads.ts';

/** What an upload may be sent as; `application/octet-stream` for clients that cannot name a zip. */
export const UPLOAD_MEDIA_TYPES = ['application/zip', 'application/octet-stream'];

export const uploadQuery = z.object({
  filename: z
    .string()
    .min(1)
    .max(200)
    // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
    .regex(/^[^/\\\u0000-\u001f\u007f]+$/, { error: 'must have no slashes or control characters' })
    .refine((name) => name !== '.' && name !== '..', { error: 'must name a file' })
    .describe("The package's file name, as the customer knows it (`my-plugin.zip`): 1 to 200 characters, no slashes or control characters"),
});

const timestamp = z.string().describe('ISO 8601 UTC');

export const uploadJson = z
  .object({
    id: z.string().describe('UUID; a `files.fetch` command names it'),
    filename: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string().describe('Hex SHA-256 of the bytes, as stored'),
    created_at: timestamp,
    expires_at: timestamp.describe('24 hours after the upload; then it is deleted'),
  })
  .meta({ id: 'Upload' });

export function uploadView(upload: Upload): z.infer<typeof uploadJson> {
  return {
    id: upload.id,
    filename: upload.filename,
    size_bytes: upload.size_bytes,
    sha256: upload.sha256,
    created_at: upload.created_at.toISOString(),
    expires_at: upload.expires_at.toISOString(),
  };
}
