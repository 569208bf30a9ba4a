import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { loadSecrets, type Secrets } from './secrets.ts';
import { environmentSchema, type Environment } from './environment.ts';
import { backupStorageOf, dnsOf, dunningScheduleOf, stripeOf, readPem, type BackupStorage, type DnsConfig, type StripeConfig } from './services.ts';

export type { BackupStorage, DnsConfig, S3BackupStorage, StripeConfig } from './services.ts';

export type Config = Readonly<{
  env: Environment['NODE_ENV'];
  production: boolean;
  host: string;
  port: number;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  dataDir: string;
  trustedProxies: string[];
  logLevel: Environment['LOG_LEVEL'];
  rateLimits: {
    login: RateLimitRule;
    register: RateLimitRule;
    email: RateLimitRule;
    /** /v1 per subject: the sustained limit and the burst on top of it. */
    api: RateLimitRule;
    apiBurst: RateLimitRule;
    /** /v1/agent per client IP: every request, and failed authentications. */
    agent: RateLimitRule;
    agentAuthFailures: RateLimitRule;
  };
  shutdownGraceMs: number;
  /** How long one Server-Sent Events stream lasts before the server ends it (the client resumes). */
  eventStreamLifetimeMs: number;
  operations: { concurrency: number; sweepIntervalMs: number; lockMs: number; attempts: number; retryDelayMs: number };
  backupScheduler: { intervalMs: number };
  /** The prune sweep (workers/backups/prune-sweep.processor.ts): its interval (0: off) and how often one repository is pruned at most. */
  backupPrune: { sweepIntervalMs: number; intervalSeconds: number };
  /** How long a download waits for the node's first bytes (then 504), and for each next part. */
  backupDownload: { startMs: number };
  nodes: NodeEnrollmentConfig;
  /** An agent for this machine, run by `berth start` (single-machine setups). */
  localAgent: { mode: 'auto' | 'on' | 'off'; nodeName: string };
  sites: {
    baseDomain: string;
    phpVersions: string[];
    phpImages: Record<string, string>;
    edgeImage: string;
    mariadbImage: string;
    backupImage: string;
    /** WordPress trees copied ahead per node and PHP image (0: none). */
    wordpressPoolSize: number;
  };
  /** Where each node's backup repository lives. */
  backupStorage: BackupStorage;
  /** Where DNS zones are served from (none: the DNS API is off). */
  dns: DnsConfig;
  /** The resolvers a domain's verification TXT record is looked up with (empty: the system's). */
  domainVerifyResolvers: string[];
  /** Hours a pending domain claim has to be verified before it lapses. */
  domainClaimTtlHours: number;
  /** How often expiring ACME certificates are looked for. */
  certificateRenewal: { intervalMs: number };
  /** Invoices and subscriptions: see docs/api/billing.md. */
  billing: {
    sellerName: string;
    sellerCountry: string | null;
    taxRateBps: number;
    invoicePrefix: string;
    invoiceDueDays: number;
    unpaidAfterDays: number;
    sweepIntervalMs: number;
    provider: 'manual' | 'stripe';
    stripe: StripeConfig | null;
    dunningScheduleDays: readonly number[];
    trialEndBehavior: 'invoice' | 'pause';
    incompleteExpireHours: number;
  };
  /** The ACME CA certificates are issued by; null: none (uploads only). */
  acme: { directoryUrl: string; email: string | undefined; caCertPem: string | undefined } | null;
  /** Deliveries of webhook events: see docs/api/webhooks.md. */
  /** `dispatchIntervalMs` 0: these workers dispatch nothing (events wait for a worker that does). */
  webhooks: { retryScheduleMs: number[]; timeoutMs: number; disableAfterMs: number; dispatchIntervalMs: number; allowPrivateTargets: boolean };
  /** `maxBytes` per upload; `quotaBytes` and `quotaCount` over a team's live uploads. */
  uploads: { maxBytes: number; quotaBytes: number; quotaCount: number };
  secrets: Secrets;
}>;

export type RateLimitRule = { limit: number; windowMs: number };

export type NodeEnrollmentConfig = {
  agentBundlePath: string;
  controlPlaneUrl: string;
  agentDir: string;
  dockerSockets: string[];
  sshTimeoutMs: number;
  registrationTimeoutSeconds: number;
};

export { ConfigError };

