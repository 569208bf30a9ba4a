"""The `sessions` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import SessionsListItem, SessionsRevokeOthersResult, SessionsRevokeResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class SessionsApi:
    """`client.sessions`: list, revoke, revoke_others."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[SessionsListItem]:
        """List your live sessions

        `GET /v1/sessions` (sessions.list)

        Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token). Live: not ended, and not past its refresh token's expiry (an API login's session lives as long as its access token). Most recently seen first; `last_seen_at` moves at most once a minute. A session still waiting for its second factor is listed too, so that a sign-in that got past your password can be seen and ended. `current` marks the session of this request.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['sessions.list'], {'page': page, 'page_size': page_size})

    def revoke(self, *, id: str, idempotency_key: str | None = None) -> SessionsRevokeResult:
        """End one of your sessions

        `DELETE /v1/sessions/{id}` (sessions.revoke)

        Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token). Effective at once: the session's access token answers 401 on its next request and its refresh token stops working. Ending the current session signs this caller out. Another user's session, an ended one or an unknown id: 404.

        Args:
            id: The session's id (a UUID)
        """
        return self._client._call(OPERATIONS['sessions.revoke'], {'id': id}, idempotency_key=idempotency_key)

    def revoke_others(self, *, idempotency_key: str | None = None) -> SessionsRevokeOthersResult:
        """End all your sessions but this one

        `DELETE /v1/sessions` (sessions.revokeOthers)

        Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token). Ends every session of yours in every team except the one making this request, at once. API tokens are not sessions and are untouched: revoke them with `DELETE /v1/api-tokens/{id}`.
        """
        return self._client._call(OPERATIONS['sessions.revokeOthers'], {}, idempotency_key=idempotency_key)


class AsyncSessionsApi:
    """`client.sessions`: list, revoke, revoke_others."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[SessionsListItem]:
        """List your live sessions

        `GET /v1/sessions` (sessions.list)

        Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token). Live: not ended, and not past its refresh token's expiry (an API login's session lives as long as its access token). Most recently seen first; `last_seen_at` moves at most once a minute. A session still waiting for its second factor is listed too, so that a sign-in that got past your password can be seen and ended. `current` marks the session of this request.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['sessions.list'], {'page': page, 'page_size': page_size})

    async def revoke(self, *, id: str, idempotency_key: str | None = None) -> SessionsRevokeResult:
        """End one of your sessions

        `DELETE /v1/sessions/{id}` (sessions.revoke)

        Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token). Effective at once: the session's access token answers 401 on its next request and its refresh token stops working. Ending the current session signs this caller out. Another user's session, an ended one or an unknown id: 404.

        Args:
            id: The session's id (a UUID)
        """
        return await self._client._call(OPERATIONS['sessions.revoke'], {'id': id}, idempotency_key=idempotency_key)

    async def revoke_others(self, *, idempotency_key: str | None = None) -> SessionsRevokeOthersResult:
        """End all your sessions but this one

        `DELETE /v1/sessions` (sessions.revokeOthers)

        Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token). Ends every session of yours in every team except the one making this request, at once. API tokens are not sessions and are untouched: revoke them with `DELETE /v1/api-tokens/{id}`.
        """
        return await self._client._call(OPERATIONS['sessions.revokeOthers'], {}, idempotency_key=idempotency_key)


__all__ = ['SessionsApi', 'AsyncSessionsApi']
