import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { DeliveriesSection } from './DeliveriesSection.tsx';
import { EndpointStatus } from './EndpointStatus.tsx';
import { EventTypeChoices } from './EventTypeChoices.tsx';
import { SecretSection } from './SecretSection.tsx';
import type { WebhookEndpoint } from './types.ts';

/** One endpoint (the page the "webhook disabled" e-mail links to): edit, enable, secret, test, deliveries, delete. */
export default function WebhookPage() {
  const { id } = useParams<{ id: string }>();
  const webhookId = Number(id);
  const me = useMe();
  const created = new URLSearchParams(useSearch()).has('created');
  const endpoint = useQuery({ queryKey: ['webhooks', webhookId], queryFn: () => berth.webhooks.get({ webhook: webhookId }) });
  const manage = can(me, 'webhooks:manage');
  const data = endpoint.data;
  return (
    <Page title={data ? data.url : 'Webhook endpoint'} back={{ href: '/webhooks', label: 'Webhooks' }}>
      {endpoint.isPending ? <Loading label="Loading the endpoint" /> : null}
      <ErrorNotice error={endpoint.error} />
      {data ? (
        <>
          {created ? <Notice tone="success">Endpoint added. Reveal its signing secret below to verify what Berth sends.</Notice> : null}
          <p>
            <EndpointStatus endpoint={data} />
          </p>
          {manage ? (
            <>
              <EnableSection endpoint={data} />
              <EditSection endpoint={data} />
              <TestSection endpoint={data} />
              <SecretSection endpoint={data} />
            </>
          ) : null}
          <DeliveriesSection webhookId={webhookId} canManage={manage} />
          {manage ? <DeleteSection endpoint={data} /> : null}
        </>
      ) : null}
    </Page>
  );
}

function EnableSection({ endpoint }: { endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => berth.webhooks.update({ webhook: endpoint.id, body: { enabled: !endpoint.enabled } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  return (
    <div className="button-row webhooks-enable">
      <button type="button" className={endpoint.enabled ? 'button' : 'button button-primary'} onClick={() => toggle.mutate()} disabled={toggle.isPending}>
        {endpoint.enabled ? 'Disable endpoint' : 'Enable endpoint again'}
      </button>
      {!endpoint.enabled ? <small className="muted">Enabling forgets its failures; events from now on are delivered.</small> : null}
      <ErrorNotice error={toggle.error} />
    </div>
  );
}

function EditSection({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [events, setEvents] = useState<Set<string>>(() => new Set(endpoint.event_types));
  const [saved, setSaved] = useState(false);
  const form = useApiForm({
    submit: (values) =>
      berth.webhooks.update({ webhook: endpoint.id, body: { url: values.url ?? '', description: values.description ?? '', event_types: [...events] } }),
    invalidates: [['webhooks']],
    onSuccess: () => setSaved(true),
  });
  return (
    <Section title="Endpoint">
      {saved ? <Notice tone="success">Saved.</Notice> : null}
      <Form form={form} submitLabel="Save endpoint">
        <TextField name="url" label="URL" type="url" required maxLength={2000} defaultValue={endpoint.url} error={form.error('url')} />
        <TextField name="description" label="Description" maxLength={500} defaultValue={endpoint.description} error={form.error('description')} />
        <EventTypeChoices selected={events} onChange={setEvents} error={form.error('event_types')} />
      </Form>
    </Section>
  );
}

function TestSection({ endpoint }: { endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => berth.webhooks.sendTest({ webhook: endpoint.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhookDeliveries', endpoint.id] }),
  });
  return (
    <Section title="Test">
      <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending}>
        Send a test event
      </button>
      <ErrorNotice error={test.error} />
      {test.data ? (
        <Notice tone="success">
          Test event queued: <Link href={`/webhooks/${endpoint.id}/deliveries/${test.data.id}`}>see its delivery</Link>.
        </Notice>
      ) : null}
    </Section>
  );
}

function DeleteSection({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => berth.webhooks.delete({ webhook: endpoint.id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      navigate('/webhooks');
    },
  });
  return (
    <Section title="Delete">
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        Delete endpoint
      </button>
      <ConfirmDialog
        open={open}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>
          <strong>{endpoint.url}</strong> receives no more events, and its delivery log goes.
        </p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
