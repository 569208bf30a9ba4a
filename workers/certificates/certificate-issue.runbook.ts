import https from 'node:https';
import acme from 'acme-client';
import { seal, unseal } from '../../shared/crypto/sealed.ts';
import { AcmeAccount, Certificate, DnsZone, Environment } from '../../shared/db/models.ts';
import { dnsProviderOf } from '../../shared/domains/dns/zones.ts';
import { checkCertificate, storeCertificate } from '../../shared/domains/certificates/certificates.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { verifiedDomains } from '../../shared/domains/site-domains/site-domains.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import type { WorkerDeps } from '../registry.ts';
import { installFailed, putCertificateFiles, routeWithCertificate, verifyTls } from './certificate-install.runbook.ts';
import { urlSchemeStep } from '../edge/url-scheme.ts';
import { agentCommand, environmentOf } from '../environments/environment-context.ts';
import { prepareNodeServices } from '../environments/environment-steps.ts';
import { siteHost } from '../environments/site-runtime.ts';

/** The platform's ACME settings; a worker without them fails the operation for good. */
function acmeSettings(deps: WorkerDeps) {
  const settings = deps.config.acme;
  if (!settings) throw new StepFailed('no ACME CA is configured (ACME_DIRECTORY_URL)', { permanent: true });
  // a private CA's directory (a test's Pebble) is trusted by its certificate, not by the system's roots
  if (settings.caCertPem) acme.axios.defaults.httpsAgent = new https.Agent({ ca: settings.caCertPem });
  return settings;
}

/**
 * What the CA said, from acme-client's error (its problem document's detail: CAA, a name that does
 * not resolve, a challenge the edge did not answer, a rate limit). Only a CA that could not be
 * reached is worth another try of the step; an answer of the CA stands until something changes.
 */
function acmeFailure(what: string, error: unknown): StepFailed {
  const message = (error as Error).message ?? String(error);
  const unreachable = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|socket hang up|timeout of \d+ms/i.test(message) && !/acme-challenge/.test(message);
  return new StepFailed(`${what}: ${message}`, { permanent: !unreachable });
}

/** The client of the platform's account, made (and registered) once per CA directory; its key sealed. */
async function accountClient(step: StepContext): Promise<acme.Client> {
  const settings = acmeSettings(step.deps);
  const account = await step.deps.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`acme:${settings.directoryUrl}`]);
    const existing = await AcmeAccount.query(trx).findById(settings.directoryUrl);
    if (existing) return existing;
    const key = (await acme.crypto.createPrivateEcdsaKey()).toString();
    return AcmeAccount.query(trx).insertAndFetch({ directory_url: settings.directoryUrl, key_sealed: seal(step.deps.secretKey, key) });
  });
  const client = new acme.Client({
    directoryUrl: settings.directoryUrl,
    accountKey: unseal(step.deps.secretKey, account.key_sealed),
    ...(account.account_url ? { accountUrl: account.account_url } : {}),
  });
  if (!account.account_url) {
    try {
      await client.createAccount({ termsOfServiceAgreed: true, ...(settings.email ? { contact: [`mailto:${settings.email}`] } : {}) });
    } catch (error) {
      throw acmeFailure(`registering with ${settings.directoryUrl}`, error);
    }
    await AcmeAccount.query(step.deps.db).patch({ account_url: client.getAccountUrl() }).where({ directory_url: settings.directoryUrl });
  }
  return client;
}

async function ensureAcmeAccount(step: StepContext): Promise<unknown> {
  const client = await accountClient(step);
  await step.log(`ACME account ${client.getAccountUrl()}`);
  return { account_url: client.getAccountUrl() };
}

/**
 * An order for the site's names (its address and verified domains), each authorized by DNS-01 when
 * it lies in a zone the team hosts here (a TXT record at _acme-challenge.<name>, removed after), else
 * by HTTP-01: the key authorization is put where the node's edge serves /.well-known/acme-challenge/
 * for every site, the CA fetches it through the edge; then the order is finalized with a CSR of a new key, and
 * the certificate stored (pending, for the next steps to install). A retry starts a new order.
 */
