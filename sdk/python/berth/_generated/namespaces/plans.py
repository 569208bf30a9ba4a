"""The `plans` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import Plan, PlansCreateBody, PlansUpdateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class PlansApi:
    """`client.plans`: create, list, list_all, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, body: PlansCreateBody, idempotency_key: str | None = None) -> Plan:
        """Add a plan (operators)

        `POST /v1/admin/billing/plans` (plans.create)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return self._client._call(OPERATIONS['plans.create'], {}, body=body, idempotency_key=idempotency_key)

    def list(self) -> list[Plan]:
        """The plans a team can choose

        `GET /v1/billing/plans` (plans.list)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['plans.list'], {})

    def list_all(self) -> list[Plan]:
        """Every plan, inactive ones too (operators)

        `GET /v1/admin/billing/plans` (plans.listAll)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return self._client._call(OPERATIONS['plans.listAll'], {})

    def update(self, *, plan: int, body: PlansUpdateBody, idempotency_key: str | None = None) -> Plan:
        """Change a plan (operators)

        `PATCH /v1/admin/billing/plans/{plan}` (plans.update)

        Price changes apply to invoices made from now on (renewals included); limits reach subscribed teams at their next renewal (or when their subscription next becomes active). `active: false` withdraws the plan from sale; its subscriptions continue. The code never changes.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            plan: The plan's id
        """
        return self._client._call(OPERATIONS['plans.update'], {'plan': plan}, body=body, idempotency_key=idempotency_key)


class AsyncPlansApi:
    """`client.plans`: create, list, list_all, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, body: PlansCreateBody, idempotency_key: str | None = None) -> Plan:
        """Add a plan (operators)

        `POST /v1/admin/billing/plans` (plans.create)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return await self._client._call(OPERATIONS['plans.create'], {}, body=body, idempotency_key=idempotency_key)

    async def list(self) -> list[Plan]:
        """The plans a team can choose

        `GET /v1/billing/plans` (plans.list)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['plans.list'], {})

    async def list_all(self) -> list[Plan]:
        """Every plan, inactive ones too (operators)

        `GET /v1/admin/billing/plans` (plans.listAll)

        Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team (`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return await self._client._call(OPERATIONS['plans.listAll'], {})

    async def update(self, *, plan: int, body: PlansUpdateBody, idempotency_key: str | None = None) -> Plan:
        """Change a plan (operators)

        `PATCH /v1/admin/billing/plans/{plan}` (plans.update)

        Price changes apply to invoices made from now on (renewals included); limits reach subscribed teams at their next renewal (or when their subscription next becomes active). `active: false` withdraws the plan from sale; its subscriptions continue. The code never changes.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            plan: The plan's id
        """
        return await self._client._call(OPERATIONS['plans.update'], {'plan': plan}, body=body, idempotency_key=idempotency_key)


__all__ = ['PlansApi', 'AsyncPlansApi']
