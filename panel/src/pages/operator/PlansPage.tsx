import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { bytes, perInterval } from '../billing/format.ts';
import { AddonForm } from './AddonForm.tsx';
import { PlanForm } from './PlanForm.tsx';
import type { AdminAddon, AdminPlan } from './types.ts';

/** Every plan and add-on, withdrawn ones too: adding and changing them. */
export default function PlansPage() {
  const plans = useQuery({ queryKey: ['plans', 'all'], queryFn: () => berth.plans.listAll() });
  const addons = useQuery({ queryKey: ['addons', 'all'], queryFn: () => berth.addons.listAll() });
  const [editingPlan, setEditingPlan] = useState<number | null>(null);
  const [editingAddon, setEditingAddon] = useState<number | null>(null);
  const plan = plans.data?.find((item) => item.id === editingPlan);
  const addon = addons.data?.find((item) => item.id === editingAddon);
  return (
    <Page title="Plans and add-ons">
      <Section title="Plans">
        {plans.isPending ? <Loading label="Loading plans" /> : null}
        <ErrorNotice error={plans.error} />
        <DataTable<AdminPlan>
          caption="Plans"
          rows={plans.data ?? []}
          rowKey={(item) => item.id}
          empty="No plans yet."
          columns={[
            { header: 'Code', cell: (item) => <code>{item.code}</code> },
            { header: 'Name', cell: (item) => item.name },
            { header: 'Price', cell: (item) => perInterval(item.price_minor, item.currency, item.interval) },
            { header: 'Sites', cell: (item) => item.entitlements.max_sites, className: 'numeric' },
            { header: 'Disk', cell: (item) => bytes(item.entitlements.max_disk_bytes) },
            { header: 'Trial', cell: (item) => (item.trial_days ? `${item.trial_days} days` : '—') },
            { header: 'On sale', cell: (item) => <StatusBadge status={item.active ? 'active' : 'withdrawn'} /> },
            {
              header: 'Edit',
              cell: (item) => (
                <button
                  type="button"
                  className="button"
                  aria-pressed={editingPlan === item.id}
                  onClick={() => setEditingPlan(editingPlan === item.id ? null : item.id)}
                >
                  Edit<span className="visually-hidden"> {item.name}</span>
                </button>
              ),
            },
          ]}
        />
      </Section>
      {plan ? (
        <Section title={`Change plan ${plan.code}`}>
          <PlanForm key={plan.id} plan={plan} onDone={() => setEditingPlan(null)} />
        </Section>
      ) : null}
      <Section title="Add a plan">
        <PlanForm />
      </Section>
      <Section title="Add-ons">
        {addons.isPending ? <Loading label="Loading add-ons" /> : null}
        <ErrorNotice error={addons.error} />
        <DataTable<AdminAddon>
          caption="Add-ons"
          rows={addons.data ?? []}
          rowKey={(item) => item.id}
          empty="No add-ons yet."
          columns={[
            { header: 'Code', cell: (item) => <code>{item.code}</code> },
            { header: 'Name', cell: (item) => item.name },
            { header: 'Price per unit', cell: (item) => perInterval(item.price_minor, item.currency, item.interval) },
            { header: 'Adds sites', cell: (item) => item.adds.extra_sites, className: 'numeric' },
            { header: 'Adds disk', cell: (item) => bytes(item.adds.extra_disk_bytes) },
            { header: 'On sale', cell: (item) => <StatusBadge status={item.active ? 'active' : 'withdrawn'} /> },
            {
              header: 'Edit',
              cell: (item) => (
                <button
                  type="button"
                  className="button"
                  aria-pressed={editingAddon === item.id}
                  onClick={() => setEditingAddon(editingAddon === item.id ? null : item.id)}
                >
                  Edit<span className="visually-hidden"> {item.name}</span>
                </button>
              ),
            },
          ]}
        />
      </Section>
      {addon ? (
        <Section title={`Change add-on ${addon.code}`}>
          <AddonForm key={addon.id} addon={addon} onDone={() => setEditingAddon(null)} />
        </Section>
      ) : null}
      <Section title="Add an add-on">
        <AddonForm />
      </Section>
    </Page>
  );
}
