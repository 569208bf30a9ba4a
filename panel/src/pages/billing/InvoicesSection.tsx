import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { OPERATIONS } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField } from '../../components/Field.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { day, money } from './format.ts';
import { invoiceStatuses, type Invoice, type InvoiceStatus } from './types.ts';

/** The API's URL of an invoice's PDF (a plain link: the session cookie goes with it). */
export function invoicePdfHref(id: number): string {
  return OPERATIONS['invoices.downloadPdf'].path.replace('{id}', String(id));
}

export function creditNotePdfHref(id: number): string {
  return OPERATIONS['creditNotes.downloadPdf'].path.replace('{id}', String(id));
}

function statusFrom(search: string): InvoiceStatus | '' {
  const wanted = new URLSearchParams(search).get('invoices');
  return invoiceStatuses.find((status) => status === wanted) ?? '';
}

/** The team's invoices, newest first; `?invoices=open` (the dunning e-mail's link) shows the open ones. */
export function InvoicesSection() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const status = statusFrom(search);
  const [page, setPage] = useState(1);
  const invoices = useQuery({
    queryKey: ['invoices', status, page],
    queryFn: () => berth.invoices.list({ page, page_size: 20, ...(status ? { status } : {}) }),
  });
  return (
    <Section title="Invoices">
      <div className="filters">
        <SelectField
          name="invoices"
          label="Status"
          value={status}
          onChange={(event) => {
            setPage(1);
            navigate(event.target.value ? `/billing?invoices=${event.target.value}` : '/billing', { replace: true });
          }}
          options={[{ value: '', label: 'all' }, ...invoiceStatuses.map((value) => ({ value, label: value }))]}
        />
      </div>
      {invoices.isPending ? <Loading label="Loading invoices" /> : null}
      <ErrorNotice error={invoices.error} />
      {invoices.data ? (
        <>
          <DataTable<Invoice>
            caption="Invoices"
            rows={invoices.data.data}
            rowKey={(invoice) => invoice.id}
            empty={status ? `No ${status} invoices.` : 'No invoices yet.'}
            columns={[
              { header: 'Number', cell: (invoice) => <Link href={`/billing/invoices/${invoice.id}`}>{invoice.number}</Link> },
              { header: 'Status', cell: (invoice) => <StatusBadge status={invoice.status} /> },
              { header: 'Total', cell: (invoice) => money(invoice.total_minor, invoice.currency), className: 'numeric' },
              { header: 'Issued', cell: (invoice) => day(invoice.finalized_at) },
              { header: 'Due', cell: (invoice) => day(invoice.due_at) },
              {
                header: 'PDF',
                cell: (invoice) => (
                  <a href={invoicePdfHref(invoice.id)} download>
                    PDF<span className="visually-hidden"> of {invoice.number}</span>
                  </a>
                ),
              },
            ]}
          />
          <Pager page={page} totalPages={invoices.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </Section>
  );
}
