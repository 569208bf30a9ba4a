import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Environment } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatDate } from '../backups/format.ts';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import type { Domain } from './domain.ts';
import type { StartedOperation } from '../../live/started-operation.ts';
import { VerificationRecords } from './VerificationRecords.tsx';

export function DomainList({ environment, onOperation }: { environment: Environment; onOperation: (operation: StartedOperation) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<Domain | null>(null);
  const key = ['domains', siteId, env];
  const domains = useQuery({ queryKey: key, queryFn: () => berth.domains.list({ id: siteId, env }) });
  const changed = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: ['environments', siteId, env] })]);
  const verify = useMutation({
    mutationFn: (domain: Domain) => berth.domains.verify({ id: siteId, env, domain: domain.id }),
    onSuccess: async (answer) => {
      onOperation({ id: answer.operation.id, title: `Adding ${answer.domain.name}` });
      await changed();
    },
  });
  const setPrimary = useMutation({
    mutationFn: (domain: Domain | null) => berth.domains.setPrimary({ id: siteId, env, body: { domain_id: domain ? domain.id : null } }),
    onSuccess: async (answer) => {
      onOperation({ id: answer.operation.id, title: `Moving WordPress to ${answer.primary}` });
      await changed();
    },
  });
  const remove = useMutation({
    mutationFn: (domain: Domain) => berth.domains.delete({ id: siteId, env, domain: domain.id }),
    onSuccess: async (answer) => {
      setRemoving(null);
      // a verified domain leaves the edge through an operation; a pending claim just goes (204)
      if (answer) onOperation({ id: answer.operation.id, title: `Removing ${answer.domain.name}` });
      await changed();
    },
  });
  const rows = domains.data ?? [];
  const isPrimary = (domain: Domain) => environment.primary_domain === domain.name;
  return (
    <Section title="Domains">
      <p>
        WordPress answers at <strong>{environment.primary_domain ?? environment.domain}</strong>
        {environment.primary_domain ? null : ' (the default address)'}; every other domain redirects there.{' '}
        {environment.primary_domain ? (
          <button type="button" className="button button-link" onClick={() => setPrimary.mutate(null)} disabled={setPrimary.isPending}>
            Use the default address {environment.domain} instead
          </button>
        ) : null}
      </p>
      {domains.isPending ? <Loading label="Loading domains" /> : null}
      <ErrorNotice error={domains.error} />
      <ErrorNotice error={verify.error} title={verify.variables ? `${verify.variables.name} is not verified` : undefined} />
      <ErrorNotice error={setPrimary.error} />
      {domains.data ? (
        <DataTable<Domain>
          caption={`Custom domains of ${env}`}
          rows={rows}
          rowKey={(domain) => domain.id}
          empty="No custom domains yet: the site answers at its default address."
          columns={[
            {
              header: 'Domain',
              cell: (domain) => (
                <>
                  {domain.name} {isPrimary(domain) ? <span className="badge badge-good">primary</span> : null}
                </>
              ),
            },
            { header: 'Status', cell: (domain) => <StatusBadge status={domain.status} /> },
            {
              header: 'Verification',
              cell: (domain) =>
                domain.status === 'verified'
                  ? `${domain.verified_by === 'hosted_zone' ? 'Hosted zone' : 'TXT record'}, ${formatDate(domain.verified_at)}`
                  : domain.status === 'pending'
                    ? `Add the TXT record below by ${formatDate(domain.verify_by)}`
                    : domain.status === 'lapsed'
                      ? 'Not verified in time: remove it and add it again'
                      : 'Another claim proved control first',
            },
            {
              header: 'Actions',
              cell: (domain) => (
                <div className="button-row">
                  {domain.status === 'pending' ? (
                    <button type="button" className="button button-primary" onClick={() => verify.mutate(domain)} disabled={verify.isPending}>
                      Verify<span className="visually-hidden"> {domain.name}</span>
                    </button>
                  ) : null}
                  {domain.status === 'verified' && !isPrimary(domain) ? (
                    <button type="button" className="button" onClick={() => setPrimary.mutate(domain)} disabled={setPrimary.isPending}>
                      Make primary<span className="visually-hidden"> {domain.name}</span>
                    </button>
                  ) : null}
                  <button type="button" className="button button-danger" onClick={() => setRemoving(domain)}>
                    Remove<span className="visually-hidden"> {domain.name}</span>
                  </button>
                </div>
              ),
            },
          ]}
        />
      ) : null}
      <VerificationRecords domains={rows.filter((domain) => domain.status === 'pending')} environment={environment} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'this domain'}?`}
        confirmLabel="Remove domain"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
      >
        <p>
          The site stops answering at {removing?.name}
          {removing && isPrimary(removing) ? `, and WordPress moves back to its default address ${environment.domain}` : ''}. The claim on the name is given up.
        </p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
