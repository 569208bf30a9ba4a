"""The `invites` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import InvitesCreateBody, InvitesCreateResult, InvitesListItem, InvitesResendResult, InvitesRevokeResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class InvitesApi:
    """`client.invites`: create, list, resend, revoke."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, body: InvitesCreateBody, idempotency_key: str | None = None) -> InvitesCreateResult:
        """Invite someone into the team

        `POST /v1/teams/{id}/invites` (invites.create)

        Mails an invitation to `email`. The invitee accepts with the mailed token at `POST /api/v1/auth/register-from-invite` (a new account, or an existing one with its password), valid 7 days. The caller must hold every grant of the role (else 403 with the first one missing in `details.permission`). An address that is already a member: 422 on `email`. A new invite replaces (revokes) any open one for the same address.

        **Permission:** `invites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return self._client._call(OPERATIONS['invites.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def list(self, *, id: int, page: int | None = None, page_size: int | None = None, status: Literal['pending', 'accepted', 'revoked', 'expired'] | None = None) -> Page[InvitesListItem]:
        """List the team's invites

        `GET /v1/teams/{id}/invites` (invites.list)

        Newest first, every status unless `status` is given. Never the token.

        **Permission:** `invites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: Only invites in this status
        """
        return self._client._call(OPERATIONS['invites.list'], {'id': id, 'page': page, 'page_size': page_size, 'status': status})

    def resend(self, *, id: int, invite_id: int, body: dict[str, Any], idempotency_key: str | None = None) -> InvitesResendResult:
        """Send an invite again

        `POST /v1/teams/{id}/invites/{invite_id}/resend` (invites.resend)

        Mails a new token and makes the invite valid for 7 more days; the previous token stops working at once. An expired invite can be resent (that is what this is for); an accepted or revoked one answers 409. The caller must hold the role's grants.

        **Permission:** `invites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            invite_id: The invite's id
        """
        return self._client._call(OPERATIONS['invites.resend'], {'id': id, 'invite_id': invite_id}, body=body, idempotency_key=idempotency_key)

    def revoke(self, *, id: int, invite_id: int, idempotency_key: str | None = None) -> InvitesRevokeResult:
        """Revoke an invite

        `DELETE /v1/teams/{id}/invites/{invite_id}` (invites.revoke)

        Its token stops working at once. The invite stays listed with `status: revoked`; revoking it again changes nothing. An accepted invite answers 409: remove the member instead.

        **Permission:** `invites:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            invite_id: The invite's id
        """
        return self._client._call(OPERATIONS['invites.revoke'], {'id': id, 'invite_id': invite_id}, idempotency_key=idempotency_key)


class AsyncInvitesApi:
    """`client.invites`: create, list, resend, revoke."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, body: InvitesCreateBody, idempotency_key: str | None = None) -> InvitesCreateResult:
        """Invite someone into the team

        `POST /v1/teams/{id}/invites` (invites.create)

        Mails an invitation to `email`. The invitee accepts with the mailed token at `POST /api/v1/auth/register-from-invite` (a new account, or an existing one with its password), valid 7 days. The caller must hold every grant of the role (else 403 with the first one missing in `details.permission`). An address that is already a member: 422 on `email`. A new invite replaces (revokes) any open one for the same address.

        **Permission:** `invites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
        """
        return await self._client._call(OPERATIONS['invites.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def list(self, *, id: int, page: int | None = None, page_size: int | None = None, status: Literal['pending', 'accepted', 'revoked', 'expired'] | None = None) -> Page[InvitesListItem]:
        """List the team's invites

        `GET /v1/teams/{id}/invites` (invites.list)

        Newest first, every status unless `status` is given. Never the token.

        **Permission:** `invites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: Only invites in this status
        """
        return await self._client._call(OPERATIONS['invites.list'], {'id': id, 'page': page, 'page_size': page_size, 'status': status})

    async def resend(self, *, id: int, invite_id: int, body: dict[str, Any], idempotency_key: str | None = None) -> InvitesResendResult:
        """Send an invite again

        `POST /v1/teams/{id}/invites/{invite_id}/resend` (invites.resend)

        Mails a new token and makes the invite valid for 7 more days; the previous token stops working at once. An expired invite can be resent (that is what this is for); an accepted or revoked one answers 409. The caller must hold the role's grants.

        **Permission:** `invites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            invite_id: The invite's id
        """
        return await self._client._call(OPERATIONS['invites.resend'], {'id': id, 'invite_id': invite_id}, body=body, idempotency_key=idempotency_key)

    async def revoke(self, *, id: int, invite_id: int, idempotency_key: str | None = None) -> InvitesRevokeResult:
        """Revoke an invite

        `DELETE /v1/teams/{id}/invites/{invite_id}` (invites.revoke)

        Its token stops working at once. The invite stays listed with `status: revoked`; revoking it again changes nothing. An accepted invite answers 409: remove the member instead.

        **Permission:** `invites:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The team's id
            invite_id: The invite's id
        """
        return await self._client._call(OPERATIONS['invites.revoke'], {'id': id, 'invite_id': invite_id}, idempotency_key=idempotency_key)


__all__ = ['InvitesApi', 'AsyncInvitesApi']
