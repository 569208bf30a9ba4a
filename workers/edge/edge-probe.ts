import http from 'node:http';
import https from 'node:https';
import type { Environment, Node } from '../../shared/db/models.ts';
import { edgeProbeToken } from '../../shared/domains/edge/edge-settings.ts';

/** Where a probe of a node's edge connects: the node's address and its HTTP or HTTPS port. */
export type ProbeTarget = { address: string; port: number; https: boolean };

export type EdgeAnswer = { status: number; body: string; location?: string | undefined; headers: http.IncomingHttpHeaders };

/**
 * The node's edge for `scheme`: HTTPS on its HTTPS port when the environment's URLs are https (its
 * HTTP port then only redirects), else its HTTP port.
 */
export function probeTarget(node: Pick<Node, 'public_address' | 'ssh_host' | 'edge_http_port' | 'edge_https_port'>, scheme: 'http' | 'https'): ProbeTarget {
  const address = node.public_address ?? node.ssh_host;
  return scheme === 'https' && node.edge_https_port
    ? { address, port: node.edge_https_port, https: true }
    : { address, port: node.edge_http_port, https: false };
}

/** How a probe names its target in a step's message: the URL a visitor would use, and where it really went. */
export function describeProbe(target: ProbeTarget, host: string, path = '/'): string {
  return `${target.https ? 'https' : 'http'}://${target.address}:${target.port}${path} (${target.https ? 'SNI and Host' : 'Host'}: ${host})`;
}

/**
 * One request to the edge as a visitor would make it (the Host, SNI over HTTPS; the certificate is
 * not checked here, a certificate step compares its fingerprint), with the environment's probe
 * token: a password-protected site lets the platform's own checks through, and the page cache
 * neither answers nor keeps them.
 */
export function probeEdge(
  target: ProbeTarget,
  request: { host: string; path?: string; environment?: Pick<Environment, 'id'>; secretKey?: Buffer; headers?: Record<string, string> },
): Promise<EdgeAnswer> {
  const headers: Record<string, string> = { host: request.host, ...request.headers };
  if (request.environment && request.secretKey) headers['x-berth-probe'] = edgeProbeToken(request.secretKey, request.environment.id);
  const options = { agent: false as const, host: target.address, port: target.port, path: request.path ?? '/', headers, timeout: 10_000 };
  return new Promise((resolve, reject) => {
    const onResponse = (response: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), location: response.headers.location, headers: response.headers }),
      );
      response.on('error', reject);
    };
    const sent = target.https ? https.get({ ...options, servername: request.host, rejectUnauthorized: false }, onResponse) : http.get(options, onResponse);
    sent.on('timeout', () => sent.destroy(new Error('timed out after 10 s')));
    sent.on('error', reject);
  });
}
