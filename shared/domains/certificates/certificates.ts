import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { seal } from '../../crypto/sealed.ts';
import { Certificate, Environment, Node, type Operation } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { startOperation, startOperations, type OperationDeps } from '../operations/operations.ts';
import { environmentIds, findEnvironment } from '../sites/environments.ts';
import { environmentKey } from '../sites/sites.ts';

export type Checked = { leaf: X509Certificate; chain: string; key: KeyObject };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * A certificate chain and key as uploaded, checked: PEM that parses, the key the leaf's, valid
 * now, and covering `host` (the address the site answers at). Each problem names its field.
 */
export function checkCertificate(input: { certificate_pem: string; private_key_pem: string }, host: string, now = new Date()): Checked {
  const blocks = input.certificate_pem.match(PEM_CERTIFICATE) ?? [];
  let leaf: X509Certificate;
  try {
    if (blocks.length === 0) throw new Error('no PEM certificate');
    leaf = new X509Certificate(blocks[0]!);
    for (const block of blocks.slice(1)) new X509Certificate(block);
  } catch {
    throw ValidationFailed.field('certificate_pem', "must be PEM certificates, the site's own first, then its intermediates");
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(input.private_key_pem);
  } catch {
    throw ValidationFailed.field('private_key_pem', 'must be an unencrypted PEM private key');
  }
  if (!leaf.checkPrivateKey(key)) throw ValidationFailed.field('private_key_pem', 'is not the key of the certificate');
  // what the edge's OpenSSL (Debian's security level 2) refuses would fail its reload
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'dsa' || (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) < 2048)) {
    throw ValidationFailed.field('private_key_pem', 'must be RSA of 2048 bits or more, ECDSA or Ed25519');
  }
  if (new Date(leaf.validFrom) > now || new Date(leaf.validTo) <= now) {
    throw ValidationFailed.field(
      'certificate_pem',
      `is not valid now (valid from ${new Date(leaf.validFrom).toISOString()} to ${new Date(leaf.validTo).toISOString()})`,
    );
  }
  if (!leaf.checkHost(host)) throw ValidationFailed.field('certificate_pem', `does not cover ${host}, the address the site answers at`);
  return { leaf, chain: `${blocks.join('\n')}\n`, key };
}

