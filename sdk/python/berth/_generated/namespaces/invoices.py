"""The `invoices` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...binary import AsyncDownload
from ...binary import Download
from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Invoice, InvoicesGetResult, InvoicesListAllItem, InvoicesMarkPaidBody, InvoicesMarkPaidResult, InvoicesPayResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class InvoicesApi:
    """`client.invoices`: download_pdf, get, list, list_all, mark_paid, mark_uncollectible, pay, void."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def download_pdf(self, *, id: int) -> Download:
        """One invoice as a PDF

        `GET /v1/billing/invoices/{id}/pdf` (invoices.downloadPdf)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['invoices.downloadPdf'], {'id': id})

    def get(self, *, id: int) -> InvoicesGetResult:
        """One invoice with its lines, dunning attempts, credit notes and disputes

        `GET /v1/billing/invoices/{id}` (invoices.get)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps. An open invoice past its due date makes its subscription `past_due` and is dunned on days 1, 3, 5, 7 after its due date (BILLING_DUNNING_SCHEDULE_DAYS): the Stripe provider charges the customer's saved default card again, the manual provider sends a reminder; each attempt mails the team's owners and billing members, and a failed charge raises the webhook event `invoice.payment_failed`. Days the billing sweep missed are not made up: only the latest due attempt is made. Still open 14 days after its due date (BILLING_UNPAID_AFTER_DAYS), the subscription becomes `unpaid`, its plan's limits are withdrawn, and a last mail says so.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['invoices.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None, status: Literal['open', 'paid', 'void', 'uncollectible'] | None = None) -> Page[Invoice]:
        """The team's invoices

        `GET /v1/billing/invoices` (invoices.list)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: Only invoices in this status
        """
        return self._client._call(OPERATIONS['invoices.list'], {'page': page, 'page_size': page_size, 'status': status})

    def list_all(self, *, page: int | None = None, page_size: int | None = None, status: Literal['open', 'paid', 'void', 'uncollectible'] | None = None, team_id: int | None = None) -> Page[InvoicesListAllItem]:
        """Every team's invoices (operators)

        `GET /v1/admin/billing/invoices` (invoices.listAll)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: Only invoices in this status
            team_id: Only this team's
        """
        return self._client._call(OPERATIONS['invoices.listAll'], {'page': page, 'page_size': page_size, 'status': status, 'team_id': team_id})

    def mark_paid(self, *, id: int, body: InvoicesMarkPaidBody, idempotency_key: str | None = None) -> InvoicesMarkPaidResult:
        """Record a payment (operators)

        `POST /v1/billing/invoices/{id}/mark-paid` (invoices.markPaid)

        The manual provider's payment: the bank transfer arrived. The invoice becomes paid and, in the same transaction, its subscription `active` with its plan's limits written to the team (an `incomplete`, `past_due` or `unpaid` one; a subscription that still owes another invoice waits for that one too). An uncollectible invoice may be paid late.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['invoices.markPaid'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def mark_uncollectible(self, *, id: int, idempotency_key: str | None = None) -> Invoice:
        """Write an invoice off (operators)

        `POST /v1/billing/invoices/{id}/mark-uncollectible` (invoices.markUncollectible)

        An open invoice that will not be paid; a late payment can still mark it paid.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['invoices.markUncollectible'], {'id': id}, idempotency_key=idempotency_key)

    def pay(self, *, id: int, idempotency_key: str | None = None) -> InvoicesPayResult:
        """How to pay an open invoice

        `POST /v1/billing/invoices/{id}/pay` (invoices.pay)

        Asks the invoice's provider for the money again and answers how to pay: the transfer instructions (manual), or the Stripe PaymentIntent and its client secret for Stripe.js (the same one on every ask). Upgrades and renewals are paid this way, and a choice of plan whose collection failed (502).

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['invoices.pay'], {'id': id}, idempotency_key=idempotency_key)

    def void(self, *, id: int, idempotency_key: str | None = None) -> Invoice:
        """Void an invoice (operators)

        `POST /v1/billing/invoices/{id}/void` (invoices.void)

        An open or uncollectible invoice issued by mistake: it is owed no more, and its payment at the provider is withdrawn (Stripe: the PaymentIntent cancelled). Its number stays used (numbers never go back).

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['invoices.void'], {'id': id}, idempotency_key=idempotency_key)


