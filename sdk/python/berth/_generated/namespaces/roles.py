"""The `roles` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import RolesCreateBody, RolesCreateResult, RolesDeleteResult, RolesGetResult, RolesListItem, RolesUpdateBody, RolesUpdateResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class RolesApi:
    """`client.roles`: create, delete, get, list, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, body: RolesCreateBody, idempotency_key: str | None = None) -> RolesCreateResult:
        """Create a custom role

        `POST /v1/teams/{id}/roles` (roles.create)

        Nobody grants what they do not hold: a grant the caller lacks answers 403 with it in `details.permission`. A name the team already has (whatever the case) or a built-in role's name answers 409.

        **Permission:** `roles:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return self._client._call(OPERATIONS['roles.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, role_id: int, idempotency_key: str | None = None) -> RolesDeleteResult:
        """Delete a custom role

        `DELETE /v1/teams/{id}/roles/{role_id}` (roles.delete)

        Only a role no member holds and no open invite (pending or expired) gives; else 409. Accepted and revoked invites that named it are deleted with it. The caller must hold every grant of the role. Built-in roles cannot be deleted: 409.

        **Permission:** `roles:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            role_id: The role's id
        """
        return self._client._call(OPERATIONS['roles.delete'], {'id': id, 'role_id': role_id}, idempotency_key=idempotency_key)

    def get(self, *, id: int, role_id: int) -> RolesGetResult:
        """One role

        `GET /v1/teams/{id}/roles/{role_id}` (roles.get)

        **Permission:** `roles:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            role_id: The role's id
        """
        return self._client._call(OPERATIONS['roles.get'], {'id': id, 'role_id': role_id})

    def list(self, *, id: int, page: int | None = None, page_size: int | None = None) -> Page[RolesListItem]:
        """List the roles the team can give

        `GET /v1/teams/{id}/roles` (roles.list)

        The built-in roles first (`builtin: true`: owner, admin, developer, billing, viewer), then the team's own by name.

        **Permission:** `roles:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['roles.list'], {'id': id, 'page': page, 'page_size': page_size})

    def update(self, *, id: int, role_id: int, body: RolesUpdateBody, idempotency_key: str | None = None) -> RolesUpdateResult:
        """Change a custom role

        `PATCH /v1/teams/{id}/roles/{role_id}` (roles.update)

        Nobody grants what they do not hold: a grant the caller lacks answers 403 with it in `details.permission`. The caller must also hold every grant the role has now. `permissions`, when given, replaces the list. Permissions are read on every request: a change applies at once to every session and API token of the role's members. Built-in roles cannot be changed: 409.

        **Permission:** `roles:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            role_id: The role's id
        """
        return self._client._call(OPERATIONS['roles.update'], {'id': id, 'role_id': role_id}, body=body, idempotency_key=idempotency_key)


class AsyncRolesApi:
    """`client.roles`: create, delete, get, list, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, body: RolesCreateBody, idempotency_key: str | None = None) -> RolesCreateResult:
        """Create a custom role

        `POST /v1/teams/{id}/roles` (roles.create)

        Nobody grants what they do not hold: a grant the caller lacks answers 403 with it in `details.permission`. A name the team already has (whatever the case) or a built-in role's name answers 409.

        **Permission:** `roles:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return await self._client._call(OPERATIONS['roles.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, role_id: int, idempotency_key: str | None = None) -> RolesDeleteResult:
        """Delete a custom role

        `DELETE /v1/teams/{id}/roles/{role_id}` (roles.delete)

        Only a role no member holds and no open invite (pending or expired) gives; else 409. Accepted and revoked invites that named it are deleted with it. The caller must hold every grant of the role. Built-in roles cannot be deleted: 409.

        **Permission:** `roles:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            role_id: The role's id
        """
        return await self._client._call(OPERATIONS['roles.delete'], {'id': id, 'role_id': role_id}, idempotency_key=idempotency_key)

    async def get(self, *, id: int, role_id: int) -> RolesGetResult:
        """One role

        `GET /v1/teams/{id}/roles/{role_id}` (roles.get)

        **Permission:** `roles:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            role_id: The role's id
        """
        return await self._client._call(OPERATIONS['roles.get'], {'id': id, 'role_id': role_id})

    async def list(self, *, id: int, page: int | None = None, page_size: int | None = None) -> Page[RolesListItem]:
        """List the roles the team can give

        `GET /v1/teams/{id}/roles` (roles.list)

        The built-in roles first (`builtin: true`: owner, admin, developer, billing, viewer), then the team's own by name.

        **Permission:** `roles:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['roles.list'], {'id': id, 'page': page, 'page_size': page_size})

    async def update(self, *, id: int, role_id: int, body: RolesUpdateBody, idempotency_key: str | None = None) -> RolesUpdateResult:
        """Change a custom role

        `PATCH /v1/teams/{id}/roles/{role_id}` (roles.update)

        Nobody grants what they do not hold: a grant the caller lacks answers 403 with it in `details.permission`. The caller must also hold every grant the role has now. `permissions`, when given, replaces the list. Permissions are read on every request: a change applies at once to every session and API token of the role's members. Built-in roles cannot be changed: 409.

        **Permission:** `roles:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            role_id: The role's id
        """
        return await self._client._call(OPERATIONS['roles.update'], {'id': id, 'role_id': role_id}, body=body, idempotency_key=idempotency_key)


__all__ = ['RolesApi', 'AsyncRolesApi']
