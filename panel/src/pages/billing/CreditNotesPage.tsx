import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { BillingFrame } from './BillingFrame.tsx';
import { day, money } from './format.ts';
import { creditNotePdfHref } from './InvoicesSection.tsx';
import type { CreditNote } from './types.ts';

/** The team's credit notes (the page their e-mail links to), each with its invoice and PDF. */
export default function CreditNotesPage() {
  const [page, setPage] = useState(1);
  const notes = useQuery({ queryKey: ['creditNotes', page], queryFn: () => berth.creditNotes.list({ page, page_size: 20 }) });
  return (
    <BillingFrame title="Credit notes">
      {notes.isPending ? <Loading label="Loading credit notes" /> : null}
      <ErrorNotice error={notes.error} />
      {notes.data ? (
        <>
          <CreditNotesTable notes={notes.data.data} />
          <Pager page={page} totalPages={notes.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </BillingFrame>
  );
}

export function CreditNotesTable({ notes, invoiceHref = (id) => `/billing/invoices/${id}` }: { notes: CreditNote[]; invoiceHref?: (id: number) => string }) {
  return (
    <DataTable<CreditNote>
      caption="Credit notes"
      rows={notes}
      rowKey={(note) => note.id}
      empty="No credit notes."
      columns={[
        { header: 'Number', cell: (note) => <Link href={`/billing/credit-notes/${note.id}`}>{note.number}</Link> },
        { header: 'Invoice', cell: (note) => <Link href={invoiceHref(note.invoice_id)}>#{note.invoice_id}</Link> },
        { header: 'Amount', cell: (note) => money(note.amount_minor, note.currency), className: 'numeric' },
        { header: 'Refund', cell: (note) => <StatusBadge status={note.refund_status} /> },
        { header: 'Reason', cell: (note) => note.reason },
        { header: 'Date', cell: (note) => day(note.created_at) },
        {
          header: 'PDF',
          cell: (note) => (
            <a href={creditNotePdfHref(note.id)} download>
              PDF<span className="visually-hidden"> of {note.number}</span>
            </a>
          ),
        },
      ]}
    />
  );
}
