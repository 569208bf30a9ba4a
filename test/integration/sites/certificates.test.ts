import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOTTEN } from '../../../shared/domains/agent/agent-commands.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { operationOutcome } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';

/**
 * HTTPS on a real node's edge with an uploaded certificate: made with openssl for the site's
 * address, installed by a `certificate.install` operation, then seen over TLS by a client that
 * trusts only that certificate.
 */
let site: SiteOnNode;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-certs-'));
const certificatePath = () => `/v1/sites/${site.siteId}/environments/production/certificate`;

/** A self-signed certificate (and its key) for `names`, valid for `days`. */
function selfSigned(label: string, names: string[], days = 30): { certificate: string; key: string } {
  const certificate = path.join(scratch, `${label}.crt`);
  const key = path.join(scratch, `${label}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      certificate,
      '-days',
      String(days),
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`,
    ],
    { stdio: 'ignore' },
  );
  return { certificate: fs.readFileSync(certificate, 'utf8'), key: fs.readFileSync(key, 'utf8') };
}

/** GET / over HTTPS from the node's edge, trusting only `ca`, with SNI and Host `host`. */
function httpsGet(host: string, ca: string): Promise<{ authorized: boolean; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: site.node.edgeHttpsPort!, servername: host, ca, timeout: 10_000 }, () => {
      socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ authorized: socket.authorized, status: Number(text.split(' ')[1]), body: text });
    });
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  site = await startSiteOnNode('certs', { https: true, title: 'Served over TLS' });
}, 400_000);

afterAll(async () => {
  await site?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}, 60_000);

