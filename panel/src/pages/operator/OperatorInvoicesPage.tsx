import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { day, money } from '../billing/format.ts';
import { invoicePdfHref } from '../billing/InvoicesSection.tsx';
import { invoiceStatuses, type InvoiceStatus } from '../billing/types.ts';
import type { AdminCreditNote, AdminInvoice } from './types.ts';

type Action = { kind: 'paid' | 'uncollectible' | 'void'; invoice: AdminInvoice };

const titles = { paid: 'Record the payment of', uncollectible: 'Write off', void: 'Void' } as const;

/** Every team's invoices: record a bank transfer, write one off, void one; and every credit note. */
export default function OperatorInvoicesPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<InvoiceStatus | ''>('open');
  const [team, setTeam] = useState('');
  const teamId = /^\d+$/.test(team) ? Number(team) : undefined;
  const invoices = useQuery({
    queryKey: ['invoices', 'all', status, teamId, page],
    queryFn: () => berth.invoices.listAll({ page, page_size: 25, ...(status ? { status } : {}), ...(teamId ? { team_id: teamId } : {}) }),
  });
  const [action, setAction] = useState<Action | null>(null);
  return (
    <Page title="Invoices (all teams)">
      <div className="filters">
        <SelectField
          name="status"
          label="Status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as InvoiceStatus | '');
            setPage(1);
          }}
          options={[{ value: '', label: 'all' }, ...invoiceStatuses.map((value) => ({ value, label: value }))]}
        />
        <TextField
          name="team_id"
          label="Team id"
          type="number"
          min={1}
          value={team}
          onChange={(event) => {
            setTeam(event.target.value);
            setPage(1);
          }}
        />
      </div>
      {invoices.isPending ? <Loading label="Loading invoices" /> : null}
      <ErrorNotice error={invoices.error} />
      {invoices.data ? (
        <>
          <DataTable<AdminInvoice>
            caption="Invoices of every team"
            rows={invoices.data.data}
            rowKey={(invoice) => invoice.id}
            empty="No invoices match."
            columns={[
              {
                header: 'Number',
                cell: (invoice) => (
                  <a href={invoicePdfHref(invoice.id)} download>
                    {invoice.number}
                    <span className="visually-hidden"> (PDF)</span>
                  </a>
                ),
              },
              { header: 'Team', cell: (invoice) => invoice.team_id },
              { header: 'Status', cell: (invoice) => <StatusBadge status={invoice.status} /> },
              { header: 'Total', cell: (invoice) => money(invoice.total_minor, invoice.currency), className: 'numeric' },
              { header: 'Due', cell: (invoice) => day(invoice.due_at) },
              { header: 'Provider', cell: (invoice) => invoice.provider },
              { header: 'Actions', cell: (invoice) => <InvoiceActions invoice={invoice} onAction={setAction} /> },
            ]}
          />
          <Pager page={page} totalPages={invoices.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <InvoiceActionDialog action={action} onClose={() => setAction(null)} />
      <CreditNotesSection teamId={teamId} />
    </Page>
  );
}

function InvoiceActions({ invoice, onAction }: { invoice: AdminInvoice; onAction: (action: Action) => void }) {
  const open = invoice.status === 'open';
  const uncollectible = invoice.status === 'uncollectible';
  return (
    <div className="button-row">
      {open || uncollectible ? (
        <button type="button" className="button" onClick={() => onAction({ kind: 'paid', invoice })}>
          Mark paid<span className="visually-hidden"> {invoice.number}</span>
        </button>
      ) : null}
      {open ? (
        <button type="button" className="button" onClick={() => onAction({ kind: 'uncollectible', invoice })}>
          Write off<span className="visually-hidden"> {invoice.number}</span>
        </button>
      ) : null}
      {open || uncollectible ? (
        <button type="button" className="button button-danger" onClick={() => onAction({ kind: 'void', invoice })}>
          Void<span className="visually-hidden"> {invoice.number}</span>
        </button>
      ) : null}
    </div>
  );
}

function InvoiceActionDialog({ action, onClose }: { action: Action | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [reference, setReference] = useState('');
  const run = useMutation({
    mutationFn: async (current: Action) => {
      const id = current.invoice.id;
      if (current.kind === 'paid') return berth.invoices.markPaid({ id, body: reference.trim() ? { reference: reference.trim() } : {} });
      if (current.kind === 'uncollectible') return berth.invoices.markUncollectible({ id });
      return berth.invoices.void({ id });
    },
    onSuccess: async () => {
      await Promise.all([['invoices'], ['subscription'], ['entitlements']].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      setReference('');
      run.reset();
      onClose();
    },
  });
  const invoice = action?.invoice;
  return (
    <ConfirmDialog
      open={action !== null}
      title={action && invoice ? `${titles[action.kind]} ${invoice.number}?` : ''}
      confirmLabel={action?.kind === 'paid' ? 'Mark paid' : action?.kind === 'void' ? 'Void invoice' : 'Write off'}
      pending={run.isPending}
      onConfirm={() => action && run.mutate(action)}
      onCancel={() => {
        run.reset();
        onClose();
      }}
    >
      {action?.kind === 'paid' && invoice ? (
        <>
          <p>{money(invoice.total_minor, invoice.currency)} arrived by bank transfer. The team's subscription becomes active with its plan's limits.</p>
          <TextField
            name="reference"
            label="Transfer reference (optional)"
            maxLength={200}
            value={reference}
            onChange={(event) => setReference(event.target.value)}
            hint="Kept on the invoice."
          />
        </>
      ) : null}
      {action?.kind === 'uncollectible' ? <p>It will not be paid; a late payment can still mark it paid.</p> : null}
      {action?.kind === 'void' ? <p>It is owed no more and its payment at the provider is withdrawn. Its number stays used.</p> : null}
      <ErrorNotice error={run.error} />
    </ConfirmDialog>
  );
}

function CreditNotesSection({ teamId }: { teamId: number | undefined }) {
  const [page, setPage] = useState(1);
  const notes = useQuery({
    queryKey: ['creditNotes', 'all', teamId, page],
    queryFn: () => berth.creditNotes.listAll({ page, page_size: 25, ...(teamId ? { team_id: teamId } : {}) }),
  });
  return (
    <Section title="Credit notes (all teams)">
      <ErrorNotice error={notes.error} />
      {notes.data ? (
        <>
          <DataTable<AdminCreditNote>
            caption="Credit notes of every team"
            rows={notes.data.data}
            rowKey={(note) => note.id}
            empty="No credit notes."
            columns={[
              { header: 'Number', cell: (note) => note.number },
              { header: 'Team', cell: (note) => note.team_id },
              { header: 'Invoice', cell: (note) => `#${note.invoice_id}` },
              { header: 'Amount', cell: (note) => money(note.amount_minor, note.currency), className: 'numeric' },
              { header: 'Refund', cell: (note) => <StatusBadge status={note.refund_status} /> },
              { header: 'Reason', cell: (note) => note.reason },
              { header: 'Date', cell: (note) => day(note.created_at) },
            ]}
          />
          <Pager page={page} totalPages={notes.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </Section>
  );
}
