import { berth } from '../../api/berth.ts';
import { useMe } from '../../app/session.tsx';
import { SelectField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { roleOptions, type Role } from './use-roles.ts';

type Member = Awaited<ReturnType<typeof berth.members.list>>['data'][number];

/** One member's role as a select with its own save button (the API checks the caller holds both roles' grants). */
export function MemberRoleForm({ member, roles }: { member: Member; roles: readonly Role[] }) {
  const me = useMe();
  const form = useApiForm({
    submit: (values) => berth.members.update({ id: me.team_id, user_id: member.user_id, body: { role_id: Number(values.role_id) } }),
    invalidates: [['members']],
  });
  return (
    <Form form={form} submitLabel="Change" className="form form-inline team-role-form">
      <SelectField
        name="role_id"
        label={`Role of ${member.name}`}
        options={roleOptions(roles)}
        defaultValue={String(member.role.id)}
        error={form.error('role_id')}
      />
    </Form>
  );
}
