"""The `activity` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import ActivityGetResult, ActivityListItem

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class ActivityApi:
    """`client.activity`: get, list."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self, *, id: int) -> ActivityGetResult:
        """One entry of the team's audit trail

        `GET /v1/activity/{id}` (activity.get)

        Another team's entry answers 404, like an unknown one.

        **Permission:** `activity:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The audit trail entry's id
        """
        return self._client._call(OPERATIONS['activity.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None, actor_user_id: int | None = None, action: str | None = None, target_type: str | None = None, target_id: str | None = None, since: str | None = None, until: str | None = None) -> Page[ActivityListItem]:
        """The team's audit trail, newest first

        `GET /v1/activity` (activity.list)

        The team's audit trail: every mutating /v1 request that reached a route (with its answer's status, so refused attempts too) and every auth event (sign-in, logout, refresh-token reuse, password reset, e-mail verification, registration, joining by invite, TOTP enabled, backup code used, device approved, suspicious and concurrent sign-in decisions). Events of an account itself (password, e-mail, TOTP, devices) appear in every team the user is an active member of. Entries cannot be changed or deleted: there is no route for it, and the database refuses it. Filters combine: `actor_user_id`, `action` (exact, or a prefix ending in `*`), `target_type`, `target_id`, `since` (inclusive) and `until` (exclusive). A bad filter answers 422 naming it.

        **Permission:** `activity:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            actor_user_id: Only what this user did
            action: An exact action (`member.role_changed`), or a prefix ending in `*` (`member.*`, `auth.*`)
            target_type: Only entries about this kind of thing (`member`, `session`, `user`, `team`, ...)
            target_id: Only entries about this thing (with `target_type`, one exact resource)
            since: Entries at or after this time (ISO 8601; a date alone is midnight UTC)
            until: Entries before this time (ISO 8601; a date alone is midnight UTC)
        """
        return self._client._call(OPERATIONS['activity.list'], {'page': page, 'page_size': page_size, 'actor_user_id': actor_user_id, 'action': action, 'target_type': target_type, 'target_id': target_id, 'since': since, 'until': until})


class AsyncActivityApi:
    """`client.activity`: get, list."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self, *, id: int) -> ActivityGetResult:
        """One entry of the team's audit trail

        `GET /v1/activity/{id}` (activity.get)

        Another team's entry answers 404, like an unknown one.

        **Permission:** `activity:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The audit trail entry's id
        """
        return await self._client._call(OPERATIONS['activity.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None, actor_user_id: int | None = None, action: str | None = None, target_type: str | None = None, target_id: str | None = None, since: str | None = None, until: str | None = None) -> Page[ActivityListItem]:
        """The team's audit trail, newest first

        `GET /v1/activity` (activity.list)

        The team's audit trail: every mutating /v1 request that reached a route (with its answer's status, so refused attempts too) and every auth event (sign-in, logout, refresh-token reuse, password reset, e-mail verification, registration, joining by invite, TOTP enabled, backup code used, device approved, suspicious and concurrent sign-in decisions). Events of an account itself (password, e-mail, TOTP, devices) appear in every team the user is an active member of. Entries cannot be changed or deleted: there is no route for it, and the database refuses it. Filters combine: `actor_user_id`, `action` (exact, or a prefix ending in `*`), `target_type`, `target_id`, `since` (inclusive) and `until` (exclusive). A bad filter answers 422 naming it.

        **Permission:** `activity:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            actor_user_id: Only what this user did
            action: An exact action (`member.role_changed`), or a prefix ending in `*` (`member.*`, `auth.*`)
            target_type: Only entries about this kind of thing (`member`, `session`, `user`, `team`, ...)
            target_id: Only entries about this thing (with `target_type`, one exact resource)
            since: Entries at or after this time (ISO 8601; a date alone is midnight UTC)
            until: Entries before this time (ISO 8601; a date alone is midnight UTC)
        """
        return await self._client._call(OPERATIONS['activity.list'], {'page': page, 'page_size': page_size, 'actor_user_id': actor_user_id, 'action': action, 'target_type': target_type, 'target_id': target_id, 'since': since, 'until': until})


__all__ = ['ActivityApi', 'AsyncActivityApi']
