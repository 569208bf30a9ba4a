import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line, wherever they appear in a logged object. */
const redactedPaths = [
  'password', 'new_password', 'token', 'pre_auth_token', 'invite_token', 'refresh_token', 'access_token',
  'otp_code', 'totp_code', 'backup_code', 'secret', 'code', 'private_key', 'passphrase', '*.private_key', '*.passphrase',
  '*.password', '*.new_password', '*.token', '*.pre_auth_token', '*.invite_token', '*.refresh_token',
  '*.access_token', '*.otp_code', '*.totp_code', '*.backup_code', '*.secret',
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]',
];

export function createLogger(options: { level: string; name: string }): Logger {
  return pino({
    name: options.name,
    level: options.level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
