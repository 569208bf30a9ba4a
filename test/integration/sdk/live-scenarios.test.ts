import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Berth, NotFoundError, ValidationError } from '../../../sdk/typescript/src/index.ts';
import { runScenario } from '../../../sdk/typescript/examples/scenario.ts';
import { LIVE_BURST_LIMIT, startLiveStack, type LiveStack } from '../../helpers/live-stack.ts';
import { runProgram } from '../../helpers/run-program.ts';

/**
 * Both SDKs' end-to-end scenario against Berth as `npm start` runs it (its own process, its local
 * agent making this machine a node): sign in as a script through device approval, make an API
 * token, create a site and watch its operation's progress, list plugins, back up and restore, add an
 * SFTP user, delete the site. The same steps in TypeScript and in Python, each as its docs show
 * them; then the errors a script must handle, in both languages.
 */
let live: LiveStack;

beforeAll(async () => {
  live = await startLiveStack('sdk-live');
}, 180_000);

afterAll(async () => {
  await live?.stop();
}, 60_000);

/** What a scenario's log must show: each step, in order, and progress while the site was made. */
function expectScenarioLog(lines: string[]): number {
  const text = lines.join('\n');
  const order = [
    /signed in/i,
    /api token/i,
    /site \d+/i,
    /(create site|site\.create): \w+ \d+%/i,
    /plugins:/i,
    /backup .* taken/i,
    /restored/i,
    /sftp user/i,
    /site \d+ deleted/i,
  ];
  let from = 0;
  for (const pattern of order) {
    const at = lines.findIndex((line, index) => index >= from && pattern.test(line));
    expect(at, `${pattern} after line ${from} in:\n${text}`).toBeGreaterThanOrEqual(from);
    from = at;
  }
  const percents = new Set([...text.matchAll(/(?:create site|site\.create): \w+ (\d+)%/gi)].map((match) => match[1]));
  expect(percents.size, text).toBeGreaterThan(1);
  return Number(/site (\d+)/i.exec(text)![1]);
}

describe('the TypeScript SDK against a live berth start', () => {
  it('signs in with device approval, makes a token, creates a site with progress, lists plugins, backs up, restores, adds an SFTP user, deletes the site', async () => {
    const owner = await live.newOwner();
    const mailsBefore = live.mailbox.to(owner.email).length;
    const lines: string[] = [];
    const started = performance.now();
    await runScenario({
      baseUrl: live.baseUrl,
      email: owner.email,
      password: owner.password,
      region: live.region,
      deviceCode: () => live.deviceCode(owner.email, mailsBefore),
      log: (line) => lines.push(line),
    });
    console.log(`TypeScript scenario: ${((performance.now() - started) / 1000).toFixed(1)} s\n${lines.join('\n')}`);
    const siteId = expectScenarioLog(lines);
    // Gone for real, not only in the example's words.
    expect(await live.db('sites').where({ id: siteId }).first()).toBeUndefined();
  }, 900_000);

  it("maps errors: another team's site is 404, a bad body 422 with its fields, and a burst past the limit waits out its 429s", async () => {
    const [mine, theirs] = [await live.newOwner(), await live.newOwner()];
    const theirSite = await live
      .db('sites')
      .insert({ team_id: theirs.teamId, name: 'Theirs', slug: `theirs-${Date.now().toString(36)}`, region: live.region })
      .returning('id');
    const berth = await signedIn(mine);

    const notFound = await berth.sites.get({ id: theirSite[0].id }).catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect((notFound as NotFoundError).code).toBe('NOT_FOUND');
    expect((notFound as NotFoundError).requestId).toMatch(/\S/);

    const invalid = await berth.sites
      .create({ body: { name: '', php_version: 'x', wordpress: { title: 't', admin_user: 'a', admin_email: 'a@example.test' } } })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).fields.map((field) => field.field)).toEqual(expect.arrayContaining(['name', 'php_version']));

    // Three times the burst limit at once: the API refuses two thirds with 429 and Retry-After,
    // and every call still succeeds because the SDK waits as told.
    const refusedBefore = countAnswers(live.berth.output(), 429);
    const answers = await Promise.all(Array.from({ length: LIVE_BURST_LIMIT * 3 }, () => berth.sites.listPhpVersions()));
    expect(answers.every((answer) => answer.versions.length > 0)).toBe(true);
    expect(countAnswers(live.berth.output(), 429) - refusedBefore).toBeGreaterThanOrEqual(LIVE_BURST_LIMIT);
  }, 120_000);
});

