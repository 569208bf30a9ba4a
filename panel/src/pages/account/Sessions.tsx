import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { formatPlace, formatTime } from './format.ts';

type Session = Awaited<ReturnType<typeof berth.sessions.list>>['data'][number];
type Ending = { kind: 'one'; session: Session } | { kind: 'others' };

/** Your live sessions in every team; end one, or all but this one. Ending this one signs you out. */
export function Sessions() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [ending, setEnding] = useState<Ending | null>(null);
  const [revokedOthers, setRevokedOthers] = useState<number | null>(null);
  const sessions = useQuery({ queryKey: ['sessions', page], queryFn: () => berth.sessions.list({ page, page_size: 20 }) });
  const end = useMutation({
    mutationFn: async (target: Ending) => {
      if (target.kind === 'one') {
        await berth.sessions.revoke({ id: target.session.id });
        return null;
      }
      return (await berth.sessions.revokeOthers()).revoked;
    },
    onSuccess: async (revoked) => {
      setEnding(null);
      setRevokedOthers(revoked);
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
  });
  const close = () => {
    setEnding(null);
    end.reset();
  };
  return (
    <Section
      title="Sessions"
      actions={
        <button type="button" className="button" onClick={() => setEnding({ kind: 'others' })}>
          Sign out everywhere else
        </button>
      }
    >
      {revokedOthers !== null ? (
        <Notice tone="success">{revokedOthers === 1 ? '1 other session was ended.' : `${revokedOthers} other sessions were ended.`}</Notice>
      ) : null}
      {sessions.isPending ? <Loading label="Loading your sessions" /> : null}
      <ErrorNotice error={sessions.error} />
      {sessions.data ? (
        <>
          <DataTable<Session>
            caption="Your sessions"
            rows={sessions.data.data}
            rowKey={(session) => session.id}
            empty="No live session."
            columns={[
              {
                header: 'Device',
                cell: (session) => (
                  <>
                    {session.device_label} {session.current ? <strong>(this session)</strong> : null}
                    {session.second_factor_pending ? <span className="badge badge-wait">waiting for second factor</span> : null}
                  </>
                ),
              },
              { header: 'Team', cell: (session) => session.team_name },
              { header: 'IP', cell: (session) => formatPlace(session.ip) },
              { header: 'Signed in', cell: (session) => formatTime(session.created_at) },
              { header: 'Last seen', cell: (session) => formatTime(session.last_seen_at) },
              {
                header: 'Actions',
                cell: (session) => (
                  <button type="button" className="button button-danger" onClick={() => setEnding({ kind: 'one', session })}>
                    {session.current ? 'Sign out' : 'End'}
                  </button>
                ),
              },
            ]}
          />
          <Pager page={page} totalPages={sessions.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <ConfirmDialog
        open={ending !== null}
        title={ending?.kind === 'others' ? 'End every other session?' : ending?.session.current ? 'Sign out of this session?' : 'End this session?'}
        confirmLabel={ending?.kind === 'others' ? 'End other sessions' : 'End session'}
        pending={end.isPending}
        onConfirm={() => ending && end.mutate(ending)}
        onCancel={close}
      >
        {ending?.kind === 'others' ? (
          <p>Every other browser and app signed in as you, in every team, is signed out at once. API tokens keep working.</p>
        ) : ending ? (
          <p>
            {ending.session.device_label} in {ending.session.team_name} is signed out at once.
            {ending.session.current ? ' That is this browser: you will have to sign in again.' : ''}
          </p>
        ) : null}
        <ErrorNotice error={end.error} />
      </ConfirmDialog>
    </Section>
  );
}
