import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { PermissionChecklist } from '../team/PermissionChecklist.tsx';

type Created = Awaited<ReturnType<typeof berth.apiTokens.create>>;

const expiries = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
];

/** A new API token: its name, its grants (within the creator's own) and its lifetime. */
export function CreateTokenForm({ onCreated }: { onCreated: (token: Created) => void }) {
  const [permissions, setPermissions] = useState<Set<string>>(new Set());
  const form = useApiForm({
    submit: (values) =>
      berth.apiTokens.create({
        body: {
          name: values.name ?? '',
          permissions: [...permissions],
          expires_in_days: values.expires === 'never' ? null : Number(values.expires ?? 90),
        },
      }),
    invalidates: [['api-tokens']],
    onSuccess: (token) => {
      setPermissions(new Set());
      onCreated(token);
    },
  });
  return (
    <Form form={form} submitLabel="Create token">
      <TextField name="name" label="Name" hint="What the token is for, such as “deploy script”." maxLength={100} required error={form.error('name')} />
      <SelectField name="expires" label="Expires after" options={expiries} defaultValue="90" error={form.error('expires_in_days')} />
      <PermissionChecklist legend="Permissions" selected={permissions} onChange={setPermissions} error={form.error('permissions')} />
    </Form>
  );
}
