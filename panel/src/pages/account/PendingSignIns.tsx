import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { formatPlace, formatTime } from './format.ts';

type Request = Awaited<ReturnType<typeof berth.browserAuth.listConcurrentLoginRequests>>['requests'][number];

// The API suggests a live session poll this list; a request lives 10 minutes.
const POLL_MS = 15_000;

/** Sign-ins on another device that wait for this session to approve or deny them. */
export function PendingSignIns() {
  const queryClient = useQueryClient();
  const requests = useQuery({
    queryKey: ['concurrent-login-requests'],
    queryFn: () => berth.browserAuth.listConcurrentLoginRequests(),
    refetchInterval: POLL_MS,
  });
  const decide = useMutation({
    mutationFn: async ({ token, approve }: { token: string; approve: boolean }): Promise<string> =>
      (approve ? await berth.browserAuth.approveConcurrentLogin({ body: { token } }) : await berth.browserAuth.denyConcurrentLogin({ body: { token } })).status,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['concurrent-login-requests'] }),
  });
  return (
    <Section title="Sign-ins waiting for approval">
      {requests.isPending ? <Loading label="Loading sign-ins waiting for approval" /> : null}
      <ErrorNotice error={requests.error ?? decide.error} />
      {requests.data ? (
        <DataTable<Request>
          caption="Sign-ins waiting for approval"
          rows={requests.data.requests}
          rowKey={(request) => request.token}
          empty="No sign-in is waiting. When someone signs in with your password on another device, it waits here for you."
          columns={[
            { header: 'Asked', cell: (request) => formatTime(request.created_at) },
            { header: 'Device', cell: (request) => request.user_agent ?? 'Unknown' },
            { header: 'From', cell: (request) => formatPlace(request.ip, request.country) },
            { header: 'Expires', cell: (request) => formatTime(request.expires_at) },
            {
              header: 'Decision',
              cell: (request) => (
                <div className="button-row">
                  <button
                    type="button"
                    className="button button-primary"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ token: request.token, approve: true })}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="button button-danger"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ token: request.token, approve: false })}
                  >
                    Deny
                  </button>
                </div>
              ),
            },
          ]}
        />
      ) : null}
    </Section>
  );
}
