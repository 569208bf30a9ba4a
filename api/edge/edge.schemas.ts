import { z } from 'zod';
import { HSTS_MAX_AGE_LIMIT_SECONDS } from '../../shared/wordpress/edge-site.ts';

export const httpsBody = z
  .strictObject({
    force: z
      .boolean()
      .optional()
      .describe(
        "Redirect HTTP to HTTPS (301, ACME challenges excepted) and move WordPress's URLs to https; false moves them back. Needs an installed certificate covering the address (409).",
      ),
    hsts_max_age_seconds: z
      .number()
      .int()
      .min(0)
      .max(HSTS_MAX_AGE_LIMIT_SECONDS)
      .optional()
      .describe('Strict-Transport-Security max-age while forced; 0 sends none. Browsers keep it: lower it before turning forcing off.'),
  })
  .refine((body) => body.force !== undefined || body.hsts_max_age_seconds !== undefined, { error: 'give force, hsts_max_age_seconds or both' });

export const passwordProtectionBody = z.strictObject({
  enabled: z.boolean().describe('true: HTTP basic auth in front of the whole environment (ACME challenges excepted); false: open'),
  username: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: '1 to 64 letters, digits, . _ or -' })
    .optional()
    .describe('Kept when omitted'),
  password: z.string().min(8).max(128).optional().describe('8 to 128 characters; only its SHA-512-crypt hash is kept. Kept when omitted.'),
});
