import { z } from 'zod';
import type { Certificate } from '../../shared/db/models.ts';

export const certificateJson = z
  .object({
    id: z.string(),
    names: z.array(z.string()),
    source: z.enum(['uploaded', 'acme']),
    status: z.enum(['pending', 'installed', 'failed']).describe('`installed` once the edge was seen presenting it'),
    issuer: z.string(),
    fingerprint_sha256: z.string(),
    not_before: z.string(),
    not_after: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Certificate' });

export function certificateView(certificate: Certificate): z.infer<typeof certificateJson> {
  return {
    id: certificate.id,
    names: certificate.names,
    source: certificate.source,
    status: certificate.status,
    issuer: certificate.issuer,
    fingerprint_sha256: certificate.fingerprint_sha256,
    not_before: certificate.not_before.toISOString(),
    not_after: certificate.not_after.toISOString(),
    updated_at: certificate.updated_at.toISOString(),
  };
}

export const uploadBody = z.strictObject({
  certificate_pem: z.string().min(1).max(64_000).describe("PEM: the site's certificate first, then its intermediates"),
  private_key_pem: z.string().min(1).max(16_000).describe('PEM, unencrypted; stored sealed, never shown again'),
});
