import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../shared/config/config-error.ts';
import { AGENT_BUILD_VERSION } from './version.ts';

export { ConfigError };

export const DEFAULT_CONFIG_PATH = '/etc/berth-agent/config.json';

// Checked by hand, not with zod: the config is read at start, and zod loaded for it would stay in
// an idle agent's memory (~10 MB with its schemas); the agent loads zod with its first command.
/** `fallback` when absent; `optional`: absent is fine (undefined); else `read` says what is wrong with an absent one. */
type Setting<T> = { read: (value: unknown) => T | Problem; fallback?: T; optional?: true };
class Problem {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

const flag = (fallback: boolean): Setting<boolean> => ({
  read: (value) =>
    typeof value === 'boolean'
      ? value
      : value === '1' || value === 'true'
        ? true
        : value === '0' || value === 'false'
          ? false
          : new Problem('must be true, false, 1 or 0'),
  fallback,
});
/** Any value Number() reads (the environment gives strings), whole and within bounds. */
const integer = (min: number, max: number, fallback: number): Setting<number> => ({
  read: (value) => {
    const number = Number(value);
    if (!Number.isInteger(number)) return new Problem('must be a whole number');
    return number < min || number > max ? new Problem(`must be between ${min} and ${max}`) : number;
  },
  fallback,
});
const text = (min: number, max: number, fallback?: string): Setting<string> => ({
  read: (value) =>
    typeof value !== 'string'
      ? new Problem('must be a string')
      : value.length < min || value.length > max
        ? new Problem(`must be ${min} to ${max} characters`)
        : value,
  ...(fallback === undefined ? {} : { fallback }),
});
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const httpUrl: Setting<string> = {
  read: (value) => {
    if (value === undefined) return new Problem("required (the control plane's URL)");
    if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) return new Problem('must be an http(s) URL');
    return value.replace(/\/+$/, '');
  },
};

/**
 * Every setting, by its key in the config file; the environment variable is `AGENT_` + the key in
 * upper case and wins over the file (the installer writes the file, an operator can override).
 */
const settingsSchema = {
  control_plane_url: httpUrl,
  /** Plain http to a non-loopback control plane: only for test setups. */
  allow_insecure: flag(false),
  /** The journal, the key and node identity, and the site files that commands reach (relative paths only). */
  data_dir: text(1, Infinity, '/var/lib/berth-agent'),
  docker_socket: text(1, Infinity, '/var/run/docker.sock'),
  /** One-time; needed only until the agent's key is registered. */
  enrollment_token: { ...text(20, 200), optional: true } as Setting<string | undefined>,
  /** Commands run at once: most wait on the engine or the network; the heavy ones of one environment come one at a time. */
  concurrency: integer(1, 256, 16),
  version: text(1, 50, AGENT_BUILD_VERSION),
  /** image.ensure pulls a missing image only when allowed (nodes without a registry keep it off). */
  allow_pull: flag(false),
  log_level: {
    read: (value: unknown) =>
      LOG_LEVELS.includes(value as (typeof LOG_LEVELS)[number])
        ? (value as (typeof LOG_LEVELS)[number])
        : new Problem(`must be one of ${LOG_LEVELS.join(', ')}`),
    fallback: 'info',
  } as Setting<(typeof LOG_LEVELS)[number]>,
  /** On SIGTERM: how long in-flight commands may run on before they are failed. */
  shutdown_grace_ms: integer(0, 600_000, 20_000),
  /** How long one part (one request) of a stream to the control plane is fed: within its 30 s request timeout. */
  stream_part_ms: integer(100, 25_000, 15_000),
  /** How often the environments' log files are looked at (a stat each; 0: logs are not shipped). */
  logs_interval_ms: integer(0, 60_000, 1_000),
  /** Where the SFTP server listens (0: a free port, which the heartbeat reports). */
  sftp_host: text(1, Infinity, '0.0.0.0'),
  sftp_port: integer(0, 65535, 2022),
  /** Wrong SFTP passwords per username and address before a lockout, and how long it lasts. */
  sftp_max_failures: integer(1, 1000, 5),
  sftp_lockout_seconds: integer(1, 86_400, 900),
  /** The first wrong password's delay (doubling with each one after, to 8 s). */
  sftp_failure_delay_ms: integer(0, 10_000, 500),
};
type Settings = { [Key in keyof typeof settingsSchema]: (typeof settingsSchema)[Key] extends Setting<infer T> ? T : never };
type SettingKey = keyof Settings;

