import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { fieldErrors } from '../../api/errors.ts';
import { useMe } from '../../app/session.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { formatTime } from '../account/format.ts';
import { ActivityEntry } from './ActivityEntry.tsx';
import { ActivityFilters, noFilters, type Filters } from './ActivityFilters.tsx';

type Entry = Awaited<ReturnType<typeof berth.activity.list>>['data'][number];

const outcomeLabels: Record<Entry['outcome'], { label: string; tone: string }> = {
  success: { label: 'success', tone: 'good' },
  denied: { label: 'denied', tone: 'bad' },
  failed: { label: 'failed', tone: 'bad' },
};

/** Only the filters that are set: an empty one would be sent as an empty string and refused. */
function query(filters: Filters, page: number) {
  return {
    page,
    page_size: 25,
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor ? { actor_user_id: Number(filters.actor) } : {}),
    ...(filters.since ? { since: filters.since } : {}),
    ...(filters.until ? { until: filters.until } : {}),
  };
}

/** The team's audit trail, newest first, filtered by action, actor and time; each entry opens to its details. */
export default function ActivityPage() {
  const me = useMe();
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [page, setPage] = useState(1);
  const activity = useQuery({
    queryKey: ['activity', filters, page],
    queryFn: () => berth.activity.list(query(filters, page)),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const errors = fieldErrors(activity.error);
  return (
    <Page title="Activity" back={{ href: '/team', label: me.team_name }}>
      <Section title="Audit log">
        <ActivityFilters
          filters={filters}
          error={(field) => errors[field]}
          onApply={(next) => {
            setFilters(next);
            setPage(1);
          }}
        />
        {activity.isPending ? <Loading label="Loading the activity" /> : null}
        <ErrorNotice error={activity.error} />
        {activity.data ? (
          <>
            <DataTable<Entry>
              caption="Audit log"
              rows={activity.data.data}
              rowKey={(entry) => entry.id}
              empty="Nothing recorded matches."
              columns={[
                { header: 'When', cell: (entry) => formatTime(entry.created_at) },
                { header: 'Action', cell: (entry) => <ActivityEntry id={entry.id} action={entry.action} /> },
                {
                  header: 'Outcome',
                  cell: (entry) => <span className={`badge badge-${outcomeLabels[entry.outcome].tone}`}>{outcomeLabels[entry.outcome].label}</span>,
                },
                { header: 'Actor', cell: (entry) => actor(entry) },
                { header: 'Target', cell: (entry) => (entry.target.id ? `${entry.target.type} ${entry.target.id}` : entry.target.type) },
              ]}
            />
            <Pager page={page} totalPages={activity.data.pagination.total_pages} onPage={setPage} />
          </>
        ) : null}
      </Section>
    </Page>
  );
}

function actor(entry: Entry): string {
  if (entry.actor.via === 'system') return 'Berth';
  const who = entry.actor.name ?? entry.actor.email ?? (entry.actor.user_id !== null ? `user ${entry.actor.user_id}` : 'unknown');
  return entry.actor.user_id !== null ? `${who} (#${entry.actor.user_id})` : who;
}
