"""The `me` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import MeGetResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class MeApi:
    """`client.me`: get."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self) -> MeGetResult:
        """The caller: user, team, role and permissions

        `GET /v1/me` (me.get)

        Who the bearer token or session is: the user, the team it acts in, its role and the permissions that role grants (an API token's scopes narrow them).
        """
        return self._client._call(OPERATIONS['me.get'], {})


class AsyncMeApi:
    """`client.me`: get."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self) -> MeGetResult:
        """The caller: user, team, role and permissions

        `GET /v1/me` (me.get)

        Who the bearer token or session is: the user, the team it acts in, its role and the permissions that role grants (an API token's scopes narrow them).
        """
        return await self._client._call(OPERATIONS['me.get'], {})


__all__ = ['MeApi', 'AsyncMeApi']
