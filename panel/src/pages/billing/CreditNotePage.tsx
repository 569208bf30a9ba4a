import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { BillingFrame } from './BillingFrame.tsx';
import { day, moment, money } from './format.ts';
import { creditNotePdfHref } from './InvoicesSection.tsx';

/** One credit note: what it credits, why, and its refund. */
export default function CreditNotePage() {
  const { id } = useParams<{ id: string }>();
  const note = useQuery({ queryKey: ['creditNotes', 'one', Number(id)], queryFn: () => berth.creditNotes.get({ id: Number(id) }) });
  const data = note.data;
  return (
    <BillingFrame title={data ? `Credit note ${data.number}` : 'Credit note'} back={{ href: '/billing/credit-notes', label: 'Credit notes' }}>
      {note.isPending ? <Loading label="Loading the credit note" /> : null}
      <ErrorNotice error={note.error} />
      {data ? (
        <Section
          title="Summary"
          actions={
            <a className="button" href={creditNotePdfHref(data.id)} download>
              Download PDF
            </a>
          }
        >
          <dl className="details">
            <dt>Invoice</dt>
            <dd>
              <Link href={`/billing/invoices/${data.invoice_id}`}>#{data.invoice_id}</Link>
            </dd>
            <dt>Amount (tax included)</dt>
            <dd>{money(data.amount_minor, data.currency)}</dd>
            <dt>Of which tax</dt>
            <dd>{money(data.tax_minor, data.currency)}</dd>
            <dt>Reason</dt>
            <dd>{data.reason}</dd>
            <dt>Date</dt>
            <dd>{day(data.created_at)}</dd>
            <dt>Refund</dt>
            <dd>
              <StatusBadge status={data.refund_status} />
              {data.refunded_at ? ` on ${moment(data.refunded_at)}` : ''}
              {data.refund_failure ? ` — ${data.refund_failure}` : ''}
            </dd>
          </dl>
        </Section>
      ) : null}
    </BillingFrame>
  );
}
