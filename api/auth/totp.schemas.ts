import { z } from 'zod';

/** Request and reply bodies of the TOTP endpoints (spec parts 2.6 and 4.8). */

export const totpVerifyBody = z.object({
  totp_code: z
    .string()
    .regex(/^\d{6}$/, { error: 'must be 6 digits' })
    .describe('The 6-digit code the authenticator app shows'),
});

export const backupCodeBody = z.object({
  backup_code: z
    .string()
    .regex(/^\d{8}$/, { error: 'must be 8 digits' })
    .describe('One of the 8-digit backup codes from /totp/setup'),
});

export const totpSetupReply = z.object({
  secret: z.string().describe('160-bit shared secret, base32 (RFC 4648, upper case, no padding), 32 characters'),
  qr_code_url: z.string().describe('`otpauth://totp/Berth:<e-mail>?secret=…&issuer=Berth&algorithm=SHA1&digits=6&period=30`, to show as a QR code'),
  backup_codes: z
    .array(z.string().regex(/^\d{8}$/))
    .length(10)
    .describe('Ten 8-digit codes, each usable once; shown only now'),
});
