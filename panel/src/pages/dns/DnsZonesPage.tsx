import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { components } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { formatDate } from '../backups/format.ts';

export type DnsZone = components['schemas']['DnsZone'];

/** The team's DNS zones hosted on Berth: add one (then delegate it at the registrar), open it, stop hosting it. */
export default function DnsZonesPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<DnsZone | null>(null);
  const zones = useQuery({ queryKey: ['dns-zones', 'list', page], queryFn: () => berth.dnsZones.list({ page, page_size: 25 }) });
  const create = useApiForm({
    submit: (values) => berth.dnsZones.create({ body: { name: (values.name ?? '').trim().toLowerCase() } }),
    invalidates: [['dns-zones']],
    onSuccess: (zone) => navigate(`/dns/${zone.id}`),
  });
  const remove = useMutation({
    mutationFn: (zone: DnsZone) => berth.dnsZones.delete({ zone: zone.id }),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ['dns-zones'] });
    },
  });
  return (
    <Page title="DNS">
      <Section title="Add a zone">
        <p>Host a domain's DNS on Berth: its records are kept here, and its custom domains on your sites are verified at once.</p>
        <Form form={create} submitLabel="Add zone" className="form form-inline">
          <TextField name="name" label="Domain" placeholder="example.com" required spellCheck={false} autoComplete="off" error={create.error('name')} />
        </Form>
      </Section>
      <Section title="Zones">
        {zones.isPending ? <Loading label="Loading zones" /> : null}
        <ErrorNotice error={zones.error} />
        {zones.data ? (
          <>
            <DataTable<DnsZone>
              caption="DNS zones"
              rows={zones.data.data}
              rowKey={(zone) => zone.id}
              empty="No zones hosted on Berth yet."
              columns={[
                { header: 'Zone', cell: (zone) => <Link href={`/dns/${zone.id}`}>{zone.name}</Link> },
                { header: 'Name servers', cell: (zone) => zone.nameservers.join(', ') },
                { header: 'Added', cell: (zone) => formatDate(zone.created_at) },
                {
                  header: 'Actions',
                  cell: (zone) => (
                    <button type="button" className="button button-danger" onClick={() => setDeleting(zone)}>
                      Delete<span className="visually-hidden"> {zone.name}</span>
                    </button>
                  ),
                },
              ]}
            />
            <Pager page={page} totalPages={zones.data.pagination.total_pages} onPage={setPage} />
          </>
        ) : null}
      </Section>
      <ConfirmDialog
        open={deleting !== null}
        title={`Stop hosting ${deleting?.name ?? 'this zone'}?`}
        confirmLabel="Delete zone"
        typeToConfirm={deleting?.name}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>Every record of the zone is deleted. While the domain is still delegated to Berth's name servers, its names stop resolving.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Page>
  );
}
