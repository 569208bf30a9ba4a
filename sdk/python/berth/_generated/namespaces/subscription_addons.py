"""The `subscription_addons` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import SubscriptionAddonsListResult, SubscriptionAddonsRemoveResult, SubscriptionAddonsSetBody, SubscriptionAddonsSetResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class SubscriptionAddonsApi:
    """`client.subscription_addons`: list, remove, set."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def list(self) -> SubscriptionAddonsListResult:
        """The add-ons of the team's subscription

        `GET /v1/billing/subscription/addons` (subscriptionAddons.list)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['subscriptionAddons.list'], {})

    def remove(self, *, code: str, idempotency_key: str | None = None) -> SubscriptionAddonsRemoveResult:
        """Remove an add-on at the renewal

        `DELETE /v1/billing/subscription/addons/{code}` (subscriptionAddons.remove)

        The add-on goes when the period renews (`pending_quantity: 0`), and is not billed again; until then the team keeps its units. To keep it after all, PUT its current quantity.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            code: The add-on's code
        """
        return self._client._call(OPERATIONS['subscriptionAddons.remove'], {'code': code}, idempotency_key=idempotency_key)

    def set(self, *, code: str, body: SubscriptionAddonsSetBody, idempotency_key: str | None = None) -> SubscriptionAddonsSetResult:
        """Hold an add-on in some quantity

        `PUT /v1/billing/subscription/addons/{code}` (subscriptionAddons.set)

        For an `active` subscription, an add-on on sale billed in the plan's currency and interval. More units than held apply at once: the limits are written and an invoice charges the rest of the period by the second (the old quantity's unused seconds credited, the new quantity's charged, each line rounded to the minor unit), finalized and collected like the others. Fewer units take effect at the renewal (`pending_quantity`). The quantity held drops a pending decrease. `effective` says which happened.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            code: The add-on's code
        """
        return self._client._call(OPERATIONS['subscriptionAddons.set'], {'code': code}, body=body, idempotency_key=idempotency_key)


class AsyncSubscriptionAddonsApi:
    """`client.subscription_addons`: list, remove, set."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def list(self) -> SubscriptionAddonsListResult:
        """The add-ons of the team's subscription

        `GET /v1/billing/subscription/addons` (subscriptionAddons.list)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['subscriptionAddons.list'], {})

    async def remove(self, *, code: str, idempotency_key: str | None = None) -> SubscriptionAddonsRemoveResult:
        """Remove an add-on at the renewal

        `DELETE /v1/billing/subscription/addons/{code}` (subscriptionAddons.remove)

        The add-on goes when the period renews (`pending_quantity: 0`), and is not billed again; until then the team keeps its units. To keep it after all, PUT its current quantity.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            code: The add-on's code
        """
        return await self._client._call(OPERATIONS['subscriptionAddons.remove'], {'code': code}, idempotency_key=idempotency_key)

    async def set(self, *, code: str, body: SubscriptionAddonsSetBody, idempotency_key: str | None = None) -> SubscriptionAddonsSetResult:
        """Hold an add-on in some quantity

        `PUT /v1/billing/subscription/addons/{code}` (subscriptionAddons.set)

        For an `active` subscription, an add-on on sale billed in the plan's currency and interval. More units than held apply at once: the limits are written and an invoice charges the rest of the period by the second (the old quantity's unused seconds credited, the new quantity's charged, each line rounded to the minor unit), finalized and collected like the others. Fewer units take effect at the renewal (`pending_quantity`). The quantity held drops a pending decrease. `effective` says which happened.

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            code: The add-on's code
        """
        return await self._client._call(OPERATIONS['subscriptionAddons.set'], {'code': code}, body=body, idempotency_key=idempotency_key)


__all__ = ['SubscriptionAddonsApi', 'AsyncSubscriptionAddonsApi']
