import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { EndpointStatus } from './EndpointStatus.tsx';
import { EventTypeChoices } from './EventTypeChoices.tsx';
import type { WebhookEndpoint } from './types.ts';

/** The team's webhook endpoints, and adding one. */
export default function WebhooksPage() {
  const me = useMe();
  const [page, setPage] = useState(1);
  const endpoints = useQuery({ queryKey: ['webhooks', 'list', page], queryFn: () => berth.webhooks.list({ page, page_size: 20 }) });
  return (
    <Page title="Webhooks">
      <p className="muted">Berth POSTs the team's events to these URLs, signed with each endpoint's secret (Standard Webhooks).</p>
      {endpoints.isPending ? <Loading label="Loading webhooks" /> : null}
      <ErrorNotice error={endpoints.error} />
      {endpoints.data ? (
        <>
          <DataTable<WebhookEndpoint>
            caption="Webhook endpoints"
            rows={endpoints.data.data}
            rowKey={(endpoint) => endpoint.id}
            empty="No endpoints yet."
            columns={[
              { header: 'URL', cell: (endpoint) => <Link href={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>, className: 'webhooks-url' },
              { header: 'Description', cell: (endpoint) => endpoint.description },
              { header: 'Events', cell: (endpoint) => (endpoint.event_types.length ? endpoint.event_types.join(', ') : 'every event') },
              { header: 'Status', cell: (endpoint) => <EndpointStatus endpoint={endpoint} /> },
            ]}
          />
          <Pager page={page} totalPages={endpoints.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      {can(me, 'webhooks:manage') ? <CreateEndpoint /> : null}
    </Page>
  );
}

function CreateEndpoint() {
  const [, navigate] = useLocation();
  const [events, setEvents] = useState<Set<string>>(new Set());
  const form = useApiForm({
    submit: (values) => berth.webhooks.create({ body: { url: values.url ?? '', description: values.description ?? '', event_types: [...events] } }),
    invalidates: [['webhooks']],
    onSuccess: (created) => navigate(`/webhooks/${created.id}?created=1`),
  });
  return (
    <Section title="Add an endpoint">
      <Form form={form} submitLabel="Add endpoint">
        <TextField name="url" label="URL" type="url" required maxLength={2000} placeholder="https://example.com/berth-events" error={form.error('url')} />
        <TextField name="description" label="Description (optional)" maxLength={500} error={form.error('description')} />
        <EventTypeChoices selected={events} onChange={setEvents} error={form.error('event_types')} />
      </Form>
    </Section>
  );
}
