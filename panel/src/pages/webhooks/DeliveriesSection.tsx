import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField } from '../../components/Field.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import type { Delivery } from './types.ts';

const statuses = ['', 'pending', 'succeeded', 'failed'] as const;
type StatusFilter = (typeof statuses)[number];

/** From the event to the delivery's end, over every attempt (each attempt's own time is on its page). */
export function elapsed(delivery: Delivery): string {
  if (!delivery.finished_at) return '—';
  const ms = new Date(delivery.finished_at).getTime() - new Date(delivery.created_at).getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The endpoint's delivery log, newest first, with a way to send an event again. */
export function DeliveriesSection({ webhookId, canManage }: { webhookId: number; canManage: boolean }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<StatusFilter>('');
  const deliveries = useQuery({
    queryKey: ['webhookDeliveries', webhookId, status, page],
    queryFn: () => berth.webhookDeliveries.list({ webhook: webhookId, page, page_size: 20, ...(status ? { status } : {}) }),
    // pending deliveries move without a team event: look again while any is pending
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 5000 : false),
  });
  return (
    <Section title="Deliveries">
      <div className="filters">
        <SelectField
          name="status"
          label="Status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as StatusFilter);
            setPage(1);
          }}
          options={statuses.map((value) => ({ value, label: value || 'all' }))}
        />
      </div>
      {deliveries.isPending ? <Loading label="Loading deliveries" /> : null}
      <ErrorNotice error={deliveries.error} />
      {deliveries.data ? (
        <>
          <DataTable<Delivery>
            caption="Deliveries"
            rows={deliveries.data.data}
            rowKey={(delivery) => delivery.id}
            empty="No deliveries yet."
            columns={[
              {
                header: 'Event',
                cell: (delivery) => (
                  <Link href={`/webhooks/${webhookId}/deliveries/${delivery.id}`}>
                    {delivery.event_type}
                    {delivery.manual ? ' (manual)' : ''}
                  </Link>
                ),
              },
              { header: 'Status', cell: (delivery) => <StatusBadge status={delivery.status} /> },
              { header: 'HTTP status', cell: (delivery) => delivery.last_status_code ?? delivery.last_error ?? '—' },
              { header: 'Attempts', cell: (delivery) => delivery.attempts, className: 'numeric' },
              { header: 'Took', cell: elapsed, className: 'numeric' },
              { header: 'Created', cell: (delivery) => new Date(delivery.created_at).toLocaleString() },
              ...(canManage ? [{ header: 'Again', cell: (delivery: Delivery) => <RedeliverButton webhookId={webhookId} deliveryId={delivery.id} /> }] : []),
            ]}
          />
          <Pager page={page} totalPages={deliveries.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </Section>
  );
}

export function RedeliverButton({ webhookId, deliveryId }: { webhookId: number; deliveryId: string }) {
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => berth.webhookDeliveries.redeliver({ webhook: webhookId, delivery: deliveryId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhookDeliveries', webhookId] }),
  });
  return (
    <>
      <button type="button" className="button" onClick={() => redeliver.mutate()} disabled={redeliver.isPending}>
        {redeliver.isSuccess ? 'Queued' : 'Redeliver'}
      </button>
      <ErrorNotice error={redeliver.error} />
    </>
  );
}
