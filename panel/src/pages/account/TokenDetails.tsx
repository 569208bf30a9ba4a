import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { formatPlace, formatTime } from './format.ts';

type Token = Awaited<ReturnType<typeof berth.apiTokens.list>>['data'][number];

/** A token's name that opens to its full record, read fresh (GET /v1/api-tokens/{id}) when opened. */
export function TokenDetails({ token }: { token: Token }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{token.name}</summary>
      {open ? <TokenRecord id={token.id} /> : null}
    </details>
  );
}

function TokenRecord({ id }: { id: number }) {
  const token = useQuery({ queryKey: ['api-tokens', 'one', id], queryFn: () => berth.apiTokens.get({ id }) });
  if (token.isPending) return <Loading label="Loading the token" />;
  if (token.isError) return <ErrorNotice error={token.error} />;
  const data = token.data;
  return (
    <dl className="details">
      <dt>Permissions</dt>
      <dd>{data.permissions.join(', ')}</dd>
      <dt>Created</dt>
      <dd>
        {formatTime(data.created_at)} by {data.created_by.name}
      </dd>
      <dt>Last used</dt>
      <dd>{data.last_used_at ? `${formatTime(data.last_used_at)} from ${formatPlace(data.last_used_ip)}` : 'Never'}</dd>
    </dl>
  );
}
