"""The `wordpress` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import WordPressInventory, WordpressCliBody, WordpressCliResult, WordpressRefreshResult, WordpressSearchReplaceBody, WordpressSearchReplaceResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class WordpressApi:
    """`client.wordpress`: cli, get, refresh, search_replace."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def cli(self, *, id: int, env: Literal['production', 'staging', 'development'], body: WordpressCliBody, idempotency_key: str | None = None) -> WordpressCliResult:
        """Run a WP-CLI command

        `POST /v1/sites/{id}/environments/{env}/wp-cli` (wordpress.cli)

        Answers 202 with a `wordpress.cli` operation: the command runs in the environment's container as its site user (a real `wp` if the image has one, else Berth's subset: `plugin list|activate|deactivate`, `theme list|activate`, `option get|update`, `user list`, `cache flush`, `core version`, `search-replace`). Its output goes into the operation's log (the first 400 lines / 1 MiB), its exit code into the result; a non-zero exit fails step `run`. Commands that may change something end with `inventory` (read again) and `purge_cache`. Commands that drop or dump the database, write wp-config.php, replace WordPress, run arbitrary PHP or leave the environment are refused (docs/wp-cli.md).

        **Permission:** `wordpress:cli`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['wordpress.cli'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

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

    def search_replace(self, *, id: int, env: Literal['production', 'staging', 'development'], body: WordpressSearchReplaceBody, idempotency_key: str | None = None) -> WordpressSearchReplaceResult:
        """Search and replace in the database

        `POST /v1/sites/{id}/environments/{env}/search-replace` (wordpress.searchReplace)

        Answers 202 with a `wordpress.search_replace` operation: every text column of the site's tables (or `tables`), PHP-serialized values kept valid, counted per table in the result and the log. A dry run (the default) changes nothing; a real one ends with `purge_cache`.

        **Permission:** `wordpress:search_replace`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['wordpress.searchReplace'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


class AsyncWordpressApi:
    """`client.wordpress`: cli, get, refresh, search_replace."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def cli(self, *, id: int, env: Literal['production', 'staging', 'development'], body: WordpressCliBody, idempotency_key: str | None = None) -> WordpressCliResult:
        """Run a WP-CLI command

        `POST /v1/sites/{id}/environments/{env}/wp-cli` (wordpress.cli)

        Answers 202 with a `wordpress.cli` operation: the command runs in the environment's container as its site user (a real `wp` if the image has one, else Berth's subset: `plugin list|activate|deactivate`, `theme list|activate`, `option get|update`, `user list`, `cache flush`, `core version`, `search-replace`). Its output goes into the operation's log (the first 400 lines / 1 MiB), its exit code into the result; a non-zero exit fails step `run`. Commands that may change something end with `inventory` (read again) and `purge_cache`. Commands that drop or dump the database, write wp-config.php, replace WordPress, run arbitrary PHP or leave the environment are refused (docs/wp-cli.md).

        **Permission:** `wordpress:cli`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['wordpress.cli'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

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

    async def search_replace(self, *, id: int, env: Literal['production', 'staging', 'development'], body: WordpressSearchReplaceBody, idempotency_key: str | None = None) -> WordpressSearchReplaceResult:
        """Search and replace in the database

        `POST /v1/sites/{id}/environments/{env}/search-replace` (wordpress.searchReplace)

        Answers 202 with a `wordpress.search_replace` operation: every text column of the site's tables (or `tables`), PHP-serialized values kept valid, counted per table in the result and the log. A dry run (the default) changes nothing; a real one ends with `purge_cache`.

        **Permission:** `wordpress:search_replace`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['wordpress.searchReplace'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


__all__ = ['WordpressApi', 'AsyncWordpressApi']
