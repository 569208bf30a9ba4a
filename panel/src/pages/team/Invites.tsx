import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatTime } from '../account/format.ts';
import { roleOptions, useRoles } from './use-roles.ts';

type Invite = Awaited<ReturnType<typeof berth.invites.list>>['data'][number];

const open = (invite: Invite) => invite.status === 'pending' || invite.status === 'expired';

/** Invitations into the team: send one, send it again (a new 7-day link), revoke one. */
export function Invites() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const mayInvite = can(me, 'invites:create');
  const invites = useQuery({ queryKey: ['invites', me.team_id, page], queryFn: () => berth.invites.list({ id: me.team_id, page, page_size: 20 }) });
  const roles = useRoles(me.team_id, mayInvite && can(me, 'roles:read'));
  const resend = useMutation({
    mutationFn: (invite: Invite) => berth.invites.resend({ id: me.team_id, invite_id: invite.id, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invites'] }),
  });
  const revoke = useMutation({
    mutationFn: (invite: Invite) => berth.invites.revoke({ id: me.team_id, invite_id: invite.id }),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: ['invites'] });
    },
  });
  const create = useApiForm({
    submit: (values) => berth.invites.create({ id: me.team_id, body: { email: (values.email ?? '').trim(), role_id: Number(values.role_id) } }),
    invalidates: [['invites']],
  });
  return (
    <Section title="Invites">
      {invites.isPending ? <Loading label="Loading the invites" /> : null}
      <ErrorNotice error={invites.error ?? resend.error} />
      {resend.isSuccess ? <Notice tone="success">The invite to {resend.data.email} was sent again; it is valid for 7 more days.</Notice> : null}
      {invites.data ? (
        <>
          <DataTable<Invite>
            caption="Invites"
            rows={invites.data.data}
            rowKey={(invite) => invite.id}
            empty="No invites."
            columns={[
              { header: 'E-mail', cell: (invite) => invite.email },
              { header: 'Role', cell: (invite) => invite.role.name },
              { header: 'Status', cell: (invite) => <StatusBadge status={invite.status} /> },
              { header: 'Invited by', cell: (invite) => invite.invited_by?.name ?? '—' },
              { header: 'Expires', cell: (invite) => formatTime(invite.expires_at) },
              {
                header: 'Actions',
                cell: (invite) =>
                  open(invite) ? (
                    <div className="button-row">
                      {mayInvite ? (
                        <button type="button" className="button" disabled={resend.isPending} onClick={() => resend.mutate(invite)}>
                          Resend
                        </button>
                      ) : null}
                      {can(me, 'invites:delete') ? (
                        <button type="button" className="button button-danger" onClick={() => setRevoking(invite)}>
                          Revoke
                        </button>
                      ) : null}
                    </div>
                  ) : null,
              },
            ]}
          />
          <Pager page={page} totalPages={invites.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      {mayInvite ? (
        <>
          <h3>Invite someone</h3>
          {create.mutation.isSuccess ? <Notice tone="success">Invitation sent to {create.mutation.data.email}.</Notice> : null}
          <ErrorNotice error={roles.error} title="The roles could not be loaded" />
          <Form form={create} submitLabel="Send invite" className="form form-inline">
            <TextField name="email" label="E-mail" type="email" autoComplete="off" required error={create.error('email')} />
            <SelectField name="role_id" label="Role" options={roleOptions(roles.data?.data)} error={create.error('role_id')} />
          </Form>
        </>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the invite to ${revoking?.email ?? ''}?`}
        confirmLabel="Revoke invite"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        <p>The link in the invitation stops working at once.</p>
        <ErrorNotice error={revoke.error} />
      </ConfirmDialog>
    </Section>
  );
}