class AsyncInvoicesApi:
    """`client.invoices`: download_pdf, get, list, list_all, mark_paid, mark_uncollectible, pay, void."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def download_pdf(self, *, id: int) -> AsyncDownload:
        """One invoice as a PDF

        `GET /v1/billing/invoices/{id}/pdf` (invoices.downloadPdf)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['invoices.downloadPdf'], {'id': id})

    async def get(self, *, id: int) -> InvoicesGetResult:
        """One invoice with its lines, dunning attempts, credit notes and disputes

        `GET /v1/billing/invoices/{id}` (invoices.get)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps. An open invoice past its due date makes its subscription `past_due` and is dunned on days 1, 3, 5, 7 after its due date (BILLING_DUNNING_SCHEDULE_DAYS): the Stripe provider charges the customer's saved default card again, the manual provider sends a reminder; each attempt mails the team's owners and billing members, and a failed charge raises the webhook event `invoice.payment_failed`. Days the billing sweep missed are not made up: only the latest due attempt is made. Still open 14 days after its due date (BILLING_UNPAID_AFTER_DAYS), the subscription becomes `unpaid`, its plan's limits are withdrawn, and a last mail says so.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['invoices.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None, status: Literal['open', 'paid', 'void', 'uncollectible'] | None = None) -> Page[Invoice]:
        """The team's invoices

        `GET /v1/billing/invoices` (invoices.list)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: Only invoices in this status
        """
        return await self._client._call(OPERATIONS['invoices.list'], {'page': page, 'page_size': page_size, 'status': status})

    async def list_all(self, *, page: int | None = None, page_size: int | None = None, status: Literal['open', 'paid', 'void', 'uncollectible'] | None = None, team_id: int | None = None) -> Page[InvoicesListAllItem]:
        """Every team's invoices (operators)

        `GET /v1/admin/billing/invoices` (invoices.listAll)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: Only invoices in this status
            team_id: Only this team's
        """
        return await self._client._call(OPERATIONS['invoices.listAll'], {'page': page, 'page_size': page_size, 'status': status, 'team_id': team_id})

    async def mark_paid(self, *, id: int, body: InvoicesMarkPaidBody, idempotency_key: str | None = None) -> InvoicesMarkPaidResult:
        """Record a payment (operators)

        `POST /v1/billing/invoices/{id}/mark-paid` (invoices.markPaid)

        The manual provider's payment: the bank transfer arrived. The invoice becomes paid and, in the same transaction, its subscription `active` with its plan's limits written to the team (an `incomplete`, `past_due` or `unpaid` one; a subscription that still owes another invoice waits for that one too). An uncollectible invoice may be paid late.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['invoices.markPaid'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def mark_uncollectible(self, *, id: int, idempotency_key: str | None = None) -> Invoice:
        """Write an invoice off (operators)

        `POST /v1/billing/invoices/{id}/mark-uncollectible` (invoices.markUncollectible)

        An open invoice that will not be paid; a late payment can still mark it paid.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['invoices.markUncollectible'], {'id': id}, idempotency_key=idempotency_key)

    async def pay(self, *, id: int, idempotency_key: str | None = None) -> InvoicesPayResult:
        """How to pay an open invoice

        `POST /v1/billing/invoices/{id}/pay` (invoices.pay)

        Asks the invoice's provider for the money again and answers how to pay: the transfer instructions (manual), or the Stripe PaymentIntent and its client secret for Stripe.js (the same one on every ask). Upgrades and renewals are paid this way, and a choice of plan whose collection failed (502).

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['invoices.pay'], {'id': id}, idempotency_key=idempotency_key)

    async def void(self, *, id: int, idempotency_key: str | None = None) -> Invoice:
        """Void an invoice (operators)

        `POST /v1/billing/invoices/{id}/void` (invoices.void)

        An open or uncollectible invoice issued by mistake: it is owed no more, and its payment at the provider is withdrawn (Stripe: the PaymentIntent cancelled). Its number stays used (numbers never go back).

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['invoices.void'], {'id': id}, idempotency_key=idempotency_key)


__all__ = ['InvoicesApi', 'AsyncInvoicesApi']
