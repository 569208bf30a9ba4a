import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line, wherever they appear in a logged object. */
const redactedPaths = [
  'password',
  'new_password',
  'token',
  'pre_auth_token',
  'invite_token',
  'refresh_token',
  'access_token',
  'otp_code',
  'totp_code',
  'backup_code',
  'secret',
  'code',
  'private_key',
  'passphrase',
  '*.private_key',
  '*.passphrase',
  '*.password',
  '*.new_password',
  '*.token',
  '*.pre_auth_token',
  '*.invite_token',
  '*.refresh_token',
  '*.access_token',
  '*.otp_code',
  '*.totp_code',
  '*.backup_code',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  // object-storage keys and repository passwords (config.backupStorage, exec environments)
  'secretAccessKey',
  '*.secretAccessKey',
  '*.*.secretAccessKey',
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'AWS_SECRET_ACCESS_KEY',
  '*.AWS_SECRET_ACCESS_KEY',
  'RESTIC_PASSWORD',
  '*.RESTIC_PASSWORD',
  '*.env.AWS_SECRET_ACCESS_KEY',
  '*.env.RESTIC_PASSWORD',
  '*.env.DB_PASSWORD',
  '*.env.SOURCE_PASSWORD',
  '*.env.TARGET_PASSWORD',
  // the Stripe account's keys (config.billing.stripe), a PaymentIntent's client secret, a webhook's signature
  'secretKey',
  '*.secretKey',
  '*.*.secretKey',
  'webhookSecret',
  '*.webhookSecret',
  '*.*.webhookSecret',
  'client_secret',
  '*.client_secret',
  '*.*.client_secret',
  'clientSecret',
  '*.clientSecret',
  'req.headers["stripe-signature"]',
  // SFTP users' argon2 hashes (the agent's sftp.users.put payload and store entries)
  'password_hash',
  '*.password_hash',
  'users[*].password_hash',
  '*.users[*].password_hash',
  '*.*.users[*].password_hash',
];

let stdout: ReturnType<typeof pino.destination> | undefined;

/** How long a logged line may wait in the buffer at most (at low volume: the buffer fills first under load). */
export const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * Standard output, buffered and written asynchronously: lines collect until 4 KiB or for at most
 * LOG_FLUSH_INTERVAL_MS, then go out in one write off the event loop, so a log line per request
 * costs a string copy, not a blocking write(2) each (pino's default) nor a thread-pool write each.
 * pino writes what is still buffered synchronously when the process exits, `process.exit()` included.
 */
function stdoutDestination(): ReturnType<typeof pino.destination> {
  stdout ??= pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_INTERVAL_MS });
  return stdout;
}

export function createLogger(options: { level: string; name: string }): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stdoutDestination(),
  );
}
