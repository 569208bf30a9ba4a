import { z } from 'zod';
import { isCountryCode } from './country-codes.ts';

/**
 * Every variable Berth reads, with its type, its default and its check; loadConfig (config.ts)
 * parses the process environment with it once, at start.
 */

const rateLimit = z
  .string()
  .regex(/^\d+\/\d+(s|m|h)$/, 'expected <count>/<window>, e.g. 10/1m')
  .transform((value) => {
    const [count, window] = value.split('/') as [string, string];
    const unitMs = { s: 1000, m: 60_000, h: 3_600_000 }[window.slice(-1) as 's' | 'm' | 'h'];
    return { limit: Number(count), windowMs: Number(window.slice(0, -1)) * unitMs };
  });

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const durationPattern = /^(\d+)(ms|s|m|h|d)$/;
/** `250ms`, `5s`, `5m`, `2h`, `5d` in milliseconds. */
function durationMs(value: string): number {
  const [, count, unit] = durationPattern.exec(value)!;
  return Number(count) * DURATION_UNITS_MS[unit as keyof typeof DURATION_UNITS_MS];
}
const duration = z.string().regex(durationPattern, 'expected a duration such as 250ms, 5s, 5m, 2h or 5d').transform(durationMs);
/** A comma-separated list: its entries trimmed (and `normalize`d), empty ones dropped; `.pipe` checks them. */
function commaList(normalize: (entry: string) => string = (entry) => entry) {
  return z.string().transform((value) =>
    value
      .split(',')
      .map((entry) => normalize(entry.trim()))
      .filter(Boolean),
  );
}

const durations = commaList()
  .pipe(z.array(z.string().regex(durationPattern, 'each must be a duration such as 5s, 5m, 2h')).max(20))
  .transform((values) => values.map(durationMs));
const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const trustedProxies = commaList().pipe(z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(['loopback', 'linklocal', 'uniquelocal'])])));

const publicUrl = z
  .url({ protocol: /^https?$/ })
  .transform((value) => value.replace(/\/+$/, ''))
  .refine((value) => new URL(value).pathname === '/' || new URL(value).pathname === '', 'must be an origin without a path');