async function obtainCertificate(step: StepContext<OperationInput<'certificate.issue'>>): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const client = await accountClient(step);
  const names = [...new Set([siteHost(environment), ...((await verifiedDomains(step.deps.db, [environment.id])).get(environment.id) ?? [])])];
  const provider = dnsProviderOf(step.deps.config.dns);
  const zones = provider ? await DnsZone.query(step.deps.db).where({ team_id: environment.team_id }) : [];
  const [key, csr] = await acme.crypto.createCsr({ commonName: names[0]!, altNames: names }, await acme.crypto.createPrivateEcdsaKey());
  let chain: string;
  try {
    const order = await client.createOrder({ identifiers: names.map((value) => ({ type: 'dns', value })) });
    for (const authorization of await client.getAuthorizations(order)) {
      if (authorization.status === 'valid') continue;
      const name = authorization.identifier.value;
      // a name in a zone the team hosts here is proved in DNS (DNS-01, what a wildcard needs); any other through the edge
      const zone = provider ? zones.find((candidate) => name === candidate.name || name.endsWith(`.${candidate.name}`)) : undefined;
      const dns01 = zone ? authorization.challenges.find((candidate) => candidate.type === 'dns-01') : undefined;
      if (provider && zone && dns01) {
        const record = `_acme-challenge.${name}`;
        await provider.replaceRecordSet(zone.name, { name: record, type: 'TXT', ttl: 60, values: [await client.getChallengeKeyAuthorization(dns01)] });
        try {
          await client.completeChallenge(dns01);
          await client.waitForValidStatus(dns01);
        } finally {
          await provider.deleteRecordSet(zone.name, record, 'TXT').catch(() => undefined);
        }
        await step.log(`${name}: DNS-01 answered in the zone ${zone.name}`);
        continue;
      }
      const challenge = authorization.challenges.find((candidate) => candidate.type === 'http-01');
      if (!challenge) throw new StepFailed(`the CA offers no HTTP-01 challenge for ${name}, and it is in no zone hosted here for DNS-01`, { permanent: true });
      const answer = await client.getChallengeKeyAuthorization(challenge);
      await runAgentCommand(step.deps, {
        // the token in the part: a retry's new order has a new token, which must be written, not taken for done
        ...agentCommand(step, 'obtain', node.id, `challenge-${challenge.token}`),
        kind: 'files.put',
        payload: {
          files: [
            {
              path: `${nodeLayout(node.id).edgeAcmeDir}/.well-known/acme-challenge/${challenge.token}`,
              content_base64: Buffer.from(answer).toString('base64'),
              mode: 0o644,
            },
          ],
        },
      });
      await client.completeChallenge(challenge);
      await client.waitForValidStatus(challenge);
      await step.log(`${authorization.identifier.value}: HTTP-01 answered through the edge`);
    }
    const finalized = await client.finalizeOrder(order, csr);
    chain = await client.getCertificate(finalized);
  } catch (error) {
    if (error instanceof StepFailed) throw error;
    throw acmeFailure(`the CA did not issue a certificate for ${names.join(', ')}`, error);
  }
  const checked = checkCertificate({ certificate_pem: chain, private_key_pem: key.toString() }, names[0]!);
  const certificate = await step.deps.db.transaction(async (trx) => {
    await Environment.query(trx).findById(environment.id).forUpdate();
    // a renewal never replaces a certificate the team uploaded meanwhile
    const current = await Certificate.query(trx).findOne({ environment_id: environment.id });
    if (step.input.renewal === true && current && current.source !== 'acme') {
      throw new StepFailed('a certificate was uploaded while this renewal ran: it stays, and this one is dropped', { permanent: true });
    }
    return storeCertificate(trx, step.deps.secretKey, environment, checked, 'acme');
  });
  await step.log(`certificate for ${names.join(', ')} issued by ${certificate.issuer}, valid until ${certificate.not_after.toISOString()}`);
  return { certificate_id: certificate.id, names };
}

/** `certificate.issue`: a certificate from the platform's ACME CA, installed on the node's edge like an uploaded one. */
export const certificateIssueRunbook: Runbook<'certificate.issue'> = {
  steps: {
    node_services: prepareNodeServices,
    account: ensureAcmeAccount,
    obtain: obtainCertificate,
    files: putCertificateFiles,
    route: routeWithCertificate,
    verify_tls: verifyTls,
    scheme: urlSchemeStep('scheme'),
    purge_cache: purgePageCache,
  },
  result: (results) => ({
    ...(results.obtain as Record<string, unknown>),
    ...(results.verify_tls as Record<string, unknown>),
    url_scheme: (results.scheme as { url_scheme?: string } | undefined)?.url_scheme,
  }),
  onFailed: installFailed,
};
