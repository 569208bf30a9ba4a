"""The `stripe` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import StripeReceiveWebhookResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class StripeApi:
    """`client.stripe`: receive_webhook."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def receive_webhook(self, *, body: bytes, idempotency_key: str | None = None) -> StripeReceiveWebhookResult:
        """Stripe's webhook events

        `POST /v1/billing/stripe/webhook` (stripe.receiveWebhook)

        Stripe calls this (no Berth credentials: the `Stripe-Signature` header is checked with `STRIPE_WEBHOOK_SECRET` over the exact body, and its timestamp must be within 300 s). Each event acts once: its id is recorded with its effect, so a repeat answers 200 `duplicate`. `payment_intent.succeeded` marks the invoice named by the PaymentIntent's metadata paid (its `invoice_id` and `team_id` must name the same invoice, collected by Stripe, of the same amount and currency) and its subscription `active` with its limits, in one transaction; `payment_intent.payment_failed` notes the failure on the invoice (`payment_failed_at`, `payment_failure`; it stays open); for an invoice voided meanwhile it settles nothing and answers `paid_void` (logged at error level: the operators refund it). `refund.updated`, `charge.refund.updated` and `refund.failed` settle one refund of a credit note, matched by its id or its `metadata.credit_note_id` within the invoice of its PaymentIntent (`refunded`, `refund_failed`); `charge.refunded` confirms the succeeded refunds it lists (without the list, nothing: its `amount_refunded` counts pending and dashboard refunds too); `charge.dispute.created`, `.updated` and `.closed` record a dispute of an invoice's payment, matched by its PaymentIntent (`disputed`, `dispute_closed`; a lost one is recorded as the invoice's `amount_lost_minor`, and entitlements are left as they are). Other events, and events for no invoice of Berth: 200 `ignored`.
        """
        return self._client._call(OPERATIONS['stripe.receiveWebhook'], {}, body=body, idempotency_key=idempotency_key)


class AsyncStripeApi:
    """`client.stripe`: receive_webhook."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def receive_webhook(self, *, body: bytes, idempotency_key: str | None = None) -> StripeReceiveWebhookResult:
        """Stripe's webhook events

        `POST /v1/billing/stripe/webhook` (stripe.receiveWebhook)

        Stripe calls this (no Berth credentials: the `Stripe-Signature` header is checked with `STRIPE_WEBHOOK_SECRET` over the exact body, and its timestamp must be within 300 s). Each event acts once: its id is recorded with its effect, so a repeat answers 200 `duplicate`. `payment_intent.succeeded` marks the invoice named by the PaymentIntent's metadata paid (its `invoice_id` and `team_id` must name the same invoice, collected by Stripe, of the same amount and currency) and its subscription `active` with its limits, in one transaction; `payment_intent.payment_failed` notes the failure on the invoice (`payment_failed_at`, `payment_failure`; it stays open); for an invoice voided meanwhile it settles nothing and answers `paid_void` (logged at error level: the operators refund it). `refund.updated`, `charge.refund.updated` and `refund.failed` settle one refund of a credit note, matched by its id or its `metadata.credit_note_id` within the invoice of its PaymentIntent (`refunded`, `refund_failed`); `charge.refunded` confirms the succeeded refunds it lists (without the list, nothing: its `amount_refunded` counts pending and dashboard refunds too); `charge.dispute.created`, `.updated` and `.closed` record a dispute of an invoice's payment, matched by its PaymentIntent (`disputed`, `dispute_closed`; a lost one is recorded as the invoice's `amount_lost_minor`, and entitlements are left as they are). Other events, and events for no invoice of Berth: 200 `ignored`.
        """
        return await self._client._call(OPERATIONS['stripe.receiveWebhook'], {}, body=body, idempotency_key=idempotency_key)


__all__ = ['StripeApi', 'AsyncStripeApi']