export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgres://berth:berth@127.0.0.1:5432/berth'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379/0'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]+$/i)
    .default('berth'),
  PUBLIC_URL: publicUrl.default('http://localhost:8080'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Berth <no-reply@localhost>'),
  DATA_DIR: z.string().min(1).default('.berth'),
  JWT_PRIVATE_KEY: z.string().optional(),
  JWT_PREVIOUS_PUBLIC_KEYS: z.string().optional(),
  SECRET_KEY: z.string().optional(),
  TRUSTED_PROXIES: trustedProxies.default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_LOGIN: rateLimit.default({ limit: 10, windowMs: 60_000 }),
  RATE_LIMIT_REGISTER: rateLimit.default({ limit: 5, windowMs: 3_600_000 }),
  RATE_LIMIT_EMAIL: rateLimit.default({ limit: 5, windowMs: 900_000 }),
  RATE_LIMIT_API: rateLimit.default({ limit: 100, windowMs: 60_000 }),
  RATE_LIMIT_API_BURST: rateLimit.default({ limit: 10, windowMs: 1_000 }),
  /** Every /v1/agent request per client IP (an agent long-polls, streams progress, heartbeats every 15 s; several nodes may share a NAT). */
  RATE_LIMIT_AGENT: rateLimit.default({ limit: 1200, windowMs: 60_000 }),
  /** Failed agent authentications per client IP; past it the IP is refused before any token is looked at. */
  RATE_LIMIT_AGENT_AUTH_FAILURES: rateLimit.default({ limit: 20, windowMs: 600_000 }),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** An event stream ends after this long; the client reconnects and its credentials are checked again. */
  EVENT_STREAM_LIFETIME_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  /**
   * How many operations one worker process runs at once. Most of an operation is waiting on a node's
   * agent (and operations on one environment run one at a time anyway), so this is high.
   */
  OPERATION_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /** How often the sweeper looks for stuck operations. */
  OPERATION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** Tries of an operation's job before a failing step fails the operation, and the first retry's delay (doubling). */
  OPERATION_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  OPERATION_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(2_000),
  /** A worker that stops renewing an operation's lock this long is presumed dead; another takes the job over. */
  OPERATION_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** How often the backup scheduler fires the schedules that are due (a slot runs within this of its time). */
  BACKUP_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * How often the workers look for backup repositories to prune (those with snapshots forgotten since
   * their last prune, pruned at most every BACKUP_PRUNE_INTERVAL_SECONDS). 0: no prune sweep in this
   * process (a second worker fleet, or test stacks sharing one database).
   */
  BACKUP_PRUNE_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || (ms >= 1000 && ms <= 86_400_000), 'must be 0 (off) or 1000 to 86400000')
    .default(3_600_000),
  /** A repository is pruned at most this often (a prune reads the whole index and repacks: the cost a backup no longer pays). */
  BACKUP_PRUNE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  /** How often the workers look for ACME certificates to renew (those expiring within 30 days): daily. */
  CERTIFICATE_RENEWAL_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  /** Billing: the tax rate invoices apply, in basis points (2000 = 20 %), unless the EU reverse charge or a customer outside the EU makes it 0 (see BILLING_SELLER_COUNTRY). */
  BILLING_TAX_RATE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** Billing: who issues the invoices, as their PDF names the seller. */
  BILLING_SELLER_NAME: z.string().trim().min(1).max(200).default('Berth'),
  /** Billing: the seller's country (ISO 3166-1 alpha-2); an EU one turns on the reverse charge for business customers in other EU countries and 0 % for customers outside the EU. */
  BILLING_SELLER_COUNTRY: z.string().trim().toUpperCase().refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, e.g. DE').optional(),
  /** Billing: invoice numbers read <prefix>-<year>-<000001>. */
  BILLING_INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Z0-9]{2,10}$/, 'must be 2 to 10 upper-case letters or digits')
    .default('BTH'),
  /** Billing: days between an invoice's finalization and its due date. */
  BILLING_INVOICE_DUE_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  /** Billing: a subscription whose invoice is still open this many days after its due date becomes `unpaid` and loses its entitlements. */
  BILLING_UNPAID_AFTER_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  /**
   * Billing: days after an invoice's due date on which it is retried (Stripe) or reminded (manual),
   * one mail each; increasing, each before BILLING_UNPAID_AFTER_DAYS (checked in dunningScheduleOf).
   */
  BILLING_DUNNING_SCHEDULE_DAYS: commaList()
    .pipe(
      z
        .array(z.string().regex(/^\d{1,3}$/, 'each must be a whole number of days, e.g. 1,3,5,7'))
        .min(1)
        .max(20),
    )
    .transform((values) => values.map(Number))
    .optional(),
  /** Billing: how often the workers end, renew and dun subscriptions whose period is over. */
  /** 0: no billing sweep in this process (a second worker fleet, or test stacks sharing one database). */
  BILLING_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || (ms >= 1000 && ms <= 86_400_000), 'must be 0 (off) or 1000 to 86400000')
    .default(3_600_000),
  /** Billing: what a trial's end does (not cancelled): `invoice` the first period at once (active, dunned if unpaid), or `pause` it until the team resumes and pays. */
  BILLING_TRIAL_END_BEHAVIOR: z.enum(['invoice', 'pause']).default('invoice'),
  /** Billing: hours after which a subscription whose first invoice is unpaid is cancelled and the invoice voided (Stripe: 23). */
  BILLING_INCOMPLETE_EXPIRE_HOURS: z.coerce.number().int().min(1).max(720).default(23),
  /** Billing: who collects the invoices of new subscriptions (a subscription keeps the provider it started with). */
  BILLING_PROVIDER: z.enum(['manual', 'stripe']).default('manual'),
  /** The Stripe provider: the API key (a secret: only ever sent to Stripe) and the webhook endpoint's signing secret. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  /** Where the Stripe API is reached instead of https://api.stripe.com (the tests' local stand-in). */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  BACKUP_DOWNLOAD_START_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Node enrollment (workers/nodes): the agent bundle uploaded to a node, and the URL its agent calls (default PUBLIC_URL). */
  AGENT_BUNDLE_PATH: z.string().min(1).default('.build/berth-agent.mjs'),
  AGENT_CONTROL_PLANE_URL: z
    .url({ protocol: /^https?$/ })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  /** Where the installer puts the agent on a node (bundle, config, data, log). */
  NODE_AGENT_DIR: z
    .string()
    .regex(/^\/[A-Za-z0-9._/-]+$/, 'must be an absolute path of letters, digits and . _ - /')
    .default('/opt/berth-agent'),
  /** Where a Docker Engine API socket is looked for on a node, in order. */
  NODE_DOCKER_SOCKETS: commaList()
    .pipe(z.array(z.string().regex(/^\/[A-Za-z0-9._/-]+$/, 'each must be an absolute path')).min(1))
    .default(['/var/run/docker.sock', '/run/podman/podman.sock']),
  /** How long an SSH connection to a node may take to be ready. */
  NODE_SSH_TIMEOUT_MS: z.coerce.number().int().min(500).default(15_000),
  /** How long enrollment waits for the new agent to register and heartbeat. */
  NODE_REGISTRATION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(120),
  /**
   * `berth start` on one machine also runs an agent for this machine as a node: `auto` (the default in
   * development) when a Docker Engine API answers on one of NODE_DOCKER_SOCKETS, `on` (required), `off`.
   */
  LOCAL_AGENT: z.enum(['auto', 'on', 'off']).optional(),
  /** Sites: every environment's default domain is `<environment>-<slug>.<SITES_BASE_DOMAIN>`. */
  SITES_BASE_DOMAIN: z
    .string()
    .regex(/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be a lower-case host name')
    .default('sites.localhost'),
  /** The PHP versions offered to sites, first the default; each needs its image (SITE_PHP_IMAGE). */
  SITE_PHP_VERSIONS: commaList()
    .pipe(z.array(z.string().regex(/^\d+\.\d+$/, 'each must look like 8.2')).min(1))
    .default(['8.2', '8.4']),
  /** The image of each PHP version (`8.2=<image>,8.4=<image>`), built by ops/images (php-<version>). */
  SITE_PHP_IMAGES: z
    .string()
    .transform((value, ctx) => {
      const images: Record<string, string> = {};
      for (const entry of value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const match = /^(\d+\.\d+)=(\S+)$/.exec(entry);
        if (!match) {
          ctx.addIssue({ code: 'custom', message: `${entry}: each must look like 8.2=<image>` });
          return z.NEVER;
        }
        images[match[1]!] = match[2]!;
      }
      return images;
    })
    .default({ '8.2': 'localhost/berth/php:8.2', '8.4': 'localhost/berth/php:8.4' }),
  /** The node's edge proxy (nginx) and managed MariaDB images (ops/images/edge.sh, mariadb.sh). */
  SITE_EDGE_IMAGE: z.string().min(1).default('localhost/berth/edge:latest'),
  SITE_MARIADB_IMAGE: z.string().min(1).default('localhost/berth/mariadb:latest'),
  /** The node's backup tools (restic, the MariaDB client, zstd; ops/images/backup.sh), run through exec. */
  SITE_BACKUP_IMAGE: z.string().min(1).default('localhost/berth/backup:latest'),
  /**
   * WordPress trees each node keeps copied ahead per PHP image, for its next new sites (claimed with
   * one rename instead of a copy on the site's critical path); 0 disables the pool.
   */
  SITE_WORDPRESS_POOL_SIZE: z.coerce.number().int().min(0).max(10).default(1),
  /**
   * Backups in S3-compatible object storage (unset: each node keeps its repository on its own disk).
   * Each node's repository is `s3:<endpoint>/<bucket>/nodes/<node id>`, still encrypted with the
   * node's own password. Endpoint, bucket and both keys are set together or not at all.
   */
  BACKUP_S3_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .transform((value) => value.replace(/\/+$/, ''))
    .refine((value) => {
      const url = new URL(value);
      return !url.username && !url.password && !url.search && (url.pathname === '/' || url.pathname === '');
    }, 'must be an origin such as https://s3.example.com (no path, credentials or query)')
    .optional(),
  BACKUP_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)')
    .optional(),
  BACKUP_S3_ACCESS_KEY_ID: z.string().regex(/^\S+$/, 'must be a key id without spaces').optional(),
  /** A secret: it goes to restic through an exec's environment only, never to a log or a message. */
  BACKUP_S3_SECRET_ACCESS_KEY: z.string().regex(/^\S+$/, 'must not contain spaces').optional(),
  BACKUP_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must look like eu-central-1')
    .optional(),
  /** A PEM file of the CA (or the certificate) the store's TLS certificate is signed with, for a store no public CA vouches for. */
  BACKUP_S3_CA_CERT: z.string().min(1).optional(),
  /** How long a store may take to answer before a backup step gives up on it (restic alone would retry for 15 minutes). */
  BACKUP_S3_ANSWER_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(600).default(60),
  /**
   * DNS hosting (`/v1/dns/zones`): PowerDNS's HTTP API. Unset, the DNS routes answer 409
   * `dns_not_configured`. The key is a secret: it goes only into the API's request header.
   */
  POWERDNS_API_URL: z
    .url({ protocol: /^https?$/ })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  POWERDNS_API_KEY: z.string().regex(/^\S+$/, 'must not contain spaces').optional(),
  POWERDNS_SERVER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/)
    .default('localhost'),
  /** The name servers of every zone (its NS records; what a team sets at its registrar). Default: ns1 and ns2 of SITES_BASE_DOMAIN. */
  DNS_NAMESERVERS: commaList((entry) => entry.toLowerCase().replace(/\.$/, ''))
    .pipe(
      z
        .array(z.string().regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'each must be a host name such as ns1.example.com'))
        .min(1)
        .max(13),
    )
    .optional(),
  /**
   * Certificates from an ACME CA (Let's Encrypt: https://acme-v02.api.letsencrypt.org/directory).
   * Unset, certificates can only be uploaded. ACME_CA_CERT: a PEM file to trust for a private CA's
   * directory (a test's Pebble).
   */
  ACME_DIRECTORY_URL: z.url({ protocol: /^https$/ }).optional(),
  ACME_EMAIL: z.email().optional(),
  ACME_CA_CERT: z.string().min(1).optional(),
  /** The DNS servers that domain verification asks for TXT records (`ip` or `ip:port`, comma-separated); unset, the system's resolvers. */
  DOMAIN_VERIFY_RESOLVERS: commaList()
    .pipe(
      z
        .array(z.string().regex(/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?)$/, 'each must be an IP address, with :port if not 53'))
        .min(1)
        .max(5),
    )
    .optional(),
  /** Hours a pending domain claim has to be verified (its TXT record) before it lapses and must be added again. */
  DOMAIN_CLAIM_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(72),
  /** The largest plugin or theme package `POST /v1/uploads` takes (streamed into Postgres in chunks, never held whole). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(64 * 1024 ** 2),
  /** What one team may hold in live (unexpired) uploads at once: total bytes and how many. */
  UPLOAD_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 ** 3)
    .default(512 * 1024 ** 2),
  UPLOAD_QUOTA_COUNT: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Webhooks: the waits between a failed delivery's attempts (the first is at once), about a day in all. */
  WEBHOOK_RETRY_SCHEDULE: durations.default(['5s', '5m', '30m', '2h', '5h', '10h', '10h'].map(durationMs)),
  WEBHOOK_TIMEOUT: duration.default(15_000),
  /** An endpoint whose every attempt failed for this long is disabled (and its team's owners told). */
  WEBHOOK_DISABLE_AFTER: duration.default(5 * 86_400_000),
  WEBHOOK_DISPATCH_INTERVAL: duration.default(1000),
  /** Off in production: a webhook may not target loopback, private, link-local or other internal addresses. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag.default(false),
  LOCAL_AGENT_NODE_NAME: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and hyphens')
    .default('local'),
});

export type Environment = z.infer<typeof environmentSchema>;
