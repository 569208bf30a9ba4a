import { StatusBadge } from '../../components/StatusBadge.tsx';
import type { WebhookEndpoint } from './types.ts';

const reasons = { manual: 'by a member', gone: 'the URL answered 410 Gone', failing: 'its deliveries kept failing' } as const;

/** Enabled or disabled, and why it was disabled (Berth disables a failing or gone endpoint itself). */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled)
    return (
      <>
        <StatusBadge status="enabled" />
        {endpoint.failing_since ? <small className="muted"> failing since {new Date(endpoint.failing_since).toLocaleString()}</small> : null}
      </>
    );
  return (
    <>
      <StatusBadge status="disabled" />
      {endpoint.disabled_reason ? <small className="muted"> {reasons[endpoint.disabled_reason]}</small> : null}
    </>
  );
}
