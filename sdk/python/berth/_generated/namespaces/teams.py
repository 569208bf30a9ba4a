"""The `teams` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import TeamsGetResult, TeamsListItem, TeamsUpdateBody, TeamsUpdateResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class TeamsApi:
    """`client.teams`: get, list, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self, *, id: int) -> TeamsGetResult:
        """The team you act in

        `GET /v1/teams/{id}` (teams.get)

        A caller acts in one team, the team of their session or API token: any other `id` answers 404, even a team the user also belongs to. To act in another team, sign in to it (`team_id` at `POST /v1/auth/login` or at the session exchange).

        **Permission:** `teams:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return self._client._call(OPERATIONS['teams.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[TeamsListItem]:
        """List your teams

        `GET /v1/teams` (teams.list)

        Your memberships, by team name, with your role and the membership's status; `current` marks the team this request acts in. No permission is needed. An API token sees only its own team.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['teams.list'], {'page': page, 'page_size': page_size})

    def update(self, *, id: int, body: TeamsUpdateBody, idempotency_key: str | None = None) -> TeamsUpdateResult:
        """Rename the team, change its slug or its security settings

        `PATCH /v1/teams/{id}` (teams.update)

        A caller acts in one team, the team of their session or API token: any other `id` answers 404, even a team the user also belongs to. To act in another team, sign in to it (`team_id` at `POST /v1/auth/login` or at the session exchange).

        Every field is optional. `settings` is merged key by key into the current settings and applies to the next sign-in. Unknown keys, at any level, answer 422. A slug another team has answers 409; a malformed or reserved one 422.

        **Permission:** `teams:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return self._client._call(OPERATIONS['teams.update'], {'id': id}, body=body, idempotency_key=idempotency_key)


class AsyncTeamsApi:
    """`client.teams`: get, list, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self, *, id: int) -> TeamsGetResult:
        """The team you act in

        `GET /v1/teams/{id}` (teams.get)

        A caller acts in one team, the team of their session or API token: any other `id` answers 404, even a team the user also belongs to. To act in another team, sign in to it (`team_id` at `POST /v1/auth/login` or at the session exchange).

        **Permission:** `teams:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return await self._client._call(OPERATIONS['teams.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[TeamsListItem]:
        """List your teams

        `GET /v1/teams` (teams.list)

        Your memberships, by team name, with your role and the membership's status; `current` marks the team this request acts in. No permission is needed. An API token sees only its own team.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['teams.list'], {'page': page, 'page_size': page_size})

    async def update(self, *, id: int, body: TeamsUpdateBody, idempotency_key: str | None = None) -> TeamsUpdateResult:
        """Rename the team, change its slug or its security settings

        `PATCH /v1/teams/{id}` (teams.update)

        A caller acts in one team, the team of their session or API token: any other `id` answers 404, even a team the user also belongs to. To act in another team, sign in to it (`team_id` at `POST /v1/auth/login` or at the session exchange).

        Every field is optional. `settings` is merged key by key into the current settings and applies to the next sign-in. Unknown keys, at any level, answer 422. A slug another team has answers 409; a malformed or reserved one 422.

        **Permission:** `teams:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return await self._client._call(OPERATIONS['teams.update'], {'id': id}, body=body, idempotency_key=idempotency_key)


__all__ = ['TeamsApi', 'AsyncTeamsApi']
