import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField } from '../../components/Field.tsx';
import { Section } from '../../components/Page.tsx';
import type { WebhookEndpoint } from './types.ts';

const overlaps = [
  { value: '86400', label: '24 hours (the default)' },
  { value: '3600', label: '1 hour' },
  { value: '604800', label: '7 days' },
  { value: '0', label: 'Not at all: the old secret stops now' },
];

/** The signing secret: fetched only when asked to reveal it (never cached), and rotating it. */
export function SecretSection({ endpoint }: { endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [overlap, setOverlap] = useState('86400');
  const secret = useQuery({
    queryKey: ['webhooks', endpoint.id, 'secret'],
    queryFn: () => berth.webhooks.getSecret({ webhook: endpoint.id }),
    enabled: revealed,
    gcTime: 0,
    staleTime: 0,
  });
  const rotate = useMutation({
    mutationFn: () => berth.webhooks.rotateSecret({ webhook: endpoint.id, body: { expire_previous_in_seconds: Number(overlap) } }),
    onSuccess: async (rotated) => {
      queryClient.setQueryData(['webhooks', endpoint.id, 'secret'], { secret: rotated.secret });
      await queryClient.invalidateQueries({ queryKey: ['webhooks', endpoint.id] });
      setRevealed(true);
      setRotating(false);
    },
  });
  return (
    <Section title="Signing secret">
      <p className="muted">Verify each delivery's webhook-signature header with it.</p>
      {revealed && secret.data ? (
        <p>
          <code className="webhooks-secret">{secret.data.secret}</code>
        </p>
      ) : null}
      <ErrorNotice error={secret.error} />
      {endpoint.previous_secret_expires_at ? (
        <p className="muted">The previous secret also signs until {new Date(endpoint.previous_secret_expires_at).toLocaleString()}.</p>
      ) : null}
      <div className="button-row">
        <button type="button" className="button" aria-pressed={revealed} onClick={() => setRevealed(!revealed)} disabled={secret.isFetching}>
          {revealed ? 'Hide secret' : 'Reveal secret'}
        </button>
        <button type="button" className="button button-danger" onClick={() => setRotating(true)}>
          Rotate secret
        </button>
      </div>
      <ConfirmDialog
        open={rotating}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => setRotating(false)}
      >
        <p>A new secret signs from now on. Update your receiver with it.</p>
        <SelectField
          name="expire_previous_in_seconds"
          label="The old secret keeps signing beside the new one for"
          value={overlap}
          onChange={(event) => setOverlap(event.target.value)}
          options={overlaps}
        />
        <ErrorNotice error={rotate.error} />
      </ConfirmDialog>
    </Section>
  );
}
