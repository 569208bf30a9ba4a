import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { RoleForm } from './RoleForm.tsx';
import { useRoles, type Role } from './use-roles.ts';

/** The roles the team can give: the built-in ones (read-only) and the team's own (create, change, delete). */
export default function RolesPage() {
  const me = useMe();
  const queryClient = useQueryClient();
  const roles = useRoles(me.team_id);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const remove = useMutation({
    mutationFn: (role: Role) => berth.roles.delete({ id: me.team_id, role_id: role.id }),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ['roles'] });
    },
  });
  return (
    <Page title="Roles" back={{ href: '/team', label: me.team_name }}>
      {roles.isPending ? <Loading label="Loading the roles" /> : null}
      <ErrorNotice error={roles.error} />
      {roles.data ? (
        <Section title="Roles of the team">
          <ul className="team-roles">
            {roles.data.data.map((role) => (
              <RoleItem key={role.id} role={role} onDelete={() => setDeleting(role)} />
            ))}
          </ul>
        </Section>
      ) : null}
      {can(me, 'roles:create') ? (
        <Section title="New role">
          <RoleForm />
        </Section>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the role ${deleting?.name ?? ''}?`}
        confirmLabel="Delete role"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
      >
        <p>Only a role no member holds and no open invite gives can be deleted.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Page>
  );
}

function RoleItem({ role, onDelete }: { role: Role; onDelete: () => void }) {
  const me = useMe();
  const [editing, setEditing] = useState(false);
  const editable = !role.builtin && can(me, 'roles:update');
  return (
    <li className="team-role">
      <h3>
        {role.name} {role.builtin ? <span className="badge badge-muted">built-in, read-only</span> : null}
      </h3>
      {role.description ? <p>{role.description}</p> : null}
      {editing ? (
        <RoleForm role={role} onDone={() => setEditing(false)} />
      ) : (
        <p className="team-role-grants">
          {role.permissions.length ? (
            role.permissions.map((permission) => <code key={permission}>{permission}</code>)
          ) : (
            <span className="muted">No permissions</span>
          )}
        </p>
      )}
      <div className="button-row">
        {editable ? (
          <button type="button" className="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Cancel' : `Edit ${role.name}`}
          </button>
        ) : null}
        {!role.builtin && can(me, 'roles:delete') ? (
          <button type="button" className="button button-danger" onClick={onDelete}>
            Delete {role.name}
          </button>
        ) : null}
      </div>
    </li>
  );
}
