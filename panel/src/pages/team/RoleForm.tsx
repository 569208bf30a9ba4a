import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { useMe } from '../../app/session.tsx';
import { TextAreaField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { PermissionChecklist } from './PermissionChecklist.tsx';
import type { Role } from './use-roles.ts';

/** A custom role's name, description and grants: a new role without `role`, else that role's change. */
export function RoleForm({ role, onDone }: { role?: Role; onDone?: () => void }) {
  const me = useMe();
  const [permissions, setPermissions] = useState<Set<string>>(new Set(role?.permissions ?? []));
  const form = useApiForm({
    submit: (values) => {
      const body = { name: values.name ?? '', description: values.description ?? '', permissions: [...permissions] };
      return role ? berth.roles.update({ id: me.team_id, role_id: role.id, body }) : berth.roles.create({ id: me.team_id, body });
    },
    // members' and invites' rows show role names
    invalidates: [['roles'], ['members'], ['invites']],
    onSuccess: () => {
      if (!role) setPermissions(new Set());
      onDone?.();
    },
  });
  return (
    <Form form={form} submitLabel={role ? 'Save role' : 'Create role'}>
      <TextField name="name" label="Name" defaultValue={role?.name} maxLength={50} required error={form.error('name')} />
      <TextAreaField name="description" label="Description" defaultValue={role?.description} maxLength={500} rows={2} error={form.error('description')} />
      <PermissionChecklist legend="Permissions" selected={permissions} onChange={setPermissions} error={form.error('permissions')} />
    </Form>
  );
}
