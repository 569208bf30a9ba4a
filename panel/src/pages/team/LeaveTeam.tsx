import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Section } from '../../components/Page.tsx';

/**
 * Leaving the team for a member who cannot read the member list (leaving needs no permission; the
 * members table offers it on one's own row otherwise).
 */
export function LeaveTeam() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const leave = useMutation({
    mutationFn: () => berth.members.leave({ id: me.team_id }),
    onSuccess: () => {
      // leaving ends every session of ours in this team, this one included
      queryClient.clear();
      window.location.assign('/sign-in');
    },
  });
  return (
    <Section title="Membership">
      <p>
        You are {me.role_name} in {me.team_name}.
      </p>
      <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
        Leave team
      </button>
      <ConfirmDialog
        open={asking}
        title={`Leave ${me.team_name}?`}
        confirmLabel="Leave team"
        pending={leave.isPending}
        onConfirm={() => leave.mutate()}
        onCancel={() => {
          setAsking(false);
          leave.reset();
        }}
      >
        <p>Your sessions in this team end now, this one included, and your API tokens of this team are deleted. Only a new invite brings you back.</p>
        <ErrorNotice error={leave.error} />
      </ConfirmDialog>
    </Section>
  );
}
