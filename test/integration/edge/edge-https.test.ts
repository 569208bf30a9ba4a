import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULES_QUEUE } from '../../../shared/jobs/schedule.jobs.ts';
import { startAcmeSite, type AcmeSite } from '../../helpers/acme-site.ts';
import { accessTokenOf, createOwner, unique } from '../../helpers/factories.ts';
import { operationOutcome } from '../../helpers/site-node.ts';
import { addMember } from '../../helpers/team-members.ts';
import { until } from '../../helpers/until.ts';

/**
 * HTTPS done right and password-protected environments, seen from outside with curl: certificates
 * from a real ACME CA (Pebble), trusted through Pebble's own root only; the node's real edge; real
 * WordPress moved between schemes.
 */
let acme: AcmeSite;
let root = '';
let host = '';
const dirs: string[] = [];

type Answer = { status: number; headers: Record<string, string>; body: string };

/** One request with curl as a visitor makes it: the name resolved to the node, HTTPS checked against Pebble's root. */
function curl(url: string, options: { user?: string; headers?: string[] } = {}): Answer {
  const { hostname, port, protocol } = new URL(url);
  const resolvedPort = port || (protocol === 'https:' ? '443' : '80');
  const output = execFileSync('curl', [
    '-sS',
    '-i',
    '--max-time',
    '20',
    '--resolve',
    `${hostname}:${resolvedPort}:127.0.0.1`,
    '--cacert',
    root,
    ...(options.user ? ['-u', options.user] : []),
    ...(options.headers ?? []).flatMap((header) => ['-H', header]),
    url,
  ]).toString();
  const split = output.indexOf('\r\n\r\n');
  const [head, body] = [output.slice(0, split), output.slice(split + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

const http = (name: string, pathAndQuery = '/') => `http://${name}:${acme.site.node.edgePort}${pathAndQuery}`;
const https = (name: string, pathAndQuery = '/') => `https://${name}:${acme.site.node.edgeHttpsPort}${pathAndQuery}`;
const environmentPath = (kind = 'production') => `/v1/sites/${acme.site.siteId}/environments/${kind}`;

async function issueCertificate(kind = 'production'): Promise<Record<string, any>> {
  const reply = await acme.site.stack.client().post(`${environmentPath(kind)}/certificate/issue`, undefined, acme.site.bearer());
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const outcome = await operationOutcome(acme.site.stack, acme.site.token, reply.body.data.operation.id);
  expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
  return outcome;
}

async function sweep(): Promise<void> {
  const job = await acme.site.stack.ctx.queues.get(SCHEDULES_QUEUE).add('certificates.renewal-sweep', {});
  await until(async () => ['completed', 'failed'].includes(await job.getState()), 'the certificate sweep to run', 30_000);
}

/** An ACME challenge answer as the platform writes it: in the node's edge/acme directory. */
function plantChallenge(token: string, content: string): void {
  const dir = path.join(acme.site.node.dataDir, 'edge', 'acme', '.well-known', 'acme-challenge');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, token), content);
}

beforeAll(async () => {
  acme = await startAcmeSite('edge-https');
  host = acme.site.production.domain;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-edge-https-'));
  dirs.push(dir);
  root = path.join(dir, 'pebble-root.pem');
  fs.writeFileSync(root, await acme.pebble.issuingRoot());
}, 400_000);

afterAll(async () => {
  await acme?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, 180_000);

describe('HTTPS at the edge', () => {
  it('is forced once a certificate is issued: HTTP answers 301 to https (ACME challenges excepted), HTTPS sends HSTS, WordPress links to https', async () => {
    expect(curl(http(host)).status).toBe(200);
    const outcome = await issueCertificate();
    expect(outcome.logs.map((entry: { line: string }) => entry.line)).toContainEqual(
      expect.stringMatching(new RegExp(`^WordPress's URLs moved http → https \\(${host.replace(/\./g, '\\.')}\\)`)),
    );
    const environment = (await acme.site.stack.client().get(environmentPath(), acme.site.bearer())).body.data;
    expect(environment).toMatchObject({ url: `https://${host}/`, https: { force: true, url_scheme: 'https', hsts_max_age_seconds: 31_536_000 } });

    const redirected = curl(http(host, '/sample-page/?a=1'));
    expect([redirected.status, redirected.headers.location]).toEqual([301, `https://${host}/sample-page/?a=1`]);
    plantChallenge('edge-https-probe', 'challenge-answer');
    const challenge = curl(http(host, '/.well-known/acme-challenge/edge-https-probe'));
    expect([challenge.status, challenge.body]).toEqual([200, 'challenge-answer']);

    const page = curl(https(host));
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(page.body).toContain(`https://${host}/`);
    expect(page.body).not.toContain(`http://${host}`);
  }, 240_000);

  it('serves an alias the certificate covers over TLS, sending it on to the primary over https', async () => {
    const shop = `shop-${host.split('.')[0]!.slice(-10)}.test`;
    const zone = await acme.site.stack.client().post('/v1/dns/zones', { name: shop }, acme.site.bearer());
    expect(zone.status, JSON.stringify(zone.body)).toBe(201);
    try {
      await acme.site.succeeded(await acme.site.stack.client().post(`${environmentPath()}/domains`, { name: shop }, acme.site.bearer()));
      await issueCertificate();
      const overTls = curl(https(shop, '/cart/?x=2'));
      expect([overTls.status, overTls.headers.location]).toEqual([301, `https://${host}/cart/?x=2`]);
      expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000');
      const plain = curl(http(shop, '/'));
      expect([plain.status, plain.headers.location]).toEqual([301, `https://${host}/`]);
    } finally {
      await acme.site.stack.client().request('DELETE', `/v1/dns/zones/${zone.body.data.id}`, acme.site.bearer());
    }
  }, 240_000);

  it('turned off, stops the redirect and moves WordPress back to http; on again with a shorter HSTS', async () => {
    const off = await acme.site.stack.client().patch(`${environmentPath()}/https`, { force: false }, acme.site.bearer());
    expect(off.status, JSON.stringify(off.body)).toBe(202);
    await acme.site.succeeded(off);
    const plain = curl(http(host));
    expect(plain.status).toBe(200);
    expect(plain.body).toContain(`http://${host}/`);
    expect(plain.body).not.toContain(`https://${host}`);
    // HTTPS still answers (the certificate stays), without HSTS
    expect(curl(https(host)).headers['strict-transport-security']).toBeUndefined();

    await acme.site.succeeded(
      await acme.site.stack.client().patch(`${environmentPath()}/https`, { force: true, hsts_max_age_seconds: 600 }, acme.site.bearer()),
    );
    expect(curl(http(host)).status).toBe(301);
    const page = curl(https(host));
    expect([page.status, page.headers['strict-transport-security']]).toEqual([200, 'max-age=600']);
    expect(page.body).not.toContain(`http://${host}`);
  }, 240_000);

  it('is moved to by the daily sweep for an environment whose certificate predates forcing, once', async () => {
    await acme.site.succeeded(await acme.site.stack.client().patch(`${environmentPath()}/https`, { force: false }, acme.site.bearer()));
    // as a certificate installed before forcing existed leaves it: http, the choice never made
    await acme.site.stack.ctx.db('environments').where({ id: acme.site.production.id }).update({ force_https: null });
    // oldest first: `slice(before)` must give the ones the sweep started (rows updated since come back in any order otherwise)
    const edgeOperations = () =>
      acme.site.stack.ctx
        .db('operations')
        .where({ kind: 'environment.edge', target_id: String(acme.site.production.id) })
        .orderBy('created_at');
    const before = (await edgeOperations()).length;
    await sweep();
    const started = (await edgeOperations()).slice(before);
    expect(started).toHaveLength(1);
    expect((await operationOutcome(acme.site.stack, acme.site.token, started[0].id)).status).toBe('succeeded');
    expect(curl(http(host)).status).toBe(301);
    await sweep();
    expect(await edgeOperations()).toHaveLength(before + 1);
  }, 240_000);

  it('refuses forcing without a covering certificate (409), bad settings (422), another team (404) and a viewer (403)', async () => {
    const staging = await acme.site.stack.client().post(`/v1/sites/${acme.site.siteId}/environments`, { kind: 'staging' }, acme.site.bearer());
    await acme.site.succeeded(staging);
    const refused = await acme.site.stack.client().patch(`${environmentPath('staging')}/https`, { force: true }, acme.site.bearer());
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'CONFLICT']);
    for (const body of [{}, { force: 'yes' }, { hsts_max_age_seconds: -1 }, { hsts_max_age_seconds: 63_072_001 }, { force: true, extra: 1 }]) {
      const reply = await acme.site.stack.client().patch(`${environmentPath()}/https`, body, acme.site.bearer());
      expect([reply.status, reply.body.error?.code], JSON.stringify(body)).toEqual([422, 'VALIDATION_ERROR']);
    }
    const stranger = await createOwner(acme.site.stack.ctx.db);
    const strangerToken = await accessTokenOf(acme.site.stack.client(), stranger);
    for (const [method, suffix, body] of [
      ['PATCH', 'https', { force: false }],
      ['PUT', 'password-protection', { enabled: false }],
    ] as const) {
      const reply = await acme.site.stack.client().request(method, `${environmentPath()}/${suffix}`, { ...acme.site.bearer(strangerToken), json: body });
      expect(reply.status).toBe(404);
    }
    const viewer = await addMember(acme.site.stack.ctx.db, acme.site.owner, 'viewer');
    const viewerToken = await accessTokenOf(acme.site.stack.client(), viewer);
    const denied = await acme.site.stack.client().patch(`${environmentPath()}/https`, { force: false }, acme.site.bearer(viewerToken));
    expect([denied.status, denied.body.error?.details?.permission]).toEqual([403, 'sites:update']);
    // nothing was started by the refused calls
    expect(await acme.site.stack.ctx.db('operations').where({ kind: 'environment.edge', target_id: String(staging.body.data.environment.id) })).toEqual([]);
  }, 300_000);
});