describe('the Python SDK against a live berth start', () => {
  it('signs in with device approval, makes a token, creates a site with progress, lists plugins, backs up, restores, adds an SFTP user, deletes the site', async () => {
    const owner = await live.newOwner();
    const started = performance.now();
    const { code, output } = await runProgram('/usr/bin/python3', ['sdk/python/examples/scenario.py'], {
      env: {
        PYTHONPATH: 'sdk/python',
        BERTH_URL: live.baseUrl,
        BERTH_EMAIL: owner.email,
        BERTH_PASSWORD: owner.password,
        BERTH_REGION: live.region,
        BERTH_DEVICE_CODE_URL: `${live.deviceCodeUrl}?email=${encodeURIComponent(owner.email)}&after=${live.mailbox.to(owner.email).length}`,
      },
    });
    console.log(`Python scenario: ${((performance.now() - started) / 1000).toFixed(1)} s\n${output}`);
    expect(code, output).toBe(0);
    const siteId = expectScenarioLog(output.split('\n'));
    // Gone for real, not only in the example's words.
    expect(await live.db('sites').where({ id: siteId }).first()).toBeUndefined();
  }, 900_000);

  it("maps errors: another team's site is 404, a bad body 422 with its fields, and a burst past the limit waits out its 429s", async () => {
    const [mine, theirs] = [await live.newOwner(), await live.newOwner()];
    const theirSite = await live
      .db('sites')
      .insert({ team_id: theirs.teamId, name: 'Theirs', slug: `theirs-${Date.now().toString(36)}`, region: live.region })
      .returning('id');
    const token = await apiTokenOf(mine);
    const refusedBefore = countAnswers(live.berth.output(), 429);
    const { code, output } = await runProgram('/usr/bin/python3', ['test/integration/sdk/python_error_paths.py'], {
      env: {
        PYTHONPATH: 'sdk/python',
        BERTH_URL: live.baseUrl,
        BERTH_TOKEN: token,
        OTHER_TEAMS_SITE: String(theirSite[0].id),
        BURST: String(LIVE_BURST_LIMIT * 3),
      },
    });
    expect(code, output).toBe(0);
    expect(output).toContain('404 NOT_FOUND');
    expect(output).toMatch(/422 VALIDATION_ERROR .*name.*php_version|422 VALIDATION_ERROR .*php_version.*name/);
    expect(output).toContain(`burst of ${LIVE_BURST_LIMIT * 3} answered`);
    expect(countAnswers(live.berth.output(), 429) - refusedBefore).toBeGreaterThanOrEqual(LIVE_BURST_LIMIT);
  }, 120_000);
});