describe('an uploaded certificate', () => {
  it('is installed on the edge: a client trusting only it reaches the site over HTTPS; the key leaves no trace in the stored commands', async () => {
    const domain = site.production.domain;
    const pair = selfSigned('good', [domain]);
    const reply = await site.stack
      .client()
      .request('PUT', certificatePath(), { ...site.bearer(), json: { certificate_pem: pair.certificate, private_key_pem: pair.key } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    expect(reply.body.data.certificate).toMatchObject({ names: [domain], source: 'uploaded', status: 'pending' });
    const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
    expect(outcome.status, JSON.stringify({ error: outcome.error, logs: outcome.logs })).toBe('succeeded');
    expect((await site.stack.client().get(certificatePath(), site.bearer())).body.data).toMatchObject({
      status: 'installed',
      fingerprint_sha256: reply.body.data.certificate.fingerprint_sha256,
    });

    const answer = await httpsGet(domain, pair.certificate);
    expect(answer.authorized).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Served over TLS');
    // a name no site claims, or none at all, gets no certificate of this site: the handshake is refused
    for (const servername of ['other.example.test', undefined]) {
      const refused = await new Promise<string>((resolve) => {
        const socket = tls.connect(
          { host: '127.0.0.1', port: site.node.edgeHttpsPort!, ...(servername ? { servername } : {}), rejectUnauthorized: false },
          () => {
            resolve(`handshake done: ${socket.getPeerCertificate().fingerprint256}`);
            socket.end();
          },
        );
        socket.on('error', (error) => resolve(error.message));
      });
      expect(refused, String(servername)).toMatch(/alert|handshake failure|unrecognized name|ECONNRESET|socket disconnected/i);
    }
    // plain HTTP sends the visitor to HTTPS (forced by default once a certificate covers the address)
    const plain = await site.node.throughEdge(`http://${domain}/`);
    expect([plain.status, plain.headers.location]).toEqual([301, `https://${domain}/`]);

    // the operation writes other files too (the edge route): the command carrying the key pair
    const puts = await site.stack.ctx.db('agent_commands').where({ kind: 'files.put', operation_id: reply.body.data.operation.id });
    const files = puts
      .map((put) => put.payload.files as Array<{ path: string; content_base64: string }>)
      .find((written) => written.some((file) => file.path.endsWith('.key')))!;
    expect(files.find((file) => file.path.endsWith('.key'))!.content_base64).toBe(FORGOTTEN);
    expect(Buffer.from(files.find((file) => file.path.endsWith('.crt'))!.content_base64, 'base64').toString()).toContain('BEGIN CERTIFICATE');
  }, 120_000);

  it('replaces the certificate with a hot reload: no request over HTTP (its redirect) or HTTPS fails meanwhile', async () => {
    const domain = site.production.domain;
    const next = selfSigned('next', [domain]);
    const current = (await site.stack.client().get(certificatePath(), site.bearer())).body.data;
    let done = false;
    const answers: string[] = [];
    // four clients asking without pause, over both ports, while the edge reloads onto the new certificate
    const clients = Array.from({ length: 4 }, async (_, index) => {
      while (!done) {
        const answer =
          index % 2 === 0
            ? await site.node.throughEdge(`http://${domain}/`).then(
                // HTTPS is forced since the first certificate: plain HTTP answers with the redirect
                (reply) => (reply.status === 301 && reply.headers.location === `https://${domain}/` ? '200' : `http ${reply.status}`),
                (error: Error) => error.message,
              )
            : await new Promise<string>((resolve) => {
                const socket = tls.connect({ host: '127.0.0.1', port: site.node.edgeHttpsPort!, servername: domain, rejectUnauthorized: false }, () => {
                  socket.write(`GET / HTTP/1.1\r\nHost: ${domain}\r\nConnection: close\r\n\r\n`);
                });
                const chunks: Buffer[] = [];
                socket.on('data', (chunk: Buffer) => chunks.push(chunk));
                socket.on('end', () => resolve(Buffer.concat(chunks).toString().split(' ')[1] ?? 'no answer'));
                socket.on('error', (error) => resolve(error.message));
              });
        answers.push(answer);
      }
    });
    const reply = await site.stack
      .client()
      .request('PUT', certificatePath(), { ...site.bearer(), json: { certificate_pem: next.certificate, private_key_pem: next.key } });
    const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
    done = true;
    await Promise.all(clients);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    console.log(
      `certificate hot reload: ${answers.length} requests during the install, ${answers.filter((answer) => answer !== '200').length} not as expected (200 over HTTPS, 301 to it over HTTP)`,
    );
    expect(answers.length).toBeGreaterThan(8);
    expect(answers.filter((answer) => answer !== '200')).toEqual([]);
    const installed = (await site.stack.client().get(certificatePath(), site.bearer())).body.data;
    expect(installed.fingerprint_sha256).not.toBe(current.fingerprint_sha256);
  }, 120_000);

  it("refuses what would not serve the site: garbage, a key that is not the certificate's, another name (422); a node without HTTPS (409)", async () => {
    const domain = site.production.domain;
    const good = selfSigned('again', [domain]);
    const other = selfSigned('other', [domain]);
    const elsewhere = selfSigned('elsewhere', ['www.example.org']);
    const put = (certificate_pem: string, private_key_pem: string) =>
      site.stack.client().request('PUT', certificatePath(), { ...site.bearer(), json: { certificate_pem, private_key_pem } });
    const fieldsOf = async (reply: Promise<{ status: number; body: any }>) => {
      const answer = await reply;
      expect(answer.status).toBe(422);
      return answer.body.error.details.fields.map((field: { field: string }) => field.field);
    };
    expect(await fieldsOf(put('not a certificate', good.key))).toEqual(['certificate_pem']);
    expect(await fieldsOf(put(good.certificate, 'not a key'))).toEqual(['private_key_pem']);
    expect(await fieldsOf(put(good.certificate, other.key))).toEqual(['private_key_pem']);
    expect(await fieldsOf(put(elsewhere.certificate, elsewhere.key))).toEqual(['certificate_pem']);

    await site.stack.ctx.db('nodes').where({ id: site.node.nodeId }).update({ edge_https_port: null });
    try {
      expect((await put(good.certificate, good.key)).status).toBe(409);
    } finally {
      await site.stack.ctx.db('nodes').where({ id: site.node.nodeId }).update({ edge_https_port: site.node.edgeHttpsPort });
    }
    // the installed certificate is untouched by the refusals
    expect((await site.stack.client().get(certificatePath(), site.bearer())).body.data.status).toBe('installed');
  });

  it('leaves no certificate or key on the node once the site is deleted', async () => {
    const layout = environmentLayout(site.production);
    const certificate = path.join(site.node.dataDir, layout.certificateFile);
    const key = path.join(site.node.dataDir, layout.certificateKeyFile);
    expect(fs.existsSync(certificate) && fs.existsSync(key)).toBe(true);
    const reply = await site.stack.client().request('DELETE', `/v1/sites/${site.siteId}`, site.bearer());
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(outcome.logs.map((line: { line: string }) => line.line).join('\n')).toContain('certificate and key removed');
    expect([fs.existsSync(certificate), fs.existsSync(key)]).toEqual([false, false]);
  });
});
