import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { CreateTokenForm } from './CreateTokenForm.tsx';
import { NewTokenSecret } from './NewTokenSecret.tsx';
import { TokenDetails } from './TokenDetails.tsx';
import { formatTime } from './format.ts';

type Token = Awaited<ReturnType<typeof berth.apiTokens.list>>['data'][number];

/** The team's API tokens: create one (its secret shown once), look one up, revoke one. */
export default function ApiTokensPage() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<{ name: string; secret: string | null } | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const tokens = useQuery({ queryKey: ['api-tokens', page], queryFn: () => berth.apiTokens.list({ page, page_size: 20 }) });
  const revoke = useMutation({
    mutationFn: (token: Token) => berth.apiTokens.revoke({ id: token.id }),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const mayRevoke = can(me, 'api_tokens:delete');
  return (
    <Page title="API tokens">
      <p>
        A token lets a script or the <code>berth</code> CLI act as you in {me.team_name}, limited to the permissions you give it. Send it as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      {created ? <NewTokenSecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} /> : null}
      <Section title="Tokens">
        {tokens.isPending ? <Loading label="Loading API tokens" /> : null}
        <ErrorNotice error={tokens.error} />
        {tokens.data ? (
          <>
            <DataTable<Token>
              caption="API tokens"
              rows={tokens.data.data}
              rowKey={(token) => token.id}
              empty="No API token yet."
              columns={[
                { header: 'Name', cell: (token) => <TokenDetails token={token} /> },
                { header: 'Starts with', cell: (token) => <code>{token.prefix}…</code> },
                { header: 'Created by', cell: (token) => token.created_by.name },
                { header: 'Expires', cell: (token) => expiry(token.expires_at) },
                { header: 'Last used', cell: (token) => formatTime(token.last_used_at) },
                {
                  header: 'Actions',
                  cell: (token) =>
                    mayRevoke ? (
                      <button type="button" className="button button-danger" onClick={() => setRevoking(token)}>
                        Revoke
                      </button>
                    ) : null,
                },
              ]}
            />
            <Pager page={page} totalPages={tokens.data.pagination.total_pages} onPage={setPage} />
          </>
        ) : null}
      </Section>
      {can(me, 'api_tokens:create') ? (
        <Section title="New token">
          <CreateTokenForm onCreated={(token) => setCreated({ name: token.name, secret: token.token })} />
        </Section>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? 'this token'}?`}
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        <p>Its next request is refused. Scripts using it stop working until they get a new token.</p>
        <ErrorNotice error={revoke.error} />
      </ConfirmDialog>
    </Page>
  );
}

function expiry(expiresAt: string | null): string {
  if (!expiresAt) return 'Never';
  return new Date(expiresAt).getTime() < Date.now() ? `Expired ${formatTime(expiresAt)}` : formatTime(expiresAt);
}
