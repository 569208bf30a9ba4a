import { berth } from '../../api/berth.ts';
import { CheckboxField, SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import type { AdminPlan } from './types.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const intervals = [
  { value: 'month', label: 'month' },
  { value: 'year', label: 'year' },
];

function limitsFrom(values: Record<string, string>) {
  return {
    name: values.name ?? '',
    price_minor: Number(values.price_minor),
    currency: (values.currency ?? '').toUpperCase(),
    interval: values.interval === 'year' ? ('year' as const) : ('month' as const),
    max_sites: Number(values.max_sites),
    max_disk_bytes: Math.round(Number(values.max_disk_gib) * GiB),
    environment_memory_bytes: Math.round(Number(values.memory_mib) * MiB),
    environment_cpu_millicores: Number(values.cpu_millicores),
    backups_scheduled_keep: Number(values.backups_scheduled_keep),
    backups_manual_keep: Number(values.backups_manual_keep),
    trial_days: Number(values.trial_days || 0),
    active: values.active === 'on',
  };
}

/** A plan's fields, for adding one (with its code) or changing one (the code never changes). */
export function PlanForm({ plan, onDone }: { plan?: AdminPlan; onDone?: () => void }) {
  const form = useApiForm({
    submit: (values) =>
      plan ? berth.plans.update({ plan: plan.id, body: limitsFrom(values) }) : berth.plans.create({ body: { code: values.code ?? '', ...limitsFrom(values) } }),
    invalidates: [['plans']],
    ...(onDone ? { onSuccess: onDone } : {}),
  });
  const limits = plan?.entitlements;
  return (
    <Form form={form} submitLabel={plan ? 'Save plan' : 'Add plan'}>
      {plan ? null : <TextField name="code" label="Code" required hint="What teams choose, e.g. starter; never changes." error={form.error('code')} />}
      <TextField name="name" label="Name" required defaultValue={plan?.name} error={form.error('name')} />
      <TextField
        name="price_minor"
        label="Price per interval before tax, in minor units (cents)"
        type="number"
        min={1}
        required
        defaultValue={plan?.price_minor}
        error={form.error('price_minor')}
      />
      <TextField name="currency" label="Currency (ISO 4217)" required maxLength={3} defaultValue={plan?.currency ?? 'EUR'} error={form.error('currency')} />
      <SelectField name="interval" label="Billed every" options={intervals} defaultValue={plan?.interval ?? 'month'} error={form.error('interval')} />
      <TextField name="max_sites" label="Most sites" type="number" min={0} required defaultValue={limits?.max_sites} error={form.error('max_sites')} />
      <TextField
        name="max_disk_gib"
        label="Disk (GiB)"
        type="number"
        min={0}
        step="any"
        required
        defaultValue={limits ? limits.max_disk_bytes / GiB : undefined}
        error={form.error('max_disk_bytes')}
      />
      <TextField
        name="memory_mib"
        label="Memory per environment (MiB)"
        type="number"
        min={128}
        required
        defaultValue={limits ? limits.environment_memory_bytes / MiB : 512}
        error={form.error('environment_memory_bytes')}
      />
      <TextField
        name="cpu_millicores"
        label="CPU per environment (thousandths of a core)"
        type="number"
        min={100}
        max={64000}
        required
        defaultValue={limits?.environment_cpu_millicores ?? 1000}
        error={form.error('environment_cpu_millicores')}
      />
      <TextField
        name="backups_scheduled_keep"
        label="Scheduled backups kept"
        type="number"
        min={1}
        required
        defaultValue={limits?.backups_scheduled_keep ?? 14}
        error={form.error('backups_scheduled_keep')}
      />
      <TextField
        name="backups_manual_keep"
        label="Manual backups kept"
        type="number"
        min={1}
        required
        defaultValue={limits?.backups_manual_keep ?? 10}
        error={form.error('backups_manual_keep')}
      />
      <TextField
        name="trial_days"
        label="Free trial days"
        type="number"
        min={0}
        max={90}
        defaultValue={plan?.trial_days ?? 0}
        error={form.error('trial_days')}
      />
      <CheckboxField
        name="active"
        label="On sale"
        defaultChecked={plan?.active ?? true}
        hint="Withdrawn plans cannot be chosen; their subscriptions continue."
      />
    </Form>
  );
}