describe('password protection at the edge', () => {
  it('protects a new staging environment with credentials shown once; ACME challenges and the platform probes pass', async () => {
    const key = unique('idem');
    const options = { headers: { ...acme.site.bearer().headers, 'idempotency-key': key } };
    // staging was made by the previous test; make development here, with an Idempotency-Key
    const made = await acme.site.stack.client().post(`/v1/sites/${acme.site.siteId}/environments`, { kind: 'development' }, options);
    expect(made.status, JSON.stringify(made.body)).toBe(202);
    const { username, password } = made.body.data.password_protection;
    expect(username).toBe('development');
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    // its own verify step got through the password (the probe's token)
    await acme.site.succeeded(made);
    const replay = await acme.site.stack.client().post(`/v1/sites/${acme.site.siteId}/environments`, { kind: 'development' }, options);
    expect([replay.headers.get('idempotent-replayed'), replay.body.data.password_protection]).toEqual(['true', { username: 'development', password: null }]);

    const domain = made.body.data.environment.domain as string;
    const anonymous = curl(http(domain));
    expect([anonymous.status, anonymous.headers['www-authenticate']]).toEqual([401, 'Basic realm="Protected site"']);
    expect(curl(http(domain), { user: `${username}:wrong-password` }).status).toBe(401);
    const signedIn = curl(http(domain), { user: `${username}:${password}` });
    expect(signedIn.status).toBe(200);
    // a visitor who guesses the probe header gets nothing
    expect(curl(http(domain), { headers: ['X-Berth-Probe: 0123456789abcdef0123456789abcdef01234567'] }).status).toBe(401);
    plantChallenge('edge-protected-probe', 'still-answered');
    expect(curl(http(domain, '/.well-known/acme-challenge/edge-protected-probe')).body).toBe('still-answered');

    // only the hash is kept: in the row and in the edge's file
    const row = await acme.site.stack.ctx.db('environments').where({ id: made.body.data.environment.id }).first();
    expect(row.password_protection_hash).toMatch(/^\$6\$/);
    const htpasswd = fs.readFileSync(path.join(acme.site.node.dataDir, 'edge', 'sites', `env-${row.id}.htpasswd`), 'utf8');
    expect(htpasswd).toBe(`development:${row.password_protection_hash}\n`);
    for (const text of [JSON.stringify(row), htpasswd]) expect(text).not.toContain(password);
  }, 300_000);

  it('is changed and removed with PUT …/password-protection, and refuses turning on without a password', async () => {
    const protectedPath = `${environmentPath('development')}/password-protection`;
    const domain = (await acme.site.stack.client().get(environmentPath('development'), acme.site.bearer())).body.data.domain as string;
    await acme.site.succeeded(
      await acme.site.stack.client().put(protectedPath, { enabled: true, username: 'reviewer', password: 'a new long password' }, acme.site.bearer()),
    );
    expect(curl(http(domain), { user: 'development:anything' }).status).toBe(401);
    expect(curl(http(domain), { user: 'reviewer:a new long password' }).status).toBe(200);

    const open = await acme.site.stack.client().put(protectedPath, { enabled: false }, acme.site.bearer());
    expect(open.body.data.environment.password_protection).toEqual({ enabled: false, username: null });
    await acme.site.succeeded(open);
    expect(curl(http(domain)).status).toBe(200);
    expect(fs.readFileSync(path.join(acme.site.node.dataDir, 'edge', 'sites', `env-${open.body.data.environment.id}.htpasswd`), 'utf8')).toBe('');

    for (const body of [
      { enabled: true, username: 'someone' },
      { enabled: true, username: 'x', password: 'short' },
      { enabled: true, username: 'a b', password: 'long enough' },
    ]) {
      const reply = await acme.site.stack.client().put(protectedPath, body, acme.site.bearer());
      expect([reply.status, reply.body.error?.code], JSON.stringify(body)).toEqual([422, 'VALIDATION_ERROR']);
    }
  }, 300_000);

  it('protects production over forced HTTPS too, and its operations still verify through it', async () => {
    await acme.site.succeeded(
      await acme.site.stack
        .client()
        .put(`${environmentPath()}/password-protection`, { enabled: true, username: 'team', password: 'production secret' }, acme.site.bearer()),
    );
    expect(curl(https(host)).status).toBe(401);
    expect(curl(https(host), { user: 'team:production secret' }).status).toBe(200);
    // an operation whose last step checks the front page through the edge
    await acme.site.succeeded(await acme.site.stack.client().post(`${environmentPath()}/restart`, undefined, acme.site.bearer()));
    await acme.site.succeeded(await acme.site.stack.client().put(`${environmentPath()}/password-protection`, { enabled: false }, acme.site.bearer()));
  }, 300_000);
});