/** Each setting read (its default when absent), or every problem found. */
function readSettings(values: Record<string, unknown>): { settings: Settings; problems: Array<{ key: string; message: string }> } {
  const settings: Record<string, unknown> = {};
  const problems: Array<{ key: string; message: string }> = [];
  for (const [key, setting] of Object.entries(settingsSchema) as Array<[string, Setting<unknown>]>) {
    const value = values[key];
    const read = value !== undefined ? setting.read(value) : 'fallback' in setting ? setting.fallback : setting.optional ? undefined : setting.read(value);
    if (read instanceof Problem) problems.push({ key, message: read.message });
    else settings[key] = read;
  }
  return { settings: settings as Settings, problems };
}

export type AgentConfig = Readonly<{
  controlPlaneUrl: string;
  dataDir: string;
  dockerSocket: string;
  enrollmentToken: string | undefined;
  concurrency: number;
  agentVersion: string;
  allowPull: boolean;
  logLevel: Settings['log_level'];
  shutdownGraceMs: number;
  streamPartMs: number;
  logsIntervalMs: number;
  sftpHost: string;
  sftpPort: number;
  sftpThrottle: { maxFailures: number; windowMs: number; lockoutMs: number; baseDelayMs: number; maxDelayMs: number };
  configPath: string | null;
}>;

export function envName(key: string): string {
  return `AGENT_${key.toUpperCase()}`;
}

/**
 * Reads the config file (AGENT_CONFIG, default /etc/berth-agent/config.json; a missing default file is
 * fine) and the environment, once. A bad or missing value names both places it can be set.
 */
export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const configPath = env.AGENT_CONFIG || DEFAULT_CONFIG_PATH;
  const fromFile = readConfigFile(configPath, Boolean(env.AGENT_CONFIG));
  const merged: Record<string, unknown> = { ...fromFile.values };
  for (const key of Object.keys(settingsSchema)) {
    const value = env[envName(key)];
    if (value !== undefined && value !== '') merged[key] = value;
  }
  const { settings, problems } = readSettings(merged);
  if (problems.length > 0) {
    const lines = problems.map(({ key, message }) => {
      const where = fromFile.path ? ` (or "${key}" in ${fromFile.path})` : '';
      return `  ${envName(key)}${where}: ${message}`;
    });
    throw new ConfigError(`invalid agent configuration:\n${lines.join('\n')}`);
  }
  const url = new URL(settings.control_plane_url);
  if (url.protocol !== 'https:' && !isLoopback(url.hostname) && !settings.allow_insecure) {
    throw new ConfigError(
      `invalid agent configuration:\n  ${envName('control_plane_url')}: must be https (plain http only to a loopback address, or with ${envName('allow_insecure')}=1)`,
    );
  }
  return Object.freeze({
    controlPlaneUrl: settings.control_plane_url,
    dataDir: path.resolve(settings.data_dir),
    dockerSocket: settings.docker_socket,
    enrollmentToken: settings.enrollment_token,
    concurrency: settings.concurrency,
    agentVersion: settings.version,
    allowPull: settings.allow_pull,
    logLevel: settings.log_level,
    shutdownGraceMs: settings.shutdown_grace_ms,
    streamPartMs: settings.stream_part_ms,
    logsIntervalMs: settings.logs_interval_ms,
    sftpHost: settings.sftp_host,
    sftpPort: settings.sftp_port,
    sftpThrottle: {
      maxFailures: settings.sftp_max_failures,
      windowMs: Math.max(15 * 60_000, settings.sftp_lockout_seconds * 1000),
      lockoutMs: settings.sftp_lockout_seconds * 1000,
      baseDelayMs: settings.sftp_failure_delay_ms,
      maxDelayMs: Math.max(settings.sftp_failure_delay_ms, 8_000),
    },
    configPath: fromFile.path,
  });
}

function readConfigFile(configPath: string, explicit: boolean): { path: string | null; values: Partial<Record<SettingKey, unknown>> } {
  let text: string;
  try {
    text = fs.readFileSync(configPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) return { path: null, values: {} };
    throw new ConfigError(`invalid agent configuration:\n  AGENT_CONFIG: cannot read ${configPath} (${(error as Error).message})`);
  }
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`invalid agent configuration:\n  AGENT_CONFIG: ${configPath} is not JSON (${(error as Error).message})`);
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new ConfigError(`invalid agent configuration:\n  AGENT_CONFIG: ${configPath} must hold a JSON object`);
  }
  const unknown = Object.keys(values).filter((key) => !Object.hasOwn(settingsSchema, key));
  if (unknown.length > 0) {
    throw new ConfigError(`invalid agent configuration:\n  AGENT_CONFIG: ${configPath} has unknown keys: ${unknown.join(', ')}`);
  }
  return { path: configPath, values: values as Record<string, unknown> };
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