/** The names a certificate covers (its subject alternative DNS names). */
function namesOf(leaf: X509Certificate): string[] {
  return (leaf.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
}

/**
 * Installs an uploaded certificate on the environment: the row (replacing any earlier one), the key
 * sealed, and the `certificate.install` operation that puts it on the node's edge. 409 when the
 * environment is not active or its node serves no HTTPS (no `edge_https_port`).
 */
export async function uploadCertificate(
  deps: OperationDeps,
  secretKey: Buffer,
  actor: { teamId: number; userId: number },
  siteId: number,
  kind: string,
  input: { certificate_pem: string; private_key_pem: string },
): Promise<{ certificate: Certificate; operation: Operation }> {
  return deps.db.transaction(async (trx) => {
    const environment = await lockHttpsEnvironment(trx, actor.teamId, siteId, kind);
    const checked = checkCertificate(input, environment.primary_domain ?? environment.domain);
    const certificate = await storeCertificate(trx, secretKey, environment, checked, 'uploaded');
    const operation = await startOperation(
      trx,
      deps,
      'certificate.install',
      { ...environmentIds(environment), certificate_id: certificate.id },
      {
        teamId: actor.teamId,
        target: { type: 'environment', id: environment.id },
        serialKeys: [environmentKey(environment)],
        createdByUserId: actor.userId,
      },
    );
    return { certificate, operation };
  });
}

/** The environment's certificate row, replacing any earlier one: `pending` until an operation has installed it. */
export async function storeCertificate(
  trx: Knex.Transaction,
  secretKey: Buffer,
  environment: Pick<Environment, 'id' | 'team_id'>,
  checked: Checked,
  source: Certificate['source'],
): Promise<Certificate> {
  await Certificate.query(trx).delete().where({ environment_id: environment.id });
  return Certificate.query(trx).insertAndFetch({
    team_id: environment.team_id,
    environment_id: environment.id,
    names: JSON.stringify(namesOf(checked.leaf)) as never,
    source,
    status: 'pending',
    certificate_pem: checked.chain,
    key_sealed: seal(secretKey, checked.key.export({ type: 'pkcs8', format: 'pem' }).toString()),
    issuer: checked.leaf.issuer.replace(/\n/g, ', '),
    fingerprint_sha256: checked.leaf.fingerprint256,
    not_before: new Date(checked.leaf.validFrom),
    not_after: new Date(checked.leaf.validTo),
    updated_at: new Date(),
  });
}

export async function findCertificate(db: Db, teamId: number, siteId: number, kind: string): Promise<Certificate> {
  const { environment } = await findEnvironment(db, teamId, siteId, kind);
  const certificate = await Certificate.query(db).findOne({ environment_id: environment.id });
  if (!certificate) throw new NotFound('This environment has no certificate');
  return certificate;
}

/** The team's environment, locked, active, on a node that serves HTTPS (409 otherwise). */
async function lockHttpsEnvironment(trx: Knex.Transaction, teamId: number, siteId: number, kind: string): Promise<Environment> {
  const { environment: found } = await findEnvironment(trx, teamId, siteId, kind);
  const environment = (await Environment.query(trx).findById(found.id).forUpdate())!;
  if (environment.status !== 'active') throw new Conflict(`The ${environment.kind} environment is ${environment.status}, not active`);
  const node = await Node.query(trx).findById(environment.node_id);
  if (!node?.edge_https_port) throw new Conflict('The node of this environment serves no HTTPS yet (an operator sets its edge_https_port)');
  return environment;
}

/**
 * A certificate from the platform's ACME CA for the environment's address and its verified domains:
 * the `certificate.issue` operation. 409 when no CA is configured, the environment is not active, its
 * node serves no HTTPS, or an issuance for it is queued or running already.
 */
export async function requestIssuance(
  deps: OperationDeps,
  acmeConfigured: boolean,
  actor: { teamId: number; userId: number },
  siteId: number,
  kind: string,
): Promise<Operation> {
  if (!acmeConfigured) throw new Conflict('No ACME CA is configured on this Berth (ACME_DIRECTORY_URL): upload a certificate instead');
  return deps.db.transaction(async (trx) => {
    const environment = await lockHttpsEnvironment(trx, actor.teamId, siteId, kind);
    // one order at a time: a second would spend the CA's rate limit for the same names
    const running = await trx('operations')
      .where({ kind: 'certificate.issue' })
      .whereIn('status', ['queued', 'running'])
      .whereRaw("(input->>'environment_id')::int = ?", [environment.id])
      .first('id');
    if (running) throw new Conflict(`A certificate is being issued for this environment already (operation ${running.id})`);
    return startOperation(trx, deps, 'certificate.issue', environmentIds(environment), {
      teamId: actor.teamId,
      target: { type: 'environment', id: environment.id },
      serialKeys: [environmentKey(environment)],
      createdByUserId: actor.userId,
    });
  });
}

/** An ACME certificate is issued anew this long before it expires. */
export const RENEW_BEFORE_MS = 30 * 86_400_000;

/**
 * The renewals due: an installed ACME certificate of an active environment on a node serving HTTPS
 * that expires within RENEW_BEFORE_MS, with no issuance queued or running for it, gets a
 * `certificate.issue` operation (made by no user), handed to the workers after commit.
 */
export async function startRenewals(deps: OperationDeps, now = new Date()): Promise<Operation[]> {
  return deps.db.transaction(async (trx) => {
    // one sweep at a time plans: two workers never plan the same renewal twice
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['certificates.renewal-sweep']);
    const due = await trx('certificates as c')
      .join('environments as e', 'e.id', 'c.environment_id')
      .join('nodes as n', 'n.id', 'e.node_id')
      .where({ 'c.source': 'acme', 'c.status': 'installed', 'e.status': 'active' })
      .whereNotNull('n.edge_https_port')
      .where('c.not_after', '<', new Date(now.getTime() + RENEW_BEFORE_MS))
      .whereNotExists(function () {
        this.select(1)
          .from('operations as o')
          .where('o.kind', 'certificate.issue')
          .whereIn('o.status', ['queued', 'running'])
          .whereRaw("(o.input->>'environment_id')::int = e.id");
      })
      .select('e.id as environment_id', 'e.team_id', 'e.site_id');
    return startOperations(
      trx,
      deps,
      'certificate.issue',
      (due as Array<{ environment_id: number; team_id: number; site_id: number }>).map((row) => ({
        input: { site_id: row.site_id, environment_id: row.environment_id, renewal: true },
        start: {
          teamId: row.team_id,
          target: { type: 'environment', id: row.environment_id },
          serialKeys: [environmentKey({ id: row.environment_id })],
          createdByUserId: null,
        },
      })),
    );
  });
}
