"""The `addons` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import Addon, AddonsCreateBody, AddonsUpdateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class AddonsApi:
    """`client.addons`: create, get, list, list_all, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, body: AddonsCreateBody, idempotency_key: str | None = None) -> Addon:
        """Add an add-on (operators)

        `POST /v1/admin/billing/addons` (addons.create)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return self._client._call(OPERATIONS['addons.create'], {}, body=body, idempotency_key=idempotency_key)

    def get(self, *, addon: int) -> Addon:
        """One add-on (operators)

        `GET /v1/admin/billing/addons/{addon}` (addons.get)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            addon: The add-on's id
        """
        return self._client._call(OPERATIONS['addons.get'], {'addon': addon})

    def list(self) -> list[Addon]:
        """The add-ons a team can buy

        `GET /v1/billing/addons` (addons.list)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['addons.list'], {})

    def list_all(self) -> list[Addon]:
        """Every add-on, inactive ones too (operators)

        `GET /v1/admin/billing/addons` (addons.listAll)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return self._client._call(OPERATIONS['addons.listAll'], {})

    def update(self, *, addon: int, body: AddonsUpdateBody, idempotency_key: str | None = None) -> Addon:
        """Change an add-on (operators)

        `PATCH /v1/admin/billing/addons/{addon}` (addons.update)

        Price changes apply to invoices made from now on (renewals and increases); what a unit adds reaches the teams holding it at their next renewal or add-on change. `active: false` withdraws it from sale: teams holding it keep it (and may decrease it), none can buy more. Add-ons are not deleted (teams may hold them), only withdrawn. The code, currency and interval never change.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            addon: The add-on's id
        """
        return self._client._call(OPERATIONS['addons.update'], {'addon': addon}, body=body, idempotency_key=idempotency_key)


class AsyncAddonsApi:
    """`client.addons`: create, get, list, list_all, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, body: AddonsCreateBody, idempotency_key: str | None = None) -> Addon:
        """Add an add-on (operators)

        `POST /v1/admin/billing/addons` (addons.create)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return await self._client._call(OPERATIONS['addons.create'], {}, body=body, idempotency_key=idempotency_key)

    async def get(self, *, addon: int) -> Addon:
        """One add-on (operators)

        `GET /v1/admin/billing/addons/{addon}` (addons.get)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            addon: The add-on's id
        """
        return await self._client._call(OPERATIONS['addons.get'], {'addon': addon})

    async def list(self) -> list[Addon]:
        """The add-ons a team can buy

        `GET /v1/billing/addons` (addons.list)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['addons.list'], {})

    async def list_all(self) -> list[Addon]:
        """Every add-on, inactive ones too (operators)

        `GET /v1/admin/billing/addons` (addons.listAll)

        Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return await self._client._call(OPERATIONS['addons.listAll'], {})

    async def update(self, *, addon: int, body: AddonsUpdateBody, idempotency_key: str | None = None) -> Addon:
        """Change an add-on (operators)

        `PATCH /v1/admin/billing/addons/{addon}` (addons.update)

        Price changes apply to invoices made from now on (renewals and increases); what a unit adds reaches the teams holding it at their next renewal or add-on change. `active: false` withdraws it from sale: teams holding it keep it (and may decrease it), none can buy more. Add-ons are not deleted (teams may hold them), only withdrawn. The code, currency and interval never change.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            addon: The add-on's id
        """
        return await self._client._call(OPERATIONS['addons.update'], {'addon': addon}, body=body, idempotency_key=idempotency_key)


__all__ = ['AddonsApi', 'AsyncAddonsApi']
