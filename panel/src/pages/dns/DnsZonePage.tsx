import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'wouter';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { RecordForm } from './RecordForm.tsx';
import { relativeName, type DnsRecordSet } from './records.ts';

const recordKey = (record: DnsRecordSet) => `${record.name} ${record.type}`;

/** One zone: where to delegate it, its record sets (add, change, delete). */
export default function DnsZonePage() {
  const zoneId = Number(useParams<{ zone: string }>().zone);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<DnsRecordSet | null>(null);
  const [deleting, setDeleting] = useState<DnsRecordSet | null>(null);
  const zone = useQuery({
    queryKey: ['dns-zones', 'one', zoneId],
    queryFn: () => berth.dnsZones.get({ zone: zoneId }),
    throwOnError: (error) => (error as { status?: number }).status === 404,
  });
  const records = useQuery({ queryKey: ['dns-records', zoneId], queryFn: () => berth.dnsRecords.list({ zone: zoneId }) });
  const remove = useMutation({
    mutationFn: (record: DnsRecordSet) => berth.dnsRecords.delete({ zone: zoneId, name: record.name, type: record.type }),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ['dns-records', zoneId] });
    },
  });
  const zoneName = zone.data?.name ?? '';
  return (
    <Page title={zone.data ? zone.data.name : 'DNS zone'} back={{ href: '/dns', label: 'DNS' }}>
      {zone.isPending ? <Loading label="Loading the zone" /> : null}
      <ErrorNotice error={zone.error} />
      {zone.data ? (
        <>
          <Section title="Delegation">
            <p>The zone answers once the domain's registrar lists these name servers for it:</p>
            <ul>
              {zone.data.nameservers.map((nameserver) => (
                <li key={nameserver}>
                  <code>{nameserver}</code>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Records">
            {records.isPending ? <Loading label="Loading records" /> : null}
            <ErrorNotice error={records.error} />
            {records.data ? (
              <DataTable<DnsRecordSet>
                caption={`Records of ${zoneName}`}
                rows={records.data.records}
                rowKey={recordKey}
                empty="No records yet."
                columns={[
                  { header: 'Name', cell: (record) => relativeName(record.name, zoneName) },
                  { header: 'Type', cell: (record) => record.type },
                  {
                    header: 'Content',
                    cell: (record) => (
                      <ul className="dns-values">
                        {record.values.map((value) => (
                          <li key={value}>
                            <code>{value}</code>
                          </li>
                        ))}
                      </ul>
                    ),
                  },
                  { header: 'TTL', cell: (record) => `${record.ttl} s` },
                  {
                    header: 'Actions',
                    cell: (record) => (
                      <div className="button-row">
                        <button type="button" className="button" onClick={() => setEditing(record)}>
                          Change<span className="visually-hidden"> {recordKey(record)}</span>
                        </button>
                        <button type="button" className="button button-danger" onClick={() => setDeleting(record)}>
                          Delete<span className="visually-hidden"> {recordKey(record)}</span>
                        </button>
                      </div>
                    ),
                  },
                ]}
              />
            ) : null}
          </Section>
          <Section title={editing ? 'Change a record' : 'Add a record'}>
            {editing ? (
              <RecordForm key={recordKey(editing)} zoneId={zoneId} zoneName={zoneName} record={editing} onDone={() => setEditing(null)} />
            ) : (
              <RecordForm zoneId={zoneId} zoneName={zoneName} />
            )}
          </Section>
        </>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ? `${relativeName(deleting.name, zoneName)} ${deleting.type}` : 'this record'}?`}
        confirmLabel="Delete record"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>Every value of this record set goes; resolvers may keep the old answer for up to its TTL ({deleting?.ttl} s).</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Page>
  );
}
