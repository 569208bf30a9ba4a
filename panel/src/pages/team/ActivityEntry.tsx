import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';

/** An audit entry's action that opens to the whole entry, read (GET /v1/activity/{id}) only when opened. */
export function ActivityEntry({ id, action }: { id: number; action: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <code>{action}</code>
      </summary>
      {open ? <EntryRecord id={id} /> : null}
    </details>
  );
}

function EntryRecord({ id }: { id: number }) {
  const entry = useQuery({ queryKey: ['activity', 'one', id], queryFn: () => berth.activity.get({ id }), staleTime: Infinity });
  if (entry.isPending) return <Loading label="Loading the entry" />;
  if (entry.isError) return <ErrorNotice error={entry.error} />;
  const data = entry.data;
  return (
    <dl className="details team-activity-record">
      <dt>HTTP status</dt>
      <dd>{data.status ?? '—'}</dd>
      <dt>Via</dt>
      <dd>
        {data.actor.via.replace(/_/g, ' ')}
        {data.actor.api_token_id !== null ? ` (token ${data.actor.api_token_id})` : ''}
      </dd>
      <dt>IP</dt>
      <dd>{data.ip ?? '—'}</dd>
      <dt>Browser</dt>
      <dd>{data.user_agent ?? '—'}</dd>
      <dt>Request</dt>
      <dd>{data.request_id ? <code>{data.request_id}</code> : '—'}</dd>
      <dt>Facts</dt>
      <dd>{Object.keys(data.metadata).length ? <pre className="team-activity-metadata">{JSON.stringify(data.metadata, null, 2)}</pre> : '—'}</dd>
    </dl>
  );
}
