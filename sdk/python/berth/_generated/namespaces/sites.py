"""The `sites` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import PhpVersions, Site, SitesCloneBody, SitesCloneResult, SitesCreateBody, SitesCreateResult, SitesDeleteResult, SitesUpdateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class SitesApi:
    """`client.sites`: clone, create, delete, get, list, list_php_versions, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def clone(self, *, id: int, body: SitesCloneBody, idempotency_key: str | None = None) -> SitesCloneResult:
        """Clone a site

        `POST /v1/sites/{id}/clone` (sites.clone)

        A new site from one of this site's environments (`source`, production unless told): its production environment is made on the same node from the source's files and database, with every mention of the source's address rewritten to the new one (PHP-serialized data kept valid). The plan is checked as for a new site (402). Answers 202 with the new site and its `site.clone` operation; the source keeps running and waits only for operations already running on it.

        **Permission:** `sites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return self._client._call(OPERATIONS['sites.clone'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def create(self, *, body: SitesCreateBody, idempotency_key: str | None = None) -> SitesCreateResult:
        """Create a WordPress site

        `POST /v1/sites` (sites.create)

        Checks the team's plan (402 PAYMENT_REQUIRED without a plan that allows another site, `details.limit` says which), places the production environment on an online node of the region with room (least loaded first; 409 when none has), and answers 202 with the site and its `site.create` operation (also at `Location`). The admin's password is never stored: WordPress e-mails a one-time link to set it to `wordpress.admin_email` once the site is installed.

        **Permission:** `sites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['sites.create'], {}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, idempotency_key: str | None = None) -> SitesDeleteResult:
        """Delete a site

        `DELETE /v1/sites/{id}` (sites.delete)

        Marks the site and its environments `deleting` and answers 202 with the `site.delete` operation (also at `Location`): it removes the edge route, the container, the database and its user, and the files from the node, then the site. It waits for an operation still running on the site (its creation). A deletion that fails leaves the site `failed`; delete it again.

        **Permission:** `sites:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return self._client._call(OPERATIONS['sites.delete'], {'id': id}, idempotency_key=idempotency_key)

    def get(self, *, id: int) -> Site:
        """One site with its environments

        `GET /v1/sites/{id}` (sites.get)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return self._client._call(OPERATIONS['sites.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[Site]:
        """List the team's sites, newest first

        `GET /v1/sites` (sites.list)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['sites.list'], {'page': page, 'page_size': page_size})

    def list_php_versions(self) -> PhpVersions:
        """The PHP versions sites can run

        `GET /v1/sites/php-versions` (sites.listPhpVersions)

        For `php_version` when creating a site or changing an environment's; the first is the default.

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['sites.listPhpVersions'], {})

    def update(self, *, id: int, body: SitesUpdateBody, idempotency_key: str | None = None) -> Site:
        """Rename a site

        `PATCH /v1/sites/{id}` (sites.update)

        Only the name changes: the slug is part of every environment's address.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return self._client._call(OPERATIONS['sites.update'], {'id': id}, body=body, idempotency_key=idempotency_key)


class AsyncSitesApi:
    """`client.sites`: clone, create, delete, get, list, list_php_versions, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def clone(self, *, id: int, body: SitesCloneBody, idempotency_key: str | None = None) -> SitesCloneResult:
        """Clone a site

        `POST /v1/sites/{id}/clone` (sites.clone)

        A new site from one of this site's environments (`source`, production unless told): its production environment is made on the same node from the source's files and database, with every mention of the source's address rewritten to the new one (PHP-serialized data kept valid). The plan is checked as for a new site (402). Answers 202 with the new site and its `site.clone` operation; the source keeps running and waits only for operations already running on it.

        **Permission:** `sites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return await self._client._call(OPERATIONS['sites.clone'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def create(self, *, body: SitesCreateBody, idempotency_key: str | None = None) -> SitesCreateResult:
        """Create a WordPress site

        `POST /v1/sites` (sites.create)

        Checks the team's plan (402 PAYMENT_REQUIRED without a plan that allows another site, `details.limit` says which), places the production environment on an online node of the region with room (least loaded first; 409 when none has), and answers 202 with the site and its `site.create` operation (also at `Location`). The admin's password is never stored: WordPress e-mails a one-time link to set it to `wordpress.admin_email` once the site is installed.

        **Permission:** `sites:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['sites.create'], {}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, idempotency_key: str | None = None) -> SitesDeleteResult:
        """Delete a site

        `DELETE /v1/sites/{id}` (sites.delete)

        Marks the site and its environments `deleting` and answers 202 with the `site.delete` operation (also at `Location`): it removes the edge route, the container, the database and its user, and the files from the node, then the site. It waits for an operation still running on the site (its creation). A deletion that fails leaves the site `failed`; delete it again.

        **Permission:** `sites:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return await self._client._call(OPERATIONS['sites.delete'], {'id': id}, idempotency_key=idempotency_key)

    async def get(self, *, id: int) -> Site:
        """One site with its environments

        `GET /v1/sites/{id}` (sites.get)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return await self._client._call(OPERATIONS['sites.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[Site]:
        """List the team's sites, newest first

        `GET /v1/sites` (sites.list)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['sites.list'], {'page': page, 'page_size': page_size})

    async def list_php_versions(self) -> PhpVersions:
        """The PHP versions sites can run

        `GET /v1/sites/php-versions` (sites.listPhpVersions)

        For `php_version` when creating a site or changing an environment's; the first is the default.

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['sites.listPhpVersions'], {})

    async def update(self, *, id: int, body: SitesUpdateBody, idempotency_key: str | None = None) -> Site:
        """Rename a site

        `PATCH /v1/sites/{id}` (sites.update)

        Only the name changes: the slug is part of every environment's address.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return await self._client._call(OPERATIONS['sites.update'], {'id': id}, body=body, idempotency_key=idempotency_key)


__all__ = ['SitesApi', 'AsyncSitesApi']
