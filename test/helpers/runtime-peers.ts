import fs from 'node:fs';

/**
 * The agent's real peers on this machine, as `npm test` (ops/run.sh) sets them up and exports them:
 * a Docker Engine API (podman's, ops/lib/podman.sh), the test images (ops/lib/images.sh) and an
 * OpenSSH server on loopback standing in for a node to enroll (ops/lib/sshd.sh).
 */

function required(variable: string, peer: string, script: string): string {
  const value = process.env[variable];
  if (!value) {
    throw new Error(
      `${peer} is not set up: ${variable} is not set. Run the tests with \`npm test\`, whose ops/run.sh ` +
        `starts it (${script}), or export ${variable} yourself.`,
    );
  }
  return value;
}

function readPeerFile(path: string, variable: string, peer: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${peer}: cannot read ${variable}=${path} (${(error as Error).message}); run \`npm test\` to recreate it.`, { cause: error });
  }
}

/** The unix socket of the Docker Engine API (podman's Docker-compatible service by default). */
export function dockerSocket(): string {
  const socket = required('DOCKER_SOCKET', 'The Docker Engine API', 'ops/lib/podman.sh');
  if (!fs.existsSync(socket)) {
    throw new Error(`The Docker Engine API is not running: DOCKER_SOCKET=${socket} does not exist; run \`npm test\` to start it.`);
  }
  return socket;
}

/** The minimal Debian image (tini as PID 1, `sleep infinity` by default) built by ops/images/test-base.sh. */
export function testBaseImage(): string {
  return required('BERTH_TEST_BASE_IMAGE', 'The test base image', 'ops/lib/images.sh');
}

export interface TestSshd {
  host: string;
  port: number;
  /** The server's public host key line (`ssh-ed25519 AAAA... comment`), to verify the host. */
  hostPublicKey: string;
  /** Accepted for `root` and for `user`. */
  privateKey: string;
  /** A local account that also logs in with `password`. */
  user: string;
  password: string;
}

export function testSshd(): TestSshd {
  const peer = 'The test sshd';
  const script = 'ops/lib/sshd.sh';
  const keyPath = required('BERTH_TEST_SSH_KEY', peer, script);
  const hostKeyPath = required('BERTH_TEST_SSH_HOST_KEY', peer, script);
  return {
    host: required('BERTH_TEST_SSH_HOST', peer, script),
    port: Number(required('BERTH_TEST_SSH_PORT', peer, script)),
    hostPublicKey: readPeerFile(hostKeyPath, 'BERTH_TEST_SSH_HOST_KEY', peer).trim(),
    privateKey: readPeerFile(keyPath, 'BERTH_TEST_SSH_KEY', peer),
    user: required('BERTH_TEST_SSH_USER', peer, script),
    password: required('BERTH_TEST_SSH_PASSWORD', peer, script),
  };
}

/** The WordPress runtime images (ops/images/php-*.sh, edge.sh, mariadb.sh, backup.sh), built by ops/lib/images.sh. */
export interface WordpressImages {
  /** PHP version ("8.2") → image, oldest first; one per Debian suite that ships a PHP. */
  php: Array<{ version: string; image: string }>;
  edge: string;
  mariadb: string;
  /** restic, the MariaDB client, zstd and tar; idles under tini for exec. */
  backup: string;
}

export function wordpressImages(): WordpressImages {
  const script = 'ops/lib/images.sh';
  const php = Object.entries(process.env)
    .flatMap(([name, image]) => {
      const match = /^BERTH_PHP_(\d+)_(\d+)_IMAGE$/.exec(name);
      return match && image ? [{ version: `${match[1]}.${match[2]}`, image }] : [];
    })
    .sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }));
  if (php.length === 0) {
    throw new Error(
      'The PHP images are not set up: no BERTH_PHP_<major>_<minor>_IMAGE is set. Run the tests with `npm test`, whose ops/run.sh builds them (ops/lib/images.sh).',
    );
  }
  return {
    php,
    edge: required('BERTH_EDGE_IMAGE', 'The edge proxy image', script),
    mariadb: required('BERTH_MARIADB_IMAGE', 'The MariaDB image', script),
    backup: required('BERTH_BACKUP_IMAGE', 'The backup image', script),
  };
}

/** The machine's test state directory (ops/lib/test-peers.sh), where tests keep files that containers mount. */
export function testStateDir(): string {
  return process.env.BERTH_TEST_STATE || '/var/lib/berth-test';
}

/** The test PowerDNS (ops/lib/powerdns.sh): its HTTP API, its key, and the loopback port it answers DNS on. */
export function testPowerDns(): { apiUrl: string; apiKey: string; dnsPort: number } {
  const peer = 'The test PowerDNS';
  const script = 'ops/lib/powerdns.sh';
  return {
    apiUrl: required('BERTH_TEST_PDNS_API_URL', peer, script),
    apiKey: required('BERTH_TEST_PDNS_API_KEY', peer, script),
    dnsPort: Number(required('BERTH_TEST_DNS_PORT', peer, script)),
  };
}

/** Pebble's binary and the TLS certificate its directory is served with (ops/lib/pebble.sh). */
export function testPebble(): { binary: string; certificatePath: string; keyPath: string } {
  const peer = 'Pebble (ACME)';
  const script = 'ops/lib/pebble.sh';
  return {
    binary: required('BERTH_TEST_PEBBLE', peer, script),
    certificatePath: required('BERTH_TEST_PEBBLE_CERT', peer, script),
    keyPath: required('BERTH_TEST_PEBBLE_KEY', peer, script),
  };
}
