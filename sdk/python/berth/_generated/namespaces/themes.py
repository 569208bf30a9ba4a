"""The `themes` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Theme, ThemesActivateResult, ThemesDeleteResult, ThemesInstallBody, ThemesInstallResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class ThemesApi:
    """`client.themes`: activate, delete, install, list."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def activate(self, *, id: int, env: Literal['production', 'staging', 'development'], theme: str, idempotency_key: str | None = None) -> ThemesActivateResult:
        """Activate a theme

        `POST /v1/sites/{id}/environments/{env}/themes/{theme}/activate` (themes.activate)

        Answers 202 with a `wordpress.theme_activate` operation carried out by WordPress's own functions in the environment's container.

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            theme: The theme's `theme` (its stylesheet)
        """
        return self._client._call(OPERATIONS['themes.activate'], {'id': id, 'env': env, 'theme': theme}, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], theme: str, idempotency_key: str | None = None) -> ThemesDeleteResult:
        """Delete a theme

        `DELETE /v1/sites/{id}/environments/{env}/themes/{theme}` (themes.delete)

        Answers 202 with a `wordpress.theme_delete` operation carried out by WordPress's own functions in the environment's container. A theme that is gone already is no failure.

        **Permission:** `wordpress:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            theme: The theme's `theme` (its stylesheet)
        """
        return self._client._call(OPERATIONS['themes.delete'], {'id': id, 'env': env, 'theme': theme}, idempotency_key=idempotency_key)

    def install(self, *, id: int, env: Literal['production', 'staging', 'development'], body: ThemesInstallBody, idempotency_key: str | None = None) -> ThemesInstallResult:
        """Install a theme from an uploaded zip

        `POST /v1/sites/{id}/environments/{env}/themes` (themes.install)

        Answers 202 with a `wordpress.theme_install` operation: the node fetches the upload (checked against its SHA-256), WordPress's own upgrader installs it (a zip without a theme fails the operation), optionally activates it.

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['themes.install'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[Theme]:
        """The environment's themes (last inventory)

        `GET /v1/sites/{id}/environments/{env}/themes` (themes.list)

        As a worker last read them (after each operation on the environment); empty before the first. POST .../wordpress/refresh reads them again.

        **Permission:** `wordpress:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['themes.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})


class AsyncThemesApi:
    """`client.themes`: activate, delete, install, list."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def activate(self, *, id: int, env: Literal['production', 'staging', 'development'], theme: str, idempotency_key: str | None = None) -> ThemesActivateResult:
        """Activate a theme

        `POST /v1/sites/{id}/environments/{env}/themes/{theme}/activate` (themes.activate)

        Answers 202 with a `wordpress.theme_activate` operation carried out by WordPress's own functions in the environment's container.

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            theme: The theme's `theme` (its stylesheet)
        """
        return await self._client._call(OPERATIONS['themes.activate'], {'id': id, 'env': env, 'theme': theme}, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], theme: str, idempotency_key: str | None = None) -> ThemesDeleteResult:
        """Delete a theme

        `DELETE /v1/sites/{id}/environments/{env}/themes/{theme}` (themes.delete)

        Answers 202 with a `wordpress.theme_delete` operation carried out by WordPress's own functions in the environment's container. A theme that is gone already is no failure.

        **Permission:** `wordpress:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            theme: The theme's `theme` (its stylesheet)
        """
        return await self._client._call(OPERATIONS['themes.delete'], {'id': id, 'env': env, 'theme': theme}, idempotency_key=idempotency_key)

    async def install(self, *, id: int, env: Literal['production', 'staging', 'development'], body: ThemesInstallBody, idempotency_key: str | None = None) -> ThemesInstallResult:
        """Install a theme from an uploaded zip

        `POST /v1/sites/{id}/environments/{env}/themes` (themes.install)

        Answers 202 with a `wordpress.theme_install` operation: the node fetches the upload (checked against its SHA-256), WordPress's own upgrader installs it (a zip without a theme fails the operation), optionally activates it.

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['themes.install'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[Theme]:
        """The environment's themes (last inventory)

        `GET /v1/sites/{id}/environments/{env}/themes` (themes.list)

        As a worker last read them (after each operation on the environment); empty before the first. POST .../wordpress/refresh reads them again.

        **Permission:** `wordpress:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['themes.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})


__all__ = ['ThemesApi', 'AsyncThemesApi']
