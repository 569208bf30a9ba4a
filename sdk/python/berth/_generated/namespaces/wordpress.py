"""The `wordpress` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import WordPressInventory, WordpressRefreshResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class WordpressApi:
    """`client.wordpress`: get, refresh."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self, *, id: int, env: Literal['production', 'staging', 'development']) -> WordPressInventory | None:
        """What WordPress the environment runs

        `GET /v1/sites/{id}/environments/{env}/wordpress` (wordpress.get)

        Core, PHP and MySQL versions, address, title, locale, plugins and themes, as a worker last read them (after each operation on the environment). `data` is null before the first reading.

        **Permission:** `wordpress:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['wordpress.get'], {'id': id, 'env': env})

    def refresh(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> WordpressRefreshResult:
        """Read what WordPress runs again

        `POST /v1/sites/{id}/environments/{env}/wordpress/refresh` (wordpress.refresh)

        Answers 202 with a `wordpress.refresh` operation, for changes made outside Berth (wp-admin, SFTP).

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['wordpress.refresh'], {'id': id, 'env': env}, idempotency_key=idempotency_key)


class AsyncWordpressApi:
    """`client.wordpress`: get, refresh."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self, *, id: int, env: Literal['production', 'staging', 'development']) -> WordPressInventory | None:
        """What WordPress the environment runs

        `GET /v1/sites/{id}/environments/{env}/wordpress` (wordpress.get)

        Core, PHP and MySQL versions, address, title, locale, plugins and themes, as a worker last read them (after each operation on the environment). `data` is null before the first reading.

        **Permission:** `wordpress:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['wordpress.get'], {'id': id, 'env': env})

    async def refresh(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> WordpressRefreshResult:
        """Read what WordPress runs again

        `POST /v1/sites/{id}/environments/{env}/wordpress/refresh` (wordpress.refresh)

        Answers 202 with a `wordpress.refresh` operation, for changes made outside Berth (wp-admin, SFTP).

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['wordpress.refresh'], {'id': id, 'env': env}, idempotency_key=idempotency_key)


__all__ = ['WordpressApi', 'AsyncWordpressApi']
