"""The `permissions` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import PermissionsListResultItem

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class PermissionsApi:
    """`client.permissions`: list."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def list(self) -> list[PermissionsListResultItem]:
        """The permission catalogue: every permission a route checks, with its routes

        `GET /v1/permissions` (permissions.list)

        Generated from the route declarations, so it lists exactly the checks the API makes, plus the permissions the built-in roles name (`checked: false` until a route checks them). Grants are exact, `<resource>:*` or `*`. Any authenticated caller may read it.
        """
        return self._client._call(OPERATIONS['permissions.list'], {})


class AsyncPermissionsApi:
    """`client.permissions`: list."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def list(self) -> list[PermissionsListResultItem]:
        """The permission catalogue: every permission a route checks, with its routes

        `GET /v1/permissions` (permissions.list)

        Generated from the route declarations, so it lists exactly the checks the API makes, plus the permissions the built-in roles name (`checked: false` until a route checks them). Grants are exact, `<resource>:*` or `*`. Any authenticated caller may read it.
        """
        return await self._client._call(OPERATIONS['permissions.list'], {})


__all__ = ['PermissionsApi', 'AsyncPermissionsApi']
