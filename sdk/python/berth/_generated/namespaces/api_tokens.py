"""The `api_tokens` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import ApiTokensCreateBody, ApiTokensCreateResult, ApiTokensGetResult, ApiTokensListItem, ApiTokensRevokeResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class ApiTokensApi:
    """`client.api_tokens`: create, get, list, revoke."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, body: ApiTokensCreateBody, idempotency_key: str | None = None) -> ApiTokensCreateResult:
        """Create an API token; its secret is in this answer only

        `POST /v1/api-tokens` (apiTokens.create)

        The token acts as the caller in the caller's team, limited to `permissions`, each of which the caller must hold (else 403 with `details.permission`, the first one missing). Its creator's role is read on every request, so a role change applies to the token at once. It dies with the creator's membership. An API token holding `api_tokens:create` may create tokens, within its own grants and its own expiry.

        **Permission:** `api_tokens:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['apiTokens.create'], {}, body=body, idempotency_key=idempotency_key)

    def get(self, *, id: int) -> ApiTokensGetResult:
        """One API token of the team

        `GET /v1/api-tokens/{id}` (apiTokens.get)

        **Permission:** `api_tokens:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The API token's id
        """
        return self._client._call(OPERATIONS['apiTokens.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[ApiTokensListItem]:
        """List the team's API tokens

        `GET /v1/api-tokens` (apiTokens.list)

        The team's tokens that are not revoked, newest first; expired ones stay listed until revoked. Never the secret.

        **Permission:** `api_tokens:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['apiTokens.list'], {'page': page, 'page_size': page_size})

    def revoke(self, *, id: int, idempotency_key: str | None = None) -> ApiTokensRevokeResult:
        """Revoke an API token

        `DELETE /v1/api-tokens/{id}` (apiTokens.revoke)

        Effective at once: the token's next request answers 401. Answers the token with its `revoked_at`; a revoked token is no longer listed, and revoking it again answers 404.

        **Permission:** `api_tokens:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The API token's id
        """
        return self._client._call(OPERATIONS['apiTokens.revoke'], {'id': id}, idempotency_key=idempotency_key)


class AsyncApiTokensApi:
    """`client.api_tokens`: create, get, list, revoke."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, body: ApiTokensCreateBody, idempotency_key: str | None = None) -> ApiTokensCreateResult:
        """Create an API token; its secret is in this answer only

        `POST /v1/api-tokens` (apiTokens.create)

        The token acts as the caller in the caller's team, limited to `permissions`, each of which the caller must hold (else 403 with `details.permission`, the first one missing). Its creator's role is read on every request, so a role change applies to the token at once. It dies with the creator's membership. An API token holding `api_tokens:create` may create tokens, within its own grants and its own expiry.

        **Permission:** `api_tokens:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['apiTokens.create'], {}, body=body, idempotency_key=idempotency_key)

    async def get(self, *, id: int) -> ApiTokensGetResult:
        """One API token of the team

        `GET /v1/api-tokens/{id}` (apiTokens.get)

        **Permission:** `api_tokens:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The API token's id
        """
        return await self._client._call(OPERATIONS['apiTokens.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[ApiTokensListItem]:
        """List the team's API tokens

        `GET /v1/api-tokens` (apiTokens.list)

        The team's tokens that are not revoked, newest first; expired ones stay listed until revoked. Never the secret.

        **Permission:** `api_tokens:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['apiTokens.list'], {'page': page, 'page_size': page_size})

    async def revoke(self, *, id: int, idempotency_key: str | None = None) -> ApiTokensRevokeResult:
        """Revoke an API token

        `DELETE /v1/api-tokens/{id}` (apiTokens.revoke)

        Effective at once: the token's next request answers 401. Answers the token with its `revoked_at`; a revoked token is no longer listed, and revoking it again answers 404.

        **Permission:** `api_tokens:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The API token's id
        """
        return await self._client._call(OPERATIONS['apiTokens.revoke'], {'id': id}, idempotency_key=idempotency_key)


__all__ = ['ApiTokensApi', 'AsyncApiTokensApi']
