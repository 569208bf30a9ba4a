"""The `subscription` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import Subscription, SubscriptionCreateBody, SubscriptionCreateResult, SubscriptionResumeResult, SubscriptionUpdateBody, SubscriptionUpdateResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class SubscriptionApi:
    """`client.subscription`: cancel, create, get, resume, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def cancel(self, *, idempotency_key: str | None = None) -> Subscription:
        """Cancel the subscription

        `DELETE /v1/billing/subscription` (subscription.cancel)

        An active subscription keeps its plan until `current_period_end`, then ends (`cancel_at_period_end: true`; it is not renewed). A `trialing` one keeps its limits until the trial's end, then ends without an invoice (`ended_reason: trial_canceled`). An `incomplete` one (first invoice not paid) or a `paused` one ends at once and its open invoice is voided; an `unpaid` one ends at once. Once ended, the team's limits are withdrawn: its sites keep running, new ones answer 402 until it chooses a plan again.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['subscription.cancel'], {}, idempotency_key=idempotency_key)

    def create(self, *, body: SubscriptionCreateBody, idempotency_key: str | None = None) -> SubscriptionCreateResult:
        """Choose a plan

        `POST /v1/billing/subscription` (subscription.create)

        Subscribes the team to an active plan. The team's first subscription to a plan with `trial_days` (unless `trial: false`) starts `trialing`: the plan's limits apply at once, there is no invoice (`invoice` and `payment` are null), and the trial is the first period; the team gets one trial, ever (cancelling and choosing again starts none). At its end the first paid period starts (`billing_anchor`) with its invoice and the subscription is `active` (unpaid, it goes `past_due` then `unpaid` like any invoice), or, when the platform runs with BILLING_TRIAL_END_BEHAVIOR=pause, it is `paused` until resumed (`POST /v1/billing/subscription/resume`); a trial cancelled meanwhile ends then (`ended_reason: trial_canceled`). Otherwise the subscription starts `incomplete` with its first period (from now) and its first invoice, finalized and numbered. `payment.instructions` says how to pay it; with the `manual` provider an operator marks it paid when the bank transfer arrives (with `stripe`, `payment.stripe` holds the PaymentIntent's client secret for Stripe.js and Stripe's webhook marks it paid), and the subscription becomes `active`: the plan's limits apply to the team at once (site creation is unlocked). Not paid within BILLING_INCOMPLETE_EXPIRE_HOURS (23 by default), it is cancelled and the invoice voided (`ended_reason: incomplete_expired`), and the team may choose again. One subscription per team: while one is not `canceled`, 409 `subscription_exists` (change plans with PATCH).

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['subscription.create'], {}, body=body, idempotency_key=idempotency_key)

    def get(self) -> Subscription:
        """The team's subscription

        `GET /v1/billing/subscription` (subscription.get)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['subscription.get'], {})

    def resume(self, *, idempotency_key: str | None = None) -> SubscriptionResumeResult:
        """Resume a paused subscription

        `POST /v1/billing/subscription/resume` (subscription.resume)

        A subscription paused at its trial's end starts a new period now, which becomes its `billing_anchor`, with that period's invoice finalized, mailed and collected like the first one. It stays `paused` (no limits: sites keep running, new ones answer 402) until that invoice is paid, then becomes `active` with its plan's limits. Asked again while that invoice is open, it answers the same invoice. A paused subscription may instead be cancelled (`DELETE`): it ends at once and the invoice is voided.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['subscription.resume'], {}, idempotency_key=idempotency_key)

    def update(self, *, body: SubscriptionUpdateBody, idempotency_key: str | None = None) -> SubscriptionUpdateResult:
        """Change plans

        `PATCH /v1/billing/subscription` (subscription.update)

        During a trial, to any active plan: it applies at once (its limits written), without an invoice; the trial keeps its end and the first invoice bills the plan chosen last. For an `active` subscription, to a plan billed in the same currency and interval. An upgrade (a price at least the current one) applies at once: the new plan's limits are written and an invoice charges the rest of the period by the second (the old plan's unused seconds credited, the new plan's charged, each line rounded to the minor unit), finalized and collected like the others. A downgrade takes effect when the period renews (`pending_plan`), billed and entitled then. Choosing the current plan drops a pending downgrade. `effective` says which happened.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['subscription.update'], {}, body=body, idempotency_key=idempotency_key)


class AsyncSubscriptionApi:
    """`client.subscription`: cancel, create, get, resume, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def cancel(self, *, idempotency_key: str | None = None) -> Subscription:
        """Cancel the subscription

        `DELETE /v1/billing/subscription` (subscription.cancel)

        An active subscription keeps its plan until `current_period_end`, then ends (`cancel_at_period_end: true`; it is not renewed). A `trialing` one keeps its limits until the trial's end, then ends without an invoice (`ended_reason: trial_canceled`). An `incomplete` one (first invoice not paid) or a `paused` one ends at once and its open invoice is voided; an `unpaid` one ends at once. Once ended, the team's limits are withdrawn: its sites keep running, new ones answer 402 until it chooses a plan again.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['subscription.cancel'], {}, idempotency_key=idempotency_key)

    async def create(self, *, body: SubscriptionCreateBody, idempotency_key: str | None = None) -> SubscriptionCreateResult:
        """Choose a plan

        `POST /v1/billing/subscription` (subscription.create)

        Subscribes the team to an active plan. The team's first subscription to a plan with `trial_days` (unless `trial: false`) starts `trialing`: the plan's limits apply at once, there is no invoice (`invoice` and `payment` are null), and the trial is the first period; the team gets one trial, ever (cancelling and choosing again starts none). At its end the first paid period starts (`billing_anchor`) with its invoice and the subscription is `active` (unpaid, it goes `past_due` then `unpaid` like any invoice), or, when the platform runs with BILLING_TRIAL_END_BEHAVIOR=pause, it is `paused` until resumed (`POST /v1/billing/subscription/resume`); a trial cancelled meanwhile ends then (`ended_reason: trial_canceled`). Otherwise the subscription starts `incomplete` with its first period (from now) and its first invoice, finalized and numbered. `payment.instructions` says how to pay it; with the `manual` provider an operator marks it paid when the bank transfer arrives (with `stripe`, `payment.stripe` holds the PaymentIntent's client secret for Stripe.js and Stripe's webhook marks it paid), and the subscription becomes `active`: the plan's limits apply to the team at once (site creation is unlocked). Not paid within BILLING_INCOMPLETE_EXPIRE_HOURS (23 by default), it is cancelled and the invoice voided (`ended_reason: incomplete_expired`), and the team may choose again. One subscription per team: while one is not `canceled`, 409 `subscription_exists` (change plans with PATCH).

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['subscription.create'], {}, body=body, idempotency_key=idempotency_key)

    async def get(self) -> Subscription:
        """The team's subscription

        `GET /v1/billing/subscription` (subscription.get)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['subscription.get'], {})

    async def resume(self, *, idempotency_key: str | None = None) -> SubscriptionResumeResult:
        """Resume a paused subscription

        `POST /v1/billing/subscription/resume` (subscription.resume)

        A subscription paused at its trial's end starts a new period now, which becomes its `billing_anchor`, with that period's invoice finalized, mailed and collected like the first one. It stays `paused` (no limits: sites keep running, new ones answer 402) until that invoice is paid, then becomes `active` with its plan's limits. Asked again while that invoice is open, it answers the same invoice. A paused subscription may instead be cancelled (`DELETE`): it ends at once and the invoice is voided.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['subscription.resume'], {}, idempotency_key=idempotency_key)

    async def update(self, *, body: SubscriptionUpdateBody, idempotency_key: str | None = None) -> SubscriptionUpdateResult:
        """Change plans

        `PATCH /v1/billing/subscription` (subscription.update)

        During a trial, to any active plan: it applies at once (its limits written), without an invoice; the trial keeps its end and the first invoice bills the plan chosen last. For an `active` subscription, to a plan billed in the same currency and interval. An upgrade (a price at least the current one) applies at once: the new plan's limits are written and an invoice charges the rest of the period by the second (the old plan's unused seconds credited, the new plan's charged, each line rounded to the minor unit), finalized and collected like the others. A downgrade takes effect when the period renews (`pending_plan`), billed and entitled then. Choosing the current plan drops a pending downgrade. `effective` says which happened.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['subscription.update'], {}, body=body, idempotency_key=idempotency_key)


__all__ = ['SubscriptionApi', 'AsyncSubscriptionApi']
