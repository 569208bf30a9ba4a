import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Environment } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { isNotFound } from '../../api/errors.ts';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { TextAreaField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatDate } from '../backups/format.ts';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import type { StartedOperation } from '../../live/started-operation.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const RENEW_WARNING_DAYS = 14;

/** The environment's TLS certificate: its state and expiry, a free one from the platform's CA, or your own PEM. */
export function CertificateSection({ environment, onOperation }: { environment: Environment; onOperation: (operation: StartedOperation) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const queryClient = useQueryClient();
  const key = ['certificates', siteId, env];
  const certificate = useQuery({
    queryKey: key,
    // no certificate yet is a 404: an answer, not a failure
    queryFn: () => berth.certificates.get({ id: siteId, env }).catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error))),
  });
  const issue = useMutation({
    mutationFn: () => berth.certificates.issue({ id: siteId, env }),
    onSuccess: async (answer) => {
      onOperation({ id: answer.operation.id, title: 'Getting a certificate' });
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const upload = useApiForm({
    submit: (values) =>
      berth.certificates.upload({ id: siteId, env, body: { certificate_pem: values.certificate_pem ?? '', private_key_pem: values.private_key_pem ?? '' } }),
    invalidates: [key],
    onSuccess: (answer) => onOperation({ id: answer.operation.id, title: 'Installing your certificate' }),
  });
  const current = certificate.data;
  const daysLeft = current ? Math.floor((new Date(current.not_after).getTime() - Date.now()) / DAY_MS) : null;
  return (
    <Section title="HTTPS certificate">
      {certificate.isPending ? <Loading label="Loading the certificate" /> : null}
      <ErrorNotice error={certificate.error} />
      {current === null ? <p>No certificate yet: the site is served over plain HTTP.</p> : null}
      {current ? (
        <>
          <dl className="details">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={current.status} />
            </dd>
            <dt>Covers</dt>
            <dd>{current.names.join(', ')}</dd>
            <dt>From</dt>
            <dd>
              {current.source === 'acme' ? 'Issued by Berth' : 'Uploaded'} ({current.issuer})
            </dd>
            <dt>Valid</dt>
            <dd>
              {formatDate(current.not_before)} to {formatDate(current.not_after)}
            </dd>
            <dt>Fingerprint (SHA-256)</dt>
            <dd>
              <code className="domains-copy">{current.fingerprint_sha256}</code>
            </dd>
          </dl>
          {daysLeft !== null && daysLeft < 0 ? <Notice tone="warning">This certificate expired on {formatDate(current.not_after)}.</Notice> : null}
          {daysLeft !== null && daysLeft >= 0 && daysLeft < RENEW_WARNING_DAYS ? (
            <Notice tone="warning">
              This certificate expires in {daysLeft} {daysLeft === 1 ? 'day' : 'days'}.
            </Notice>
          ) : null}
        </>
      ) : null}
      <h3>Get a certificate</h3>
      <p>
        Berth asks its certificate authority for one covering {environment.primary_domain ?? environment.domain} and the verified domains. Each name's DNS must
        point at this environment already.
      </p>
      <button type="button" className="button button-primary" onClick={() => issue.mutate()} disabled={issue.isPending}>
        {issue.isPending ? 'Requesting…' : current ? 'Get a new certificate' : 'Get a certificate'}
      </button>
      <ErrorNotice error={issue.error} />
      <h3>Or upload your own</h3>
      <Form form={upload} submitLabel="Upload certificate">
        <TextAreaField
          name="certificate_pem"
          label="Certificate chain (PEM)"
          rows={8}
          spellCheck={false}
          placeholder="-----BEGIN CERTIFICATE-----"
          hint="The site's certificate first, then its intermediates."
          error={upload.error('certificate_pem')}
        />
        <TextAreaField
          name="private_key_pem"
          label="Private key (PEM, unencrypted)"
          rows={6}
          spellCheck={false}
          autoComplete="off"
          placeholder="-----BEGIN PRIVATE KEY-----"
          hint="Stored sealed and never shown again."
          error={upload.error('private_key_pem')}
        />
      </Form>
    </Section>
  );
}
