import { berth } from '../../api/berth.ts';
import { CheckboxField, SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import type { AdminAddon } from './types.ts';

const GiB = 1024 ** 3;

function addsFrom(values: Record<string, string>) {
  return {
    name: values.name ?? '',
    price_minor: Number(values.price_minor),
    extra_sites: Number(values.extra_sites || 0),
    extra_disk_bytes: Math.round(Number(values.extra_disk_gib || 0) * GiB),
    extra_backups_manual_keep: Number(values.extra_backups_manual_keep || 0),
    extra_backups_scheduled_keep: Number(values.extra_backups_scheduled_keep || 0),
    active: values.active === 'on',
  };
}

/** An add-on's fields; code, currency and interval are set once (add-ons are withdrawn, never deleted). */
export function AddonForm({ addon, onDone }: { addon?: AdminAddon; onDone?: () => void }) {
  const form = useApiForm({
    submit: (values) =>
      addon
        ? berth.addons.update({ addon: addon.id, body: addsFrom(values) })
        : berth.addons.create({
            body: {
              code: values.code ?? '',
              currency: (values.currency ?? '').toUpperCase(),
              interval: values.interval === 'year' ? 'year' : 'month',
              ...addsFrom(values),
            },
          }),
    invalidates: [['addons']],
    ...(onDone ? { onSuccess: onDone } : {}),
  });
  return (
    <Form form={form} submitLabel={addon ? 'Save add-on' : 'Add add-on'}>
      {addon ? null : (
        <>
          <TextField name="code" label="Code" required hint="What teams buy, e.g. extra-site; never changes." error={form.error('code')} />
          <TextField name="currency" label="Currency (ISO 4217)" required maxLength={3} defaultValue="EUR" error={form.error('currency')} />
          <SelectField
            name="interval"
            label="Billed every"
            options={[
              { value: 'month', label: 'month' },
              { value: 'year', label: 'year' },
            ]}
            error={form.error('interval')}
          />
        </>
      )}
      <TextField name="name" label="Name" required defaultValue={addon?.name} error={form.error('name')} />
      <TextField
        name="price_minor"
        label="Price of one unit per interval, in minor units (cents)"
        type="number"
        min={1}
        required
        defaultValue={addon?.price_minor}
        error={form.error('price_minor')}
      />
      <TextField
        name="extra_sites"
        label="Sites one unit adds"
        type="number"
        min={0}
        defaultValue={addon?.adds.extra_sites ?? 0}
        error={form.error('extra_sites')}
      />
      <TextField
        name="extra_disk_gib"
        label="Disk one unit adds (GiB)"
        type="number"
        min={0}
        step="any"
        defaultValue={addon ? addon.adds.extra_disk_bytes / GiB : 0}
        error={form.error('extra_disk_bytes')}
      />
      <TextField
        name="extra_backups_manual_keep"
        label="Manual backups one unit adds"
        type="number"
        min={0}
        defaultValue={addon?.adds.extra_backups_manual_keep ?? 0}
        error={form.error('extra_backups_manual_keep')}
      />
      <TextField
        name="extra_backups_scheduled_keep"
        label="Scheduled backups one unit adds"
        type="number"
        min={0}
        defaultValue={addon?.adds.extra_backups_scheduled_keep ?? 0}
        error={form.error('extra_backups_scheduled_keep')}
      />
      <CheckboxField name="active" label="On sale" defaultChecked={addon?.active ?? true} hint="Teams holding a withdrawn add-on keep it; none can buy more." />
    </Form>
  );
}
