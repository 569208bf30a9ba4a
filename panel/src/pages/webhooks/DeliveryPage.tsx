import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { RedeliverButton } from './DeliveriesSection.tsx';
import type { Attempt } from './types.ts';

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** One delivery: each attempt's request and response (the first 4 KiB of each body). */
export default function DeliveryPage() {
  const { id, deliveryId } = useParams<{ id: string; deliveryId: string }>();
  const webhookId = Number(id);
  const me = useMe();
  const delivery = useQuery({
    queryKey: ['webhookDeliveries', webhookId, 'one', deliveryId],
    queryFn: () => berth.webhookDeliveries.get({ webhook: webhookId, delivery: deliveryId }),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 5000 : false),
  });
  const data = delivery.data;
  return (
    <Page
      title={data ? `Delivery of ${data.event_type}` : 'Delivery'}
      back={{ href: `/webhooks/${webhookId}`, label: 'Endpoint' }}
      actions={can(me, 'webhooks:manage') ? <RedeliverButton webhookId={webhookId} deliveryId={deliveryId} /> : null}
    >
      {delivery.isPending ? <Loading label="Loading the delivery" /> : null}
      <ErrorNotice error={delivery.error} />
      {data ? (
        <>
          <dl className="details">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={data.status} />
              {data.next_attempt_at ? ` — next attempt ${new Date(data.next_attempt_at).toLocaleString()}` : ''}
            </dd>
            <dt>Event id (webhook-id)</dt>
            <dd>
              <code>{data.event_id}</code>
            </dd>
            <dt>Attempts</dt>
            <dd>{data.attempts}</dd>
            {data.last_error ? (
              <>
                <dt>Last error</dt>
                <dd>{data.last_error}</dd>
              </>
            ) : null}
          </dl>
          {data.attempts_log.map((attempt) => (
            <AttemptSection key={attempt.number} attempt={attempt} />
          ))}
        </>
      ) : null}
    </Page>
  );
}

function AttemptSection({ attempt }: { attempt: Attempt }) {
  return (
    <Section title={`Attempt ${attempt.number}`}>
      <p>
        {new Date(attempt.started_at).toLocaleString()} · {attempt.duration_ms} ms ·{' '}
        {attempt.response ? `HTTP ${attempt.response.status}` : `no answer: ${attempt.error ?? 'unknown'}`}
      </p>
      <h3>Request</h3>
      <pre className="webhooks-body">{`${headerLines(attempt.request.headers)}\n\n${attempt.request.body}`}</pre>
      {attempt.response ? (
        <>
          <h3>Response</h3>
          <pre className="webhooks-body">{`${headerLines(attempt.response.headers)}\n\n${attempt.response.body}`}</pre>
        </>
      ) : null}
    </Section>
  );
}
