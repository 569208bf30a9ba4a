"""The `members` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import MembersLeaveResult, MembersListItem, MembersRemoveResult, MembersUpdateBody, MembersUpdateResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class MembersApi:
    """`client.members`: leave, list, remove, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def leave(self, *, id: int, idempotency_key: str | None = None) -> MembersLeaveResult:
        """Leave the team

        `DELETE /v1/teams/{id}/members/me` (members.leave)

        Removes the caller from the team they act in; a signed-in member needs no permission. An API token needs `members:delete` (a script does not make its creator leave on a lesser grant). The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT. Every session of the caller in the team ends at once (this one included) and their API tokens of the team are deleted.

        Args:
            id: The team's id
        """
        return self._client._call(OPERATIONS['members.leave'], {'id': id}, idempotency_key=idempotency_key)

    def list(self, *, id: int, page: int | None = None, page_size: int | None = None) -> Page[MembersListItem]:
        """List the team's members

        `GET /v1/teams/{id}/members` (members.list)

        Longest-standing first.

        **Permission:** `members:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['members.list'], {'id': id, 'page': page, 'page_size': page_size})

    def remove(self, *, id: int, user_id: int, idempotency_key: str | None = None) -> MembersRemoveResult:
        """Remove a member

        `DELETE /v1/teams/{id}/members/{user_id}` (members.remove)

        Nobody grants what they do not hold: the caller must hold every grant of the member's current role, else 403 `AUTHORIZATION_ERROR` with the first grant missing in `details.permission`. So an admin can neither demote nor remove an owner, nor make anyone owner. The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT. The member's sessions in the team end at once and their API tokens of the team are deleted. To leave a team without `members:delete`, use `DELETE /v1/teams/{id}/members/me`.

        **Permission:** `members:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            user_id: The member's user's id
        """
        return self._client._call(OPERATIONS['members.remove'], {'id': id, 'user_id': user_id}, idempotency_key=idempotency_key)

    def update(self, *, id: int, user_id: int, body: MembersUpdateBody, idempotency_key: str | None = None) -> MembersUpdateResult:
        """Change a member's role

        `PATCH /v1/teams/{id}/members/{user_id}` (members.update)

        Nobody grants what they do not hold: the caller must hold every grant of the member's current role and of the new one, else 403 `AUTHORIZATION_ERROR` with the first grant missing in `details.permission`. So an admin can neither demote nor remove an owner, nor make anyone owner. The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT. The new role applies to the member's sessions and API tokens on their next request. A `role_id` that is neither built-in nor the team's own: 422.

        **Permission:** `members:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            user_id: The member's user's id
        """
        return self._client._call(OPERATIONS['members.update'], {'id': id, 'user_id': user_id}, body=body, idempotency_key=idempotency_key)


class AsyncMembersApi:
    """`client.members`: leave, list, remove, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def leave(self, *, id: int, idempotency_key: str | None = None) -> MembersLeaveResult:
        """Leave the team

        `DELETE /v1/teams/{id}/members/me` (members.leave)

        Removes the caller from the team they act in; a signed-in member needs no permission. An API token needs `members:delete` (a script does not make its creator leave on a lesser grant). The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT. Every session of the caller in the team ends at once (this one included) and their API tokens of the team are deleted.

        Args:
            id: The team's id
        """
        return await self._client._call(OPERATIONS['members.leave'], {'id': id}, idempotency_key=idempotency_key)

    async def list(self, *, id: int, page: int | None = None, page_size: int | None = None) -> Page[MembersListItem]:
        """List the team's members

        `GET /v1/teams/{id}/members` (members.list)

        Longest-standing first.

        **Permission:** `members:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['members.list'], {'id': id, 'page': page, 'page_size': page_size})

    async def remove(self, *, id: int, user_id: int, idempotency_key: str | None = None) -> MembersRemoveResult:
        """Remove a member

        `DELETE /v1/teams/{id}/members/{user_id}` (members.remove)

        Nobody grants what they do not hold: the caller must hold every grant of the member's current role, else 403 `AUTHORIZATION_ERROR` with the first grant missing in `details.permission`. So an admin can neither demote nor remove an owner, nor make anyone owner. The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT. The member's sessions in the team end at once and their API tokens of the team are deleted. To leave a team without `members:delete`, use `DELETE /v1/teams/{id}/members/me`.

        **Permission:** `members:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            user_id: The member's user's id
        """
        return await self._client._call(OPERATIONS['members.remove'], {'id': id, 'user_id': user_id}, idempotency_key=idempotency_key)

    async def update(self, *, id: int, user_id: int, body: MembersUpdateBody, idempotency_key: str | None = None) -> MembersUpdateResult:
        """Change a member's role

        `PATCH /v1/teams/{id}/members/{user_id}` (members.update)

        Nobody grants what they do not hold: the caller must hold every grant of the member's current role and of the new one, else 403 `AUTHORIZATION_ERROR` with the first grant missing in `details.permission`. So an admin can neither demote nor remove an owner, nor make anyone owner. The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT. The new role applies to the member's sessions and API tokens on their next request. A `role_id` that is neither built-in nor the team's own: 422.

        **Permission:** `members:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            user_id: The member's user's id
        """
        return await self._client._call(OPERATIONS['members.update'], {'id': id, 'user_id': user_id}, body=body, idempotency_key=idempotency_key)


__all__ = ['MembersApi', 'AsyncMembersApi']
