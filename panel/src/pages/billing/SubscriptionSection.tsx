import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { isNotFound } from '../../api/errors.ts';
import { can, useMe } from '../../app/session.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { CheckboxField, SelectField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { day, perInterval } from './format.ts';
import { LimitsList } from './LimitsList.tsx';
import { PaymentNotice } from './PaymentNotice.tsx';
import type { Plan, Subscription } from './types.ts';

/** The queries a change of subscription touches: the team's limits and invoices follow it. */
const touched = [['subscription'], ['subscriptionAddons'], ['entitlements'], ['invoices']];

function planLabel(plan: Plan): string {
  return `${plan.name} — ${perInterval(plan.price_minor, plan.currency, plan.interval)}${plan.trial_days ? ` (${plan.trial_days} days free)` : ''}`;
}

/** The team's subscription: choose a plan, change it, cancel it, resume it after a paused trial. */
export function SubscriptionSection() {
  const me = useMe();
  const manage = can(me, 'billing:manage');
  const subscription = useQuery({ queryKey: ['subscription'], queryFn: () => berth.subscription.get(), retry: false });
  const plans = useQuery({ queryKey: ['plans'], queryFn: () => berth.plans.list(), staleTime: 300_000 });
  const [outcome, setOutcome] = useState<ReactNode>(null);
  if (subscription.isPending) return <Loading label="Loading the subscription" />;
  // 404: the team has no subscription yet
  const current = subscription.isError && isNotFound(subscription.error) ? null : subscription.data;
  const ended = !current || current.status === 'canceled';
  return (
    <Section title="Plan">
      {subscription.isError && !isNotFound(subscription.error) ? <ErrorNotice error={subscription.error} /> : null}
      {outcome}
      {current ? <SubscriptionDetails subscription={current} /> : null}
      {current === null ? <p>The team has no plan yet: choose one to create sites.</p> : null}
      <ErrorNotice error={plans.error} />
      {manage && plans.data && current !== undefined && ended ? <ChoosePlan plans={plans.data} onOutcome={setOutcome} /> : null}
      {manage && plans.data && current && !ended ? <ChangePlan plans={plans.data} subscription={current} onOutcome={setOutcome} /> : null}
      {manage && current && !ended ? <EndOrResume subscription={current} onOutcome={setOutcome} /> : null}
    </Section>
  );
}

function SubscriptionDetails({ subscription }: { subscription: Subscription }) {
  const plan = subscription.plan;
  return (
    <>
      <dl className="details">
        <dt>Plan</dt>
        <dd>{planLabel(plan)}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={subscription.status} />
          {subscription.cancel_at_period_end ? ` — ends on ${day(subscription.current_period_end)}` : ''}
          {subscription.ended_reason ? ` (${subscription.ended_reason.replace(/_/g, ' ')})` : ''}
        </dd>
        {subscription.trial_end ? (
          <>
            <dt>Trial ends</dt>
            <dd>{day(subscription.trial_end)}</dd>
          </>
        ) : null}
        <dt>Current period</dt>
        <dd>
          {day(subscription.current_period_start)} – {day(subscription.current_period_end)}
        </dd>
        {subscription.pending_plan ? (
          <>
            <dt>From the renewal</dt>
            <dd>{planLabel(subscription.pending_plan)}</dd>
          </>
        ) : null}
        <dt>Paid by</dt>
        <dd>{subscription.provider === 'manual' ? 'bank transfer' : subscription.provider}</dd>
      </dl>
      <details>
        <summary>What the plan allows</summary>
        <LimitsList limits={plan.entitlements} />
      </details>
    </>
  );
}

function ChoosePlan({ plans, onOutcome }: { plans: Plan[]; onOutcome: (node: ReactNode) => void }) {
  const form = useApiForm({
    submit: (values) => berth.subscription.create({ body: { plan: values.plan ?? '', trial: values.trial === 'on' } }),
    invalidates: touched,
    onSuccess: (answer) =>
      onOutcome(
        answer.invoice ? (
          <PaymentNotice invoice={answer.invoice} payment={answer.payment} />
        ) : (
          <Notice tone="success">Your trial has started: the plan's limits apply now.</Notice>
        ),
      ),
  });
  if (plans.length === 0) return <p className="empty">No plan is on sale yet.</p>;
  return (
    <Form form={form} submitLabel="Choose plan">
      <SelectField name="plan" label="Plan" options={plans.map((plan) => ({ value: plan.code, label: planLabel(plan) }))} error={form.error('plan')} />
      <CheckboxField name="trial" label="Start with the free trial where the plan has one" defaultChecked hint="A team gets one trial, ever." />
    </Form>
  );
}

function ChangePlan({ plans, subscription, onOutcome }: { plans: Plan[]; subscription: Subscription; onOutcome: (node: ReactNode) => void }) {
  const others = plans.filter((plan) => plan.code !== subscription.plan.code);
  const form = useApiForm({
    submit: (values) => berth.subscription.update({ body: { plan: values.plan ?? '' } }),
    invalidates: touched,
    onSuccess: (answer) =>
      onOutcome(
        <Notice tone="success">
          {answer.effective === 'now'
            ? 'The new plan applies now.'
            : answer.effective === 'period_end'
              ? 'The new plan applies at the renewal.'
              : 'Nothing changed.'}
          {answer.invoice ? (
            <>
              {' '}
              Its invoice: <Link href={`/billing/invoices/${answer.invoice.id}`}>{answer.invoice.number}</Link>.
            </>
          ) : null}
        </Notice>,
      ),
  });
  if (others.length === 0) return null;
  return (
    <Form form={form} submitLabel="Change plan" className="form form-inline">
      <SelectField
        name="plan"
        label="Change to"
        hint="An upgrade applies at once, billed for the rest of the period; a downgrade at the renewal."
        options={others.map((plan) => ({ value: plan.code, label: planLabel(plan) }))}
        error={form.error('plan')}
      />
    </Form>
  );
}

function EndOrResume({ subscription, onOutcome }: { subscription: Subscription; onOutcome: (node: ReactNode) => void }) {
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const refresh = () => Promise.all(touched.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const cancel = useMutation({
    mutationFn: () => berth.subscription.cancel(),
    onSuccess: async () => {
      await refresh();
      setCancelling(false);
    },
  });
  const resume = useMutation({
    mutationFn: () => berth.subscription.resume(),
    onSuccess: async (answer) => {
      await refresh();
      onOutcome(<PaymentNotice invoice={answer.invoice} payment={answer.payment} />);
    },
  });
  return (
    <div className="button-row billing-actions">
      {subscription.status === 'paused' ? (
        <button type="button" className="button button-primary" onClick={() => resume.mutate()} disabled={resume.isPending}>
          Resume subscription
        </button>
      ) : null}
      {!subscription.cancel_at_period_end ? (
        <button type="button" className="button button-danger" onClick={() => setCancelling(true)}>
          Cancel subscription
        </button>
      ) : null}
      <ErrorNotice error={resume.error} />
      <ConfirmDialog
        open={cancelling}
        title="Cancel the subscription?"
        confirmLabel="Cancel subscription"
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => setCancelling(false)}
      >
        <p>
          {subscription.status === 'active' || subscription.status === 'trialing'
            ? `The plan stays until ${day(subscription.status === 'trialing' ? subscription.trial_end : subscription.current_period_end)}, then ends and is not renewed.`
            : 'It ends now and its open invoice is voided.'}{' '}
          Sites keep running; new ones need a plan.
        </p>
        <ErrorNotice error={cancel.error} />
      </ConfirmDialog>
    </div>
  );
}
