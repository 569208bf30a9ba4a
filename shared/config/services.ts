import fs from 'node:fs';
import { ConfigError } from './config-error.ts';
import type { Environment } from './environment.ts';

/**
 * The outside services a configuration names (Stripe, PowerDNS, a backup store) and the dunning
 * schedule: each read from its variables and checked together, so a half-configured one stops the
 * start naming what is missing, never showing a secret.
 */

/** The Stripe account's keys; `api` set: a stand-in's address instead of api.stripe.com. */
export type StripeConfig = { secretKey: string; webhookSecret: string; api: { host: string; port: number; protocol: 'http' | 'https' } | null };

export type DnsConfig = { kind: 'none' } | { kind: 'powerdns'; apiUrl: string; apiKey: string; serverId: string; nameservers: string[] };

/** A node-local repository (the default), or one per node in an S3-compatible store. */
export type BackupStorage = { kind: 'local' } | S3BackupStorage;

export type S3BackupStorage = {
  kind: 's3';
  /** An origin, e.g. `https://s3.example.com`. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string | undefined;
  /** The PEM read from BACKUP_S3_CA_CERT at start, if set. */
  caCertPem: string | undefined;
  answerTimeoutSeconds: number;
};

/** A PEM file named by a setting, read at start; a missing or empty one stops the start, naming the setting. */
export function readPem(file: string | undefined, variable: string): string | undefined {
  if (file === undefined) return undefined;
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`invalid configuration:\n  ${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`invalid configuration:\n  ${variable}: ${file} holds no PEM certificate`);
  return pem;
}

/**
 * The key and the webhook secret together or not at all (a key without a secret would take money
 * no webhook could report); BILLING_PROVIDER=stripe needs both. Messages never show the values.
 */
export function stripeOf(env: Environment): StripeConfig | null {
  const fail = (message: string) => new ConfigError(`invalid configuration:\n  ${message}`);
  if (env.STRIPE_SECRET_KEY === undefined && env.STRIPE_WEBHOOK_SECRET === undefined) {
    if (env.BILLING_PROVIDER === 'stripe') throw fail('STRIPE_SECRET_KEY: required when BILLING_PROVIDER is stripe (with STRIPE_WEBHOOK_SECRET)');
    if (env.STRIPE_API_BASE !== undefined) throw fail('STRIPE_SECRET_KEY: required when STRIPE_API_BASE is set (with STRIPE_WEBHOOK_SECRET)');
    return null;
  }
  if (env.STRIPE_SECRET_KEY === undefined) throw fail('STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET is set (the Stripe provider)');
  if (env.STRIPE_WEBHOOK_SECRET === undefined)
    throw fail('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (payments are reported by signed webhooks)');
  let api: StripeConfig['api'] = null;
  if (env.STRIPE_API_BASE !== undefined) {
    const base = new URL(env.STRIPE_API_BASE);
    const protocol = base.protocol === 'http:' ? 'http' : 'https';
    api = { host: base.hostname, port: base.port === '' ? (protocol === 'http' ? 80 : 443) : Number(base.port), protocol };
  }
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, api };
}

/** Without BILLING_DUNNING_SCHEDULE_DAYS: days after the due date on which an overdue invoice is dunned. */
const DEFAULT_DUNNING_SCHEDULE_DAYS = [1, 3, 5, 7];

/**
 * A schedule that is set must increase and end before BILLING_UNPAID_AFTER_DAYS: an attempt after
 * the withdrawal would dun a subscription that has lost its plan already. The default keeps only its
 * days before that, so a deployment that lowered BILLING_UNPAID_AFTER_DAYS still starts.
 */
export function dunningScheduleOf(env: Environment): number[] {
  const unpaid = env.BILLING_UNPAID_AFTER_DAYS;
  const days = env.BILLING_DUNNING_SCHEDULE_DAYS;
  if (days === undefined) return DEFAULT_DUNNING_SCHEDULE_DAYS.filter((day) => day < unpaid);
  const fail = (message: string) => new ConfigError(`invalid configuration:\n  BILLING_DUNNING_SCHEDULE_DAYS: ${message}`);
  for (const [index, day] of days.entries()) {
    if (index > 0 && day <= days[index - 1]!) throw fail(`days must increase (${days[index - 1]} then ${day})`);
  }
  const late = days.find((day) => day >= unpaid);
  if (late !== undefined)
    throw fail(`day ${late} is not before BILLING_UNPAID_AFTER_DAYS (${unpaid}): every attempt must come before the entitlements are withdrawn`);
  return days;
}

/** PowerDNS when its URL is set (with its key, or the start stops naming it); otherwise none. */
export function dnsOf(env: Environment): DnsConfig {
  if (env.POWERDNS_API_URL === undefined) {
    if (env.POWERDNS_API_KEY !== undefined)
      throw new ConfigError('invalid configuration:\n  POWERDNS_API_URL: required when POWERDNS_API_KEY is set (DNS hosting)');
    return { kind: 'none' };
  }
  if (env.POWERDNS_API_KEY === undefined)
    throw new ConfigError('invalid configuration:\n  POWERDNS_API_KEY: required when POWERDNS_API_URL is set (DNS hosting)');
  return {
    kind: 'powerdns',
    apiUrl: env.POWERDNS_API_URL,
    apiKey: env.POWERDNS_API_KEY,
    serverId: env.POWERDNS_SERVER_ID,
    nameservers: env.DNS_NAMESERVERS ?? [`ns1.${env.SITES_BASE_DOMAIN}`, `ns2.${env.SITES_BASE_DOMAIN}`],
  };
}

/**
 * All or nothing: a store named without its bucket or keys (or keys without a store) stops the
 * start, naming what is missing; the secret's value never appears in a message.
 */
export function backupStorageOf(env: Environment): BackupStorage {
  const required = ['BACKUP_S3_ENDPOINT', 'BACKUP_S3_BUCKET', 'BACKUP_S3_ACCESS_KEY_ID', 'BACKUP_S3_SECRET_ACCESS_KEY'] as const;
  const optional = ['BACKUP_S3_REGION', 'BACKUP_S3_CA_CERT'] as const;
  const set = [...required, ...optional].filter((name) => env[name] !== undefined);
  if (set.length === 0) return { kind: 'local' };
  const missing = required.filter((name) => env[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `invalid configuration:\n${missing.map((name) => `  ${name}: required when ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set (backups in S3-compatible storage)`).join('\n')}`,
    );
  }
  let caCertPem: string | undefined;
  if (env.BACKUP_S3_CA_CERT !== undefined) {
    try {
      caCertPem = fs.readFileSync(env.BACKUP_S3_CA_CERT, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `invalid configuration:\n  BACKUP_S3_CA_CERT: cannot read ${env.BACKUP_S3_CA_CERT} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    if (!caCertPem.includes('-----BEGIN CERTIFICATE-----'))
      throw new ConfigError(`invalid configuration:\n  BACKUP_S3_CA_CERT: ${env.BACKUP_S3_CA_CERT} holds no PEM certificate`);
  }
  return {
    kind: 's3',
    endpoint: env.BACKUP_S3_ENDPOINT!,
    bucket: env.BACKUP_S3_BUCKET!,
    accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID!,
    secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY!,
    region: env.BACKUP_S3_REGION,
    caCertPem,
    answerTimeoutSeconds: env.BACKUP_S3_ANSWER_TIMEOUT_SECONDS,
  };
}
