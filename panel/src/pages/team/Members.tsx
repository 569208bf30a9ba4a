import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatTime } from '../account/format.ts';
import { MemberRoleForm } from './MemberRoleForm.tsx';
import { useRoles } from './use-roles.ts';

type Member = Awaited<ReturnType<typeof berth.members.list>>['data'][number];

/**
 * The team's members: change a role (`members:update`), remove someone (`members:delete`), or leave
 * yourself (no permission needed). The API refuses what the caller's own grants do not cover.
 */
export function Members() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<Member | null>(null);
  const members = useQuery({ queryKey: ['members', me.team_id, page], queryFn: () => berth.members.list({ id: me.team_id, page, page_size: 25 }) });
  const mayChangeRoles = can(me, 'members:update');
  const roles = useRoles(me.team_id, mayChangeRoles && can(me, 'roles:read'));
  const remove = useMutation({
    mutationFn: (member: Member) =>
      member.user_id === me.user_id ? berth.members.leave({ id: me.team_id }) : berth.members.remove({ id: me.team_id, user_id: member.user_id }),
    onSuccess: async (member) => {
      setRemoving(null);
      if (member.user_id === me.user_id) {
        // leaving ends every session of ours in this team, this one included
        queryClient.clear();
        window.location.assign('/sign-in');
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const leaving = removing?.user_id === me.user_id;
  return (
    <Section title="Members">
      {members.isPending ? <Loading label="Loading the members" /> : null}
      <ErrorNotice error={members.error} />
      <ErrorNotice error={roles.error} title="The roles could not be loaded" />
      {members.data ? (
        <>
          <DataTable<Member>
            caption="Members"
            rows={members.data.data}
            rowKey={(member) => member.user_id}
            empty="No members."
            columns={[
              {
                header: 'Name',
                cell: (member) => (
                  <>
                    {member.name} {member.user_id === me.user_id ? <strong>(you)</strong> : null}
                  </>
                ),
              },
              { header: 'E-mail', cell: (member) => member.email },
              {
                header: 'Role',
                cell: (member) =>
                  mayChangeRoles && roles.data && member.user_id !== me.user_id ? <MemberRoleForm member={member} roles={roles.data.data} /> : member.role.name,
              },
              { header: 'Status', cell: (member) => <StatusBadge status={member.status} /> },
              { header: 'Joined', cell: (member) => formatTime(member.joined_at) },
              {
                header: 'Actions',
                cell: (member) =>
                  member.user_id === me.user_id ? (
                    <button type="button" className="button button-danger" onClick={() => setRemoving(member)}>
                      Leave team
                    </button>
                  ) : can(me, 'members:delete') ? (
                    <button type="button" className="button button-danger" onClick={() => setRemoving(member)}>
                      Remove
                    </button>
                  ) : null,
              },
            ]}
          />
          <Pager page={page} totalPages={members.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={leaving ? `Leave ${me.team_name}?` : `Remove ${removing?.name ?? 'this member'}?`}
        confirmLabel={leaving ? 'Leave team' : 'Remove member'}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => {
          setRemoving(null);
          remove.reset();
        }}
      >
        <p>
          {leaving
            ? 'Your sessions in this team end now, this one included, and your API tokens of this team are deleted. Only a new invite brings you back.'
            : 'Their sessions in this team end now and their API tokens of this team are deleted.'}
        </p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
