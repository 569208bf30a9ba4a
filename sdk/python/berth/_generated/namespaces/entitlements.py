"""The `entitlements` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import Entitlements, EntitlementsSetBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class EntitlementsApi:
    """`client.entitlements`: get, set."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self) -> Entitlements:
        """What the team's plan allows

        `GET /v1/entitlements` (entitlements.get)

        **Permission:** `teams:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['entitlements.get'], {})

    def set(self, *, team_id: int, body: EntitlementsSetBody, idempotency_key: str | None = None) -> Entitlements:
        """Set what a team's plan allows (operators)

        `PUT /v1/admin/teams/{team_id}/entitlements` (entitlements.set)

        For teams billed outside Berth: a subscription writes this row itself when it becomes active (and removes it when it ends), so a later payment overwrites what is set here. Lowering a limit below what a team uses stops new sites, it removes nothing.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            team_id: The team's id
        """
        return self._client._call(OPERATIONS['entitlements.set'], {'team_id': team_id}, body=body, idempotency_key=idempotency_key)


class AsyncEntitlementsApi:
    """`client.entitlements`: get, set."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self) -> Entitlements:
        """What the team's plan allows

        `GET /v1/entitlements` (entitlements.get)

        **Permission:** `teams:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['entitlements.get'], {})

    async def set(self, *, team_id: int, body: EntitlementsSetBody, idempotency_key: str | None = None) -> Entitlements:
        """Set what a team's plan allows (operators)

        `PUT /v1/admin/teams/{team_id}/entitlements` (entitlements.set)

        For teams billed outside Berth: a subscription writes this row itself when it becomes active (and removes it when it ends), so a later payment overwrites what is set here. Lowering a limit below what a team uses stops new sites, it removes nothing.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            team_id: The team's id
        """
        return await self._client._call(OPERATIONS['entitlements.set'], {'team_id': team_id}, body=body, idempotency_key=idempotency_key)


__all__ = ['EntitlementsApi', 'AsyncEntitlementsApi']