/** Reads and validates the environment once; a bad or missing value names its variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(emptyAsUnset(source));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${problems.join('\n')}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  if (production) {
    const required = (['DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'SMTP_URL', 'JWT_PRIVATE_KEY', 'SECRET_KEY'] as const).filter((name) => !source[name]);
    if (required.length > 0) {
      throw new ConfigError(`invalid configuration:\n${required.map((name) => `  ${name}: required in production`).join('\n')}`);
    }
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const backupStorage = backupStorageOf(env);
  return Object.freeze({
    env: env.NODE_ENV,
    production,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    publicUrl: env.PUBLIC_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    dataDir,
    trustedProxies: env.TRUSTED_PROXIES,
    logLevel: env.LOG_LEVEL,
    rateLimits: {
      login: env.RATE_LIMIT_LOGIN,
      register: env.RATE_LIMIT_REGISTER,
      email: env.RATE_LIMIT_EMAIL,
      api: env.RATE_LIMIT_API,
      apiBurst: env.RATE_LIMIT_API_BURST,
      agent: env.RATE_LIMIT_AGENT,
      agentAuthFailures: env.RATE_LIMIT_AGENT_AUTH_FAILURES,
    },
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    eventStreamLifetimeMs: env.EVENT_STREAM_LIFETIME_MS,
    operations: {
      concurrency: env.OPERATION_CONCURRENCY,
      sweepIntervalMs: env.OPERATION_SWEEP_INTERVAL_MS,
      lockMs: env.OPERATION_LOCK_MS,
      attempts: env.OPERATION_ATTEMPTS,
      retryDelayMs: env.OPERATION_RETRY_DELAY_MS,
    },
    backupScheduler: { intervalMs: env.BACKUP_SCHEDULER_INTERVAL_MS },
    backupPrune: { sweepIntervalMs: env.BACKUP_PRUNE_SWEEP_INTERVAL_MS, intervalSeconds: env.BACKUP_PRUNE_INTERVAL_SECONDS },
    certificateRenewal: { intervalMs: env.CERTIFICATE_RENEWAL_INTERVAL_MS },
    billing: {
      sellerName: env.BILLING_SELLER_NAME,
      sellerCountry: env.BILLING_SELLER_COUNTRY ?? null,
      taxRateBps: env.BILLING_TAX_RATE_BPS,
      invoicePrefix: env.BILLING_INVOICE_PREFIX,
      invoiceDueDays: env.BILLING_INVOICE_DUE_DAYS,
      unpaidAfterDays: env.BILLING_UNPAID_AFTER_DAYS,
      sweepIntervalMs: env.BILLING_SWEEP_INTERVAL_MS,
      provider: env.BILLING_PROVIDER,
      stripe: stripeOf(env),
      dunningScheduleDays: dunningScheduleOf(env),
      trialEndBehavior: env.BILLING_TRIAL_END_BEHAVIOR,
      incompleteExpireHours: env.BILLING_INCOMPLETE_EXPIRE_HOURS,
    },
    backupDownload: { startMs: env.BACKUP_DOWNLOAD_START_SECONDS * 1000 },
    nodes: {
      agentBundlePath: path.resolve(env.AGENT_BUNDLE_PATH),
      controlPlaneUrl: env.AGENT_CONTROL_PLANE_URL ?? env.PUBLIC_URL,
      agentDir: env.NODE_AGENT_DIR.replace(/\/+$/, ''),
      dockerSockets: env.NODE_DOCKER_SOCKETS,
      sshTimeoutMs: env.NODE_SSH_TIMEOUT_MS,
      registrationTimeoutSeconds: env.NODE_REGISTRATION_TIMEOUT_SECONDS,
    },
    localAgent: { mode: env.LOCAL_AGENT ?? (env.NODE_ENV === 'development' ? 'auto' : 'off'), nodeName: env.LOCAL_AGENT_NODE_NAME },
    sites: {
      baseDomain: env.SITES_BASE_DOMAIN,
      phpVersions: env.SITE_PHP_VERSIONS,
      phpImages: env.SITE_PHP_IMAGES,
      edgeImage: env.SITE_EDGE_IMAGE,
      mariadbImage: env.SITE_MARIADB_IMAGE,
      backupImage: env.SITE_BACKUP_IMAGE,
      wordpressPoolSize: env.SITE_WORDPRESS_POOL_SIZE,
    },
    backupStorage,
    dns: dnsOf(env),
    domainVerifyResolvers: env.DOMAIN_VERIFY_RESOLVERS ?? [],
    domainClaimTtlHours: env.DOMAIN_CLAIM_TTL_HOURS,
    acme: env.ACME_DIRECTORY_URL ? { directoryUrl: env.ACME_DIRECTORY_URL, email: env.ACME_EMAIL, caCertPem: readPem(env.ACME_CA_CERT, 'ACME_CA_CERT') } : null,
    webhooks: {
      retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: env.WEBHOOK_TIMEOUT,
      disableAfterMs: env.WEBHOOK_DISABLE_AFTER,
      dispatchIntervalMs: env.WEBHOOK_DISPATCH_INTERVAL === 0 ? 0 : Math.max(100, env.WEBHOOK_DISPATCH_INTERVAL),
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
    uploads: { maxBytes: env.UPLOAD_MAX_BYTES, quotaBytes: env.UPLOAD_QUOTA_BYTES, quotaCount: env.UPLOAD_QUOTA_COUNT },
    secrets: loadSecrets({
      dataDir,
      jwtPrivateKey: env.JWT_PRIVATE_KEY,
      jwtPreviousPublicKeys: env.JWT_PREVIOUS_PUBLIC_KEYS,
      secretKey: env.SECRET_KEY,
    }),
  });
}

/** `FOO=` in a .env file means "not set", so the default applies. */
function emptyAsUnset(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}
