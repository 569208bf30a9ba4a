import tls from 'node:tls';
import { Certificate, OperationStep } from '../../shared/db/models.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import type { Operation } from '../../shared/db/models.ts';
import { agentCommand, environmentAndNode, environmentOf } from '../environments/environment-context.ts';
import { prepareNodeServices } from '../environments/environment-steps.ts';
import { writeEdgeRoute } from '../edge/edge-route.ts';
import { urlSchemeStep } from '../edge/url-scheme.ts';
import { certificateFiles, siteHost } from '../environments/site-runtime.ts';

const VERIFY_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the certificate steps read of an operation's input: an upload names its certificate, an issuance finds it in its `obtain` step. */
export type CertificateStep = StepContext<{ environment_id: number; certificate_id?: string | undefined }>;

async function certificateOf(step: CertificateStep): Promise<Certificate> {
  // an upload names its certificate; an issuance stores it in its `obtain` step
  const id = step.input.certificate_id ?? (step.results.obtain as { certificate_id?: string } | undefined)?.certificate_id;
  const certificate = id ? await Certificate.query(step.deps.db).findById(id) : undefined;
  // replaced by a newer upload meanwhile: that one's own operation installs it
  if (!certificate) throw new StepFailed('this certificate was replaced before it was installed', { permanent: true });
  return certificate;
}

/** The chain and the key into the node's edge/certs (the key 0600, and dropped from the stored command once written). */
export async function putCertificateFiles(step: CertificateStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const certificate = await certificateOf(step);
  await runAgentCommand(step.deps, {
    ...agentCommand(step, 'files', node.id),
    kind: 'files.put',
    payload: { files: certificateFiles(step.deps.secretKey, environment, certificate) },
  });
  return { fingerprint_sha256: certificate.fingerprint_sha256 };
}

/** What the edge's HTTPS port presents for `host`: the certificate's SHA-256 fingerprint (it is not trusted here, only compared). */
function presented(address: string, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: address, port, servername: host, rejectUnauthorized: false, timeout: 10_000 }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.on('timeout', () => socket.destroy(new Error('timed out after 10 s')));
    socket.on('error', reject);
  });
}

/** The edge's HTTPS port presents this certificate for the site's address; then it is `installed`. */
export async function verifyTls(step: CertificateStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const certificate = await certificateOf(step);
  const address = node.public_address ?? node.ssh_host;
  const host = siteHost(environment);
  const deadline = Date.now() + VERIFY_TIMEOUT_MS;
  let seen = '';
  for (;;) {
    seen = await presented(address, node.edge_https_port!, host).catch((error: Error) => `(${error.message})`);
    if (seen === certificate.fingerprint_sha256 || Date.now() > deadline) break;
    await sleep(250);
  }
  if (seen !== certificate.fingerprint_sha256) {
    throw new StepFailed(
      `https://${address}:${node.edge_https_port}/ (SNI ${host}) presents ${seen || 'nothing'}, not the certificate ${certificate.fingerprint_sha256}`,
    );
  }
  await Certificate.query(step.deps.db).patch({ status: 'installed', updated_at: new Date() }).where({ id: certificate.id });
  await step.log(`https://${host}/ is served with the certificate issued by ${certificate.issuer} (until ${certificate.not_after.toISOString()})`);
  return { host, fingerprint_sha256: seen, not_after: certificate.not_after.toISOString() };
}

/** The environment's route with this certificate (on the node since the `files` step) for HTTPS on 443; a hot reload. */
export async function routeWithCertificate(step: CertificateStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const certificate = await certificateOf(step);
  const written = await writeEdgeRoute(step.deps, { operation: step.operation, step: 'route' }, environment, node, node.edge_https_port ? certificate : null);
  return { primary: siteHost(environment), https: written.https, config: written.files[0] };
}

/** A certificate that could not be installed says so; the route is written again without it (the edge keeps serving as before). */
export async function installFailed(
  deps: WorkerDeps,
  operation: Operation,
  input: { environment_id: number; certificate_id?: string | undefined },
): Promise<void> {
  // an upload names its certificate; an issuance stored it in its `obtain` step
  const obtained = await OperationStep.query(deps.db).findOne({ operation_id: operation.id, name: 'obtain' });
  const id = input.certificate_id ?? (obtained?.result as { certificate_id?: string } | null | undefined)?.certificate_id;
  if (id) await Certificate.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).where({ id }).whereNot({ status: 'installed' });
  try {
    const { environment, node } = await environmentAndNode(deps, input.environment_id);
    await writeEdgeRoute(deps, { operation, step: 'after-failure' }, environment, node);
  } catch (error) {
    deps.logger.warn(
      { operation_id: operation.id, err: (error as Error).message },
      'the route could not be written again after a failed certificate (the node will be reconciled)',
    );
  }
}

/** `certificate.install`: an environment's certificate put on its node's edge and checked over TLS, then WordPress moved to https (when forced). */
export const certificateInstallRunbook: Runbook<'certificate.install'> = {
  steps: {
    node_services: prepareNodeServices,
    files: putCertificateFiles,
    route: routeWithCertificate,
    verify_tls: verifyTls,
    scheme: urlSchemeStep('scheme'),
    purge_cache: purgePageCache,
  },
  result: (results) => ({
    ...(results.verify_tls as Record<string, unknown>),
    url_scheme: (results.scheme as { url_scheme?: string } | undefined)?.url_scheme,
  }),
  onFailed: installFailed,
};
