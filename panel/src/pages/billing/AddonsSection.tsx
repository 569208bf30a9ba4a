import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';
import { bytes, perInterval } from './format.ts';
import type { Addon, HeldAddon } from './types.ts';

const touched = [['subscriptionAddons'], ['entitlements'], ['invoices']];

type Row = { addon: Addon | null; held: HeldAddon | null; code: string };

function adds(addon: Addon['adds']): string {
  const parts = [
    addon.extra_sites ? `+${addon.extra_sites} sites` : '',
    addon.extra_disk_bytes ? `+${bytes(addon.extra_disk_bytes)} disk` : '',
    addon.extra_backups_manual_keep ? `+${addon.extra_backups_manual_keep} manual backups` : '',
    addon.extra_backups_scheduled_keep ? `+${addon.extra_backups_scheduled_keep} scheduled backups` : '',
  ];
  return parts.filter(Boolean).join(', ') || '—';
}

/** Extras bought by the unit: what is on sale, what the team holds, and changing the quantity. */
export function AddonsSection() {
  const me = useMe();
  const manage = can(me, 'billing:manage');
  const catalogue = useQuery({ queryKey: ['addons'], queryFn: () => berth.addons.list(), staleTime: 300_000 });
  const held = useQuery({ queryKey: ['subscriptionAddons'], queryFn: () => berth.subscriptionAddons.list(), retry: false });
  const [message, setMessage] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (code: string) => berth.subscriptionAddons.remove({ code }),
    onSuccess: async () => {
      await Promise.all(touched.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      setRemoving(null);
      setMessage('The add-on goes at the renewal; until then you keep its units.');
    },
  });
  const heldList = held.data?.addons ?? [];
  const rows: Row[] = [
    ...heldList.map((item) => ({ code: item.code, held: item, addon: catalogue.data?.find((addon) => addon.code === item.code) ?? null })),
    ...(catalogue.data ?? []).filter((addon) => !heldList.some((item) => item.code === addon.code)).map((addon) => ({ code: addon.code, addon, held: null })),
  ];
  return (
    <Section title="Add-ons">
      <ErrorNotice error={catalogue.error} />
      {message ? <Notice tone="success">{message}</Notice> : null}
      <DataTable<Row>
        caption="Add-ons"
        rows={rows}
        rowKey={(row) => row.code}
        empty="No add-ons are on sale."
        columns={[
          { header: 'Add-on', cell: (row) => row.held?.name ?? row.addon?.name ?? row.code },
          { header: 'Adds per unit', cell: (row) => adds((row.held ?? row.addon)!.adds) },
          {
            header: 'Price per unit',
            cell: (row) =>
              row.held
                ? perInterval(row.held.unit_price_minor, row.held.currency, row.held.interval)
                : row.addon
                  ? perInterval(row.addon.price_minor, row.addon.currency, row.addon.interval)
                  : '',
          },
          {
            header: 'Held',
            cell: (row) =>
              row.held ? `${row.held.quantity}${row.held.pending_quantity !== null ? ` (${row.held.pending_quantity} from the renewal)` : ''}` : '0',
          },
          ...(manage
            ? [
                {
                  header: 'Change',
                  cell: (row: Row) => <QuantityForm row={row} onDone={setMessage} onRemove={() => setRemoving(row)} />,
                },
              ]
            : []),
        ]}
      />
      <p className="hint">
        More units apply at once, invoiced for the rest of the period; fewer take effect at the renewal. Add-ons need an active plan.{' '}
        <Link href="/billing">See the plan</Link>.
      </p>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.held?.name ?? ''}?`}
        confirmLabel="Remove add-on"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.code)}
        onCancel={() => setRemoving(null)}
      >
        <p>It goes at the renewal and is not billed again; its limits go with it.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}

function QuantityForm({ row, onDone, onRemove }: { row: Row; onDone: (message: string) => void; onRemove: () => void }) {
  const form = useApiForm({
    submit: (values) => berth.subscriptionAddons.set({ code: row.code, body: { quantity: Number(values.quantity) } }),
    invalidates: touched,
    onSuccess: (answer) =>
      onDone(
        answer.effective === 'now'
          ? `Added: the limits apply now${answer.invoice ? `; invoice ${answer.invoice.number} charges the rest of the period` : ''}.`
          : answer.effective === 'period_end'
            ? 'The new quantity applies at the renewal.'
            : 'The quantity held is kept.',
      ),
  });
  const onSale = row.addon?.active ?? row.held?.active ?? false;
  if (!onSale && !row.held) return null;
  return (
    <Form
      form={form}
      submitLabel={row.held ? 'Set' : 'Buy'}
      className="form form-inline billing-quantity"
      secondary={
        row.held && row.held.pending_quantity !== 0 ? (
          <button type="button" className="button" onClick={onRemove}>
            Remove
          </button>
        ) : null
      }
    >
      <TextField
        name="quantity"
        label={`Units of ${row.held?.name ?? row.addon?.name ?? row.code}`}
        type="number"
        min={1}
        max={100}
        defaultValue={row.held?.pending_quantity || row.held?.quantity || 1}
        error={form.error('quantity')}
      />
    </Form>
  );
}
