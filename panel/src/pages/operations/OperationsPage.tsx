import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField } from '../../components/Field.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { OperationsTable } from './RecentOperations.tsx';

const statuses = ['', 'queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** Every operation of the team, newest first, filtered by status. */
export default function OperationsPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<(typeof statuses)[number]>('');
  const list = useQuery({
    queryKey: ['operations', 'all', status, page],
    queryFn: () => berth.operations.list({ page, page_size: 25, ...(status ? { status } : {}) }),
  });
  return (
    <Page title="Operations">
      <div className="filters">
        <SelectField
          name="status"
          label="Status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as (typeof statuses)[number]);
            setPage(1);
          }}
          options={statuses.map((value) => ({ value, label: value || 'all' }))}
        />
      </div>
      {list.isPending ? <Loading label="Loading operations" /> : null}
      <ErrorNotice error={list.error} />
      {list.data ? (
        <>
          <OperationsTable operations={list.data.data} />
          <Pager page={page} totalPages={list.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </Page>
  );
}
