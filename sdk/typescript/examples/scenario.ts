/**
 * The end-to-end scenario of the SDK against a live Berth: sign in as a script (new-device approval
 * through a callback) → create an API token → a client from that token → create a site and wait for
 * it with progress → list its plugins → take a backup → restore it → add an SFTP user → delete the site.
 *
 *   BERTH_URL=https://berth.example.com BERTH_EMAIL=ops@example.com BERTH_PASSWORD=... \
 *     node sdk/typescript/examples/scenario.ts
 *
 * The device code e-mailed on a new device is read from stdin (or from BERTH_DEVICE_CODE).
 */
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { Berth, type OperationDetail } from '../src/index.ts';

export type ScenarioOptions = {
  baseUrl: string;
  email: string;
  password: string;
  /** The 6-digit code Berth e-mails when this script signs in from a new device. */
  deviceCode: () => Promise<string>;
  log: (line: string) => void;
  /** A stable id of the machine running the scenario: approved once, trusted afterwards. */
  deviceFingerprint?: string;
  /** Where the site goes (default: any region with room). */
  region?: string;
};

export async function runScenario(options: ScenarioOptions): Promise<void> {
  const { baseUrl, log } = options;
  const session = await Berth.signIn({
    baseUrl,
    email: options.email,
    password: options.password,
    deviceFingerprint: options.deviceFingerprint ?? 'berth-sdk-scenario',
    onDeviceApproval: async ({ deviceFingerprint }) => {
      log(`new device ${deviceFingerprint}: waiting for the e-mailed code`);
      return options.deviceCode();
    },
  });
  log('signed in as a script');

  const apiToken = await session.apiTokens.create({ body: { name: `sdk scenario ${new Date().toISOString()}`, permissions: ['*'], expires_in_days: 1 } });
  if (!apiToken.token) throw new Error('the API token answer carried no secret');
  log(`API token ${apiToken.prefix}… created`);
  const berth = new Berth({ baseUrl, token: apiToken.token });

  const progress = (what: string) => (operation: OperationDetail) => {
    const step = operation.steps.find((candidate) => candidate.status === 'running')?.name;
    log(`${what}: ${operation.status} ${operation.progress}%${step ? ` (${step})` : ''}`);
  };

  const php = await berth.sites.listPhpVersions();
  const slug = `sdk-${Date.now().toString(36)}`;
  const created = await berth.sites.create({
    body: {
      name: `SDK scenario ${slug}`,
      slug,
      php_version: php.default,
      ...(options.region ? { region: options.region } : {}),
      wordpress: { title: 'SDK scenario', admin_user: 'admin', admin_email: options.email },
    },
  });
  const site = created.site;
  log(`site ${site.id} (${slug}) creating`);
  await berth.waitForOperation(created.operation.id, { onProgress: progress('create site') });

  const env = 'production';
  const plugins = await berth.plugins.list({ id: site.id, env });
  log(`plugins: ${plugins.data.map((plugin) => `${plugin.slug}${plugin.active ? ' (active)' : ''}`).join(', ') || 'none'}`);

  const backup = await berth.backups.create({ id: site.id, env, body: { note: 'sdk scenario' } });
  await berth.waitForOperation(backup.operation.id, { onProgress: progress('backup') });
  log(`backup ${backup.backup.id} taken`);

  const restore = await berth.backups.restore({ id: site.id, env, backup: backup.backup.id, body: {} });
  await berth.waitForOperation(restore.operation.id, { onProgress: progress('restore') });
  log(`backup ${backup.backup.id} restored`);

  const sftp = await berth.sftpUsers.create({ id: site.id, env, body: { generate_password: true } });
  await berth.waitForOperation(sftp.operation.id, { onProgress: progress('sftp user') });
  log(`SFTP user ${sftp.sftp_user.username} added`);

  const deleted = await berth.sites.delete({ id: site.id });
  await berth.waitForOperation(deleted.operation.id, { onProgress: progress('delete site') });
  log(`site ${site.id} deleted`);
}

async function codeFromStdin(): Promise<string> {
  if (process.env.BERTH_DEVICE_CODE) return process.env.BERTH_DEVICE_CODE;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question('device code from the e-mail: ')).trim();
  } finally {
    prompt.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const required = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`set ${name}`);
    return value;
  };
  await runScenario({
    baseUrl: required('BERTH_URL'),
    email: required('BERTH_EMAIL'),
    password: required('BERTH_PASSWORD'),
    deviceFingerprint: process.env.BERTH_DEVICE_FINGERPRINT,
    region: process.env.BERTH_REGION,
    deviceCode: codeFromStdin,
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
}
