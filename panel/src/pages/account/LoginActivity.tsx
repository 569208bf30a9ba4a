import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { formatPlace, formatTime } from './format.ts';

type Entry = Awaited<ReturnType<typeof berth.browserAuth.listLoginActivity>>['activity'][number];

/** Your own sign-ins and session refreshes, newest first: a sign-in you do not recognise is the sign to act. */
export function LoginActivity() {
  const [page, setPage] = useState(1);
  const activity = useQuery({ queryKey: ['login-activity', page], queryFn: () => berth.browserAuth.listLoginActivity({ page, page_size: 20 }) });
  return (
    <Section title="Sign-in activity">
      {activity.isPending ? <Loading label="Loading your sign-in activity" /> : null}
      <ErrorNotice error={activity.error} />
      {activity.data ? (
        <>
          <DataTable<Entry>
            caption="Sign-in activity"
            rows={activity.data.activity}
            rowKey={(entry) => entry.id}
            empty="No sign-in recorded yet."
            columns={[
              { header: 'When', cell: (entry) => formatTime(entry.created_at) },
              { header: 'Event', cell: (entry) => (entry.event_type === 'login' ? 'Sign-in' : 'Session refresh') },
              { header: 'From', cell: (entry) => formatPlace(entry.ip, entry.geo.country, entry.geo.city) },
              { header: 'Browser', cell: (entry) => entry.user_agent ?? '—' },
            ]}
          />
          <Pager page={page} totalPages={activity.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </Section>
  );
}
