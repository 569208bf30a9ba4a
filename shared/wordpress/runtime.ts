import fs from 'node:fs';
import { z } from 'zod';

/**
 * What a node's WordPress runtime looks like from outside the containers: the paths, users and
 * commands the images (ops/images/php, edge, mariadb) provide, and how the PHP helper
 * (berth-helper.php, next to this file) is called and answers. The agent or the workers build
 * container specs and exec commands from these, so the images and the code that drives them agree
 * in one place. Details: shared/wordpress/README.md.
 */
export const WORDPRESS_RUNTIME = {
  /** The site's files inside its container (a bind mount of the environment's files directory). */
  docroot: '/var/www/html',
  /** The helper's directory inside a site container: a read-only bind mount holding berth-helper.php. */
  helperDir: '/opt/berth',
  helperPath: '/opt/berth/berth-helper.php',
  /**
   * php-fpm's FastCGI socket, in a directory of the node that only the site's container and the edge
   * mount (no TCP listener: no other site can reach it). The edge sees it under edgeFilesRoot.
   */
  fpmSocketDir: '/run/berth',
  fpmSocketName: 'php-fpm.sock',
  /**
   * A per-environment working directory outside the docroot (a bind mount), for what the helper reads
   * that must not be served: uploaded plugin and theme zips, later dumps.
   */
  workDir: '/var/lib/berth/work',
  /** The pool's user, owner of the site's files: run the helper as this user. */
  siteUser: 'www-data',
  siteUid: 33,
  siteGid: 33,
  /**
   * The only capabilities a site container keeps (the engine drops the rest, and no-new-privileges
   * stops setuid binaries from giving any back). Measured by dropping each in turn: root gives the
   * docroot and the work directory to www-data (CHOWN; php-fpm's socket too), `berth-wordpress-seed`
   * switches to www-data to write the tree (SETUID, SETGID: setpriv), php-fpm's root master writes
   * its pid file in /run/php, which is www-data's (DAC_OVERRIDE), switches its pool to www-data
   * (SETUID, SETGID) and signals those children on reload and stop (KILL: without it a stop waits
   * for the engine's SIGKILL). The pool's workers, where tenant code runs, have none at all.
   */
  siteCapabilities: ['CHOWN', 'DAC_OVERRIDE', 'SETUID', 'SETGID', 'KILL'] as string[],
  /** The edge's: nginx's root master binds port 80, owns its temp directories for user nginx (101) and switches its workers to it. */
  edgeCapabilities: ['CHOWN', 'NET_BIND_SERVICE', 'SETUID', 'SETGID'] as string[],
  /** MariaDB's: the entrypoint owns the data directory for user mysql, initialises it as root, and mariadbd switches to mysql. */
  mariadbCapabilities: ['CHOWN', 'DAC_OVERRIDE', 'SETUID', 'SETGID'] as string[],
  /** Copies the image's WordPress into the docroot unless it has one; waits for the entrypoint's run. */
  seedCommand: ['berth-wordpress-seed'] as string[],
  /** The edge: per-site files in this directory (a bind mount), reloaded by edgeReloadCommand. */
  edgeSitesDir: '/etc/nginx/berth/sites',
  /** The edge's certificates and keys (a read-only bind mount of the node's edge/certs). */
  edgeCertsDir: '/etc/nginx/berth/certs',
  /** ACME HTTP-01 answers as the edge sees them (a read-only bind mount of the node's edge/acme). */
  edgeAcmeDir: '/etc/nginx/berth/acme',
  /** The environments' access and error logs as the edge writes them (a bind mount of the node's edge/logs). */
  edgeLogsDir: '/var/log/berth',
  /** Where the edge sees the sites' files: the agent's sites directory, mounted read-only here. */
  edgeFilesRoot: '/srv/sites',
  edgeReloadCommand: ['berth-edge-reload'] as string[],
  /** MariaDB: root through the socket inside the container (exec), the data directory to mount. */
  mariadbDataDir: '/var/lib/mysql',
  mariadbPort: 3306,
  mariadbReadyCommand: (seconds = 60): string[] => ['berth-mariadb-ready', String(seconds)],
} as const;

export const HELPER_FILE = new URL('./berth-helper.php', import.meta.url);

/** The helper's source, for the agent to write where a site container mounts WORDPRESS_RUNTIME.helperDir. */
export function wordpressHelperSource(): Buffer {
  return fs.readFileSync(HELPER_FILE);
}

export const helperCommands = [
  'write-config',
  'core-version',
  'replace-values',
  'install',
  'status',
  'inventory',
  'option-get',
  'option-set',
  'search-replace',
  'plugin-list',
  'plugin-activate',
  'plugin-deactivate',
  'plugin-delete',
  'plugin-install-zip',
  'theme-list',
  'theme-activate',
  'theme-delete',
  'theme-install-zip',
  'user-create',
  'password-link',
  'user-set-password',
  'wp-cli',
] as const;
export type HelperCommand = (typeof helperCommands)[number];

/** The exec command line (run it as WORDPRESS_RUNTIME.siteUser). */
export function helperExec(command: HelperCommand, input: Record<string, unknown> = {}): string[] {
  return ['php', WORDPRESS_RUNTIME.helperPath, command, JSON.stringify(input)];
}

const helperAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.record(z.string(), z.unknown()) }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  }),
]);

/** A helper run that answered with an error, or did not answer with the one JSON object it owes. */
export class WordpressHelperFailed extends Error {
  readonly command: string;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly exitCode: number;
  readonly stderrTail: string;

  constructor(command: string, code: string, message: string, exitCode: number, stderr: string, details: Record<string, unknown> = {}) {
    super(`wordpress helper ${command}: ${code}: ${message}`);
    this.name = 'WordpressHelperFailed';
    this.command = command;
    this.code = code;
    this.details = details;
    this.exitCode = exitCode;
    this.stderrTail = stderr.slice(-2000);
  }
}

/** The data of a successful run; throws WordpressHelperFailed otherwise. */
export function parseHelperOutput(command: string, run: { exit_code: number; stdout: string; stderr: string }): Record<string, unknown> {
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  let answer: z.infer<typeof helperAnswer>;
  try {
    answer = helperAnswer.parse(JSON.parse(line));
  } catch {
    throw new WordpressHelperFailed(
      command,
      'NO_ANSWER',
      `no JSON answer on stdout (exit ${run.exit_code}): ${run.stdout.slice(0, 300)}`,
      run.exit_code,
      run.stderr,
    );
  }
  if (!answer.ok) {
    throw new WordpressHelperFailed(command, answer.error.code, answer.error.message, run.exit_code, run.stderr, answer.error.details);
  }
  if (run.exit_code !== 0) {
    throw new WordpressHelperFailed(command, 'NO_ANSWER', `ok answer with exit code ${run.exit_code}`, run.exit_code, run.stderr);
  }
  return answer.data;
}
