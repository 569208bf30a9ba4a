import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { BillingFrame } from './BillingFrame.tsx';
import { day, moment, money } from './format.ts';
import { creditNotePdfHref, invoicePdfHref } from './InvoicesSection.tsx';
import { PaymentNotice } from './PaymentNotice.tsx';
import type { InvoiceDetail } from './types.ts';

type Line = NonNullable<InvoiceDetail['lines']>[number];

/** One invoice (the page its e-mail links to): lines, totals, dunning, credit notes, PDF and paying it. */
export default function InvoicePage() {
  const { id } = useParams<{ id: string }>();
  const invoiceId = Number(id);
  const me = useMe();
  const queryClient = useQueryClient();
  const invoice = useQuery({ queryKey: ['invoices', 'one', invoiceId], queryFn: () => berth.invoices.get({ id: invoiceId }) });
  const pay = useMutation({
    mutationFn: () => berth.invoices.pay({ id: invoiceId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invoices'] }),
  });
  const data = invoice.data;
  return (
    <BillingFrame title={data ? `Invoice ${data.number}` : 'Invoice'} back={{ href: '/billing', label: 'Billing' }}>
      {invoice.isPending ? <Loading label="Loading the invoice" /> : null}
      <ErrorNotice error={invoice.error} />
      {data ? (
        <>
          <Section
            title="Summary"
            actions={
              <a className="button" href={invoicePdfHref(data.id)} download>
                Download PDF
              </a>
            }
          >
            <dl className="details">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={data.status} />
                {data.refund_state ? ` (${data.refund_state.replace(/_/g, ' ')})` : ''}
              </dd>
              <dt>Total</dt>
              <dd>{money(data.total_minor, data.currency)}</dd>
              <dt>Issued</dt>
              <dd>{day(data.finalized_at)}</dd>
              <dt>Due</dt>
              <dd>{day(data.due_at)}</dd>
              {data.period_start ? (
                <>
                  <dt>Period</dt>
                  <dd>
                    {day(data.period_start)} – {day(data.period_end)}
                  </dd>
                </>
              ) : null}
              {data.paid_at ? (
                <>
                  <dt>Paid</dt>
                  <dd>{moment(data.paid_at)}</dd>
                </>
              ) : null}
              {data.payment_failure ? (
                <>
                  <dt>Last payment failed</dt>
                  <dd>{data.payment_failure}</dd>
                </>
              ) : null}
              {data.customer ? (
                <>
                  <dt>Billed to</dt>
                  <dd>
                    {data.customer.legal_name}, {data.customer.address_line1}, {data.customer.postal_code} {data.customer.city}, {data.customer.country}
                    {data.customer.tax_id ? ` (VAT ${data.customer.tax_id})` : ''}
                  </dd>
                </>
              ) : null}
            </dl>
            {data.tax_note ? <p className="muted">{data.tax_note}</p> : null}
            {data.status === 'open' && can(me, 'billing:manage') ? (
              <div className="button-row">
                <button type="button" className="button button-primary" onClick={() => pay.mutate()} disabled={pay.isPending}>
                  {pay.isPending ? 'Asking how to pay…' : 'Pay'}
                </button>
              </div>
            ) : null}
            <ErrorNotice error={pay.error} />
            {pay.data ? <PaymentNotice invoice={pay.data.invoice} payment={pay.data.payment} /> : null}
          </Section>
          <Section title="Lines">
            <DataTable<Line>
              caption="Invoice lines"
              rows={data.lines ?? []}
              rowKey={(line) => `${line.kind}-${line.description}-${line.amount_minor}`}
              empty="No lines."
              columns={[
                { header: 'Description', cell: (line) => line.description },
                { header: 'Quantity', cell: (line) => (line.kind === 'tax' ? '' : line.quantity), className: 'numeric' },
                { header: 'Unit price', cell: (line) => (line.kind === 'tax' ? '' : money(line.unit_amount_minor, data.currency)), className: 'numeric' },
                { header: 'Amount', cell: (line) => money(line.amount_minor, data.currency), className: 'numeric' },
              ]}
            />
            <dl className="details">
              <dt>Subtotal</dt>
              <dd>{money(data.subtotal_minor, data.currency)}</dd>
              <dt>Tax</dt>
              <dd>{money(data.tax_minor, data.currency)}</dd>
              <dt>Total</dt>
              <dd>{money(data.total_minor, data.currency)}</dd>
              {data.amount_credited_minor ? (
                <>
                  <dt>Credited</dt>
                  <dd>{money(data.amount_credited_minor, data.currency)}</dd>
                </>
              ) : null}
            </dl>
          </Section>
          {data.dunning_attempts.length > 0 ? (
            <Section title="Reminders">
              <DataTable<InvoiceDetail['dunning_attempts'][number]>
                caption="Reminders and payment attempts"
                rows={data.dunning_attempts}
                rowKey={(attempt) => attempt.attempt}
                empty=""
                columns={[
                  { header: 'Attempt', cell: (attempt) => attempt.attempt },
                  { header: 'When', cell: (attempt) => moment(attempt.attempted_at) },
                  { header: 'Outcome', cell: (attempt) => (attempt.outcome ?? 'pending').replace(/_/g, ' ') },
                  { header: 'Reason', cell: (attempt) => attempt.failure_reason ?? '' },
                ]}
              />
            </Section>
          ) : null}
          {data.credit_notes.length > 0 ? (
            <Section title="Credit notes">
              <ul>
                {data.credit_notes.map((note) => (
                  <li key={note.id}>
                    <Link href={`/billing/credit-notes/${note.id}`}>{note.number}</Link>: {money(note.amount_minor, note.currency)} —{' '}
                    <a href={creditNotePdfHref(note.id)} download>
                      PDF<span className="visually-hidden"> of {note.number}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
        </>
      ) : null}
    </BillingFrame>
  );
}
