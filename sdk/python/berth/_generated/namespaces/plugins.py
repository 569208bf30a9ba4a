"""The `plugins` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Plugin, PluginsActivateResult, PluginsDeactivateResult, PluginsDeleteResult, PluginsInstallBody, PluginsInstallResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class PluginsApi:
    """`client.plugins`: activate, deactivate, delete, install, list."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def activate(self, *, id: int, env: Literal['production', 'staging', 'development'], plugin: str, idempotency_key: str | None = None) -> PluginsActivateResult:
        """Activate a plugin

        `POST /v1/sites/{id}/environments/{env}/plugins/{plugin}/activate` (plugins.activate)

        Answers 202 with a `wordpress.plugin_activate` operation carried out by WordPress's own functions in the environment's container.

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            plugin: The plugin's `slug`
        """
        return self._client._call(OPERATIONS['plugins.activate'], {'id': id, 'env': env, 'plugin': plugin}, idempotency_key=idempotency_key)

    def deactivate(self, *, id: int, env: Literal['production', 'staging', 'development'], plugin: str, idempotency_key: str | None = None) -> PluginsDeactivateResult:
        """Deactivate a plugin

        `POST /v1/sites/{id}/environments/{env}/plugins/{plugin}/deactivate` (plugins.deactivate)

        Answers 202 with a `wordpress.plugin_deactivate` operation carried out by WordPress's own functions in the environment's container.

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            plugin: The plugin's `slug`
        """
        return self._client._call(OPERATIONS['plugins.deactivate'], {'id': id, 'env': env, 'plugin': plugin}, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], plugin: str, idempotency_key: str | None = None) -> PluginsDeleteResult:
        """Delete a plugin

        `DELETE /v1/sites/{id}/environments/{env}/plugins/{plugin}` (plugins.delete)

        Answers 202 with a `wordpress.plugin_delete` operation carried out by WordPress's own functions in the environment's container. A plugin that is gone already is no failure.

        **Permission:** `wordpress:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            plugin: The plugin's `slug`
        """
        return self._client._call(OPERATIONS['plugins.delete'], {'id': id, 'env': env, 'plugin': plugin}, idempotency_key=idempotency_key)

    def install(self, *, id: int, env: Literal['production', 'staging', 'development'], body: PluginsInstallBody, idempotency_key: str | None = None) -> PluginsInstallResult:
        """Install a plugin from an uploaded zip

        `POST /v1/sites/{id}/environments/{env}/plugins` (plugins.install)

        Answers 202 with a `wordpress.plugin_install` operation: the node fetches the upload (checked against its SHA-256), WordPress's own upgrader installs it (a zip without a plugin fails the operation), optionally activates it.

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['plugins.install'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[Plugin]:
        """The environment's plugins (last inventory)

        `GET /v1/sites/{id}/environments/{env}/plugins` (plugins.list)

        As a worker last read them (after each operation on the environment); empty before the first. POST .../wordpress/refresh reads them again.

        **Permission:** `wordpress:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['plugins.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})


class AsyncPluginsApi:
    """`client.plugins`: activate, deactivate, delete, install, list."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def activate(self, *, id: int, env: Literal['production', 'staging', 'development'], plugin: str, idempotency_key: str | None = None) -> PluginsActivateResult:
        """Activate a plugin

        `POST /v1/sites/{id}/environments/{env}/plugins/{plugin}/activate` (plugins.activate)

        Answers 202 with a `wordpress.plugin_activate` operation carried out by WordPress's own functions in the environment's container.

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            plugin: The plugin's `slug`
        """
        return await self._client._call(OPERATIONS['plugins.activate'], {'id': id, 'env': env, 'plugin': plugin}, idempotency_key=idempotency_key)

    async def deactivate(self, *, id: int, env: Literal['production', 'staging', 'development'], plugin: str, idempotency_key: str | None = None) -> PluginsDeactivateResult:
        """Deactivate a plugin

        `POST /v1/sites/{id}/environments/{env}/plugins/{plugin}/deactivate` (plugins.deactivate)

        Answers 202 with a `wordpress.plugin_deactivate` operation carried out by WordPress's own functions in the environment's container.

        **Permission:** `wordpress:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            plugin: The plugin's `slug`
        """
        return await self._client._call(OPERATIONS['plugins.deactivate'], {'id': id, 'env': env, 'plugin': plugin}, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], plugin: str, idempotency_key: str | None = None) -> PluginsDeleteResult:
        """Delete a plugin

        `DELETE /v1/sites/{id}/environments/{env}/plugins/{plugin}` (plugins.delete)

        Answers 202 with a `wordpress.plugin_delete` operation carried out by WordPress's own functions in the environment's container. A plugin that is gone already is no failure.

        **Permission:** `wordpress:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            plugin: The plugin's `slug`
        """
        return await self._client._call(OPERATIONS['plugins.delete'], {'id': id, 'env': env, 'plugin': plugin}, idempotency_key=idempotency_key)

    async def install(self, *, id: int, env: Literal['production', 'staging', 'development'], body: PluginsInstallBody, idempotency_key: str | None = None) -> PluginsInstallResult:
        """Install a plugin from an uploaded zip

        `POST /v1/sites/{id}/environments/{env}/plugins` (plugins.install)

        Answers 202 with a `wordpress.plugin_install` operation: the node fetches the upload (checked against its SHA-256), WordPress's own upgrader installs it (a zip without a plugin fails the operation), optionally activates it.

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['plugins.install'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[Plugin]:
        """The environment's plugins (last inventory)

        `GET /v1/sites/{id}/environments/{env}/plugins` (plugins.list)

        As a worker last read them (after each operation on the environment); empty before the first. POST .../wordpress/refresh reads them again.

        **Permission:** `wordpress:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['plugins.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})


__all__ = ['PluginsApi', 'AsyncPluginsApi']