describe('the berth command line against a live berth start', () => {
  it('logs in through the e-mailed device code, keeps its token 0600, and drives a site: create, clone, push, back up, download, restore, watch, logs, delete', async () => {
    const owner = await live.newOwner();
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-cli-'));
    const env = { BERTH_CONFIG_DIR: config };
    const berth = (args: string[], input?: (write: (line: string) => void) => Promise<void>) => runProgram('bin/berth', args, { env, input });

    expect((await berth(['sites', 'list'])).code).toBe(3); // not signed in
    expect((await berth(['sites', 'delete'])).code).toBe(2); // no SITE_ID

    const mailsBefore = live.mailbox.to(owner.email).length;
    const login = await berth(['login', '--url', live.baseUrl, '--email', owner.email, '--password-stdin'], async (write) => {
      write(owner.password);
      write(await live.deviceCode(owner.email, mailsBefore));
    });
    expect(login.code, login.output).toBe(0);
    const stored = path.join(config, 'credentials.json');
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(stored, 'utf8')).token).toMatch(/^berth_pat_/);

    const created = await berth(['sites', 'create', `CLI ${Date.now().toString(36)}`, '--region', live.region, '--json']);
    expect(created.code, created.output).toBe(0);
    expect(created.stderr).toMatch(/\[#*-*\]\s+\d+%/); // the progress bar, with step names
    const site = JSON.parse(created.stdout).site;
    expect(site.status).toBe('active');

    const listed = await berth(['sites', 'list', '--json']);
    expect(JSON.parse(listed.stdout).map((entry: { id: number }) => entry.id)).toContain(site.id);
    expect((await berth(['sites', 'list'])).stdout).toMatch(new RegExp(`^${site.id}\\s+CLI`, 'm'));

    expect((await berth(['envs', 'clone', String(site.id), 'staging'])).code).toBe(0);
    const pushed = await berth(['envs', 'push', String(site.id), 'staging', 'production', '--no-database']);
    expect(pushed.code, pushed.output).toBe(0);

    const backedUp = await berth(['backups', 'create', String(site.id), 'production', '--note', 'from the CLI', '--json']);
    expect(backedUp.code, backedUp.output).toBe(0);
    const backup = JSON.parse(backedUp.stdout);
    expect(backup.status).toBe('succeeded');
    const archive = path.join(config, 'backup.tar.zst');
    const downloaded = await berth(['backups', 'download', String(site.id), 'production', backup.id, '--output', archive]);
    expect(downloaded.code, downloaded.output).toBe(0);
    expect(fs.readFileSync(archive).subarray(0, 4).toString('hex')).toBe('28b52ffd'); // zstd's magic number
    expect((await berth(['backups', 'restore', String(site.id), 'production', backup.id])).code).toBe(2); // not confirmed
    const restored = await berth(['backups', 'restore', String(site.id), 'production', backup.id, '--yes', '--json']);
    expect(restored.code, restored.output).toBe(0);
    const operation = JSON.parse(restored.stdout).operation.id as string;

    const watched = await berth(['ops', 'watch', operation, '--json']);
    expect(watched.code, watched.output).toBe(0);
    expect(JSON.parse(watched.stdout).status).toBe('succeeded');
    const logs = await berth(['logs', operation]);
    expect(logs.code, logs.output).toBe(0);
    expect(logs.stdout.split('\n').length).toBeGreaterThan(1);

    const missing = await berth(['sites', 'delete', '2147483647', '--yes', '--json']);
    expect(missing.code).toBe(5);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const deleted = await berth(['sites', 'delete', String(site.id), '--yes']);
    expect(deleted.code, deleted.output).toBe(0);
    expect(await live.db('sites').where({ id: site.id }).first()).toBeUndefined();

    expect((await berth(['logout'])).code).toBe(0);
    expect(fs.existsSync(stored)).toBe(false);
  }, 900_000);
});

/** How many requests the berth process logged as answered with `status`. */
function countAnswers(log: string, status: number): number {
  return log.split('\n').filter((line) => line.includes(`"statusCode":${status}`) || line.includes(`"status":${status}`)).length;
}

/** A client of `owner`, signed in with the device approved through the e-mailed code. */
async function signedIn(owner: { email: string; password: string }): Promise<Berth> {
  const mailsBefore = live.mailbox.to(owner.email).length;
  return Berth.signIn({
    baseUrl: live.baseUrl,
    email: owner.email,
    password: owner.password,
    deviceFingerprint: 'live-scenario-errors',
    onDeviceApproval: () => live.deviceCode(owner.email, mailsBefore),
  });
}

async function apiTokenOf(owner: { email: string; password: string }): Promise<string> {
  const created = await (await signedIn(owner)).apiTokens.create({ body: { name: 'python error paths', permissions: ['*'], expires_in_days: 1 } });
  return created.token!;
}
