"""The `backups` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...binary import AsyncDownload
from ...binary import Download
from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Backup, BackupsCreateBody, BackupsCreateResult, BackupsDeleteResult, BackupsRestoreBody, BackupsRestoreResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class BackupsApi:
    """`client.backups`: create, delete, download, get, list, restore."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: BackupsCreateBody, idempotency_key: str | None = None) -> BackupsCreateResult:
        """Back the environment up now

        `POST /v1/sites/{id}/environments/{env}/backups` (backups.create)

        Answers 202 with the backup (`pending`) and its `backup.create` operation: the database dumped in one transaction and the files read into one restic snapshot on the node, then the plan's retention applied (`backups_manual_keep` manual backups are kept).

        **Permission:** `backups:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['backups.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str, idempotency_key: str | None = None) -> BackupsDeleteResult | None:
        """Delete a backup

        `DELETE /v1/sites/{id}/environments/{env}/backups/{backup}` (backups.delete)

        A backup with a snapshot answers 202 with a `backup.delete` operation, which forgets the snapshot, prunes the node's repository and then removes the backup; a failed or expired one (no snapshot) is removed at once (204).

        **Permission:** `backups:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return self._client._call(OPERATIONS['backups.delete'], {'id': id, 'env': env, 'backup': backup}, idempotency_key=idempotency_key)

    def download(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str) -> Download:
        """Download a backup as a .tar.zst

        `GET /v1/sites/{id}/environments/{env}/backups/{backup}/download` (backups.download)

        The node reads the snapshot and streams it through the control plane as it is read (never held whole anywhere); the answer starts once the node's first bytes arrive. Each call streams the backup anew.

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return self._client._call(OPERATIONS['backups.download'], {'id': id, 'env': env, 'backup': backup})

    def get(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str) -> Backup:
        """One backup

        `GET /v1/sites/{id}/environments/{env}/backups/{backup}` (backups.get)

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return self._client._call(OPERATIONS['backups.get'], {'id': id, 'env': env, 'backup': backup})

    def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[Backup]:
        """The environment's backups, newest first

        `GET /v1/sites/{id}/environments/{env}/backups` (backups.list)

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['backups.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})

    def restore(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str, body: BackupsRestoreBody, idempotency_key: str | None = None) -> BackupsRestoreResult:
        """Restore a backup onto this or another environment of the site, or into a new site

        `POST /v1/sites/{id}/environments/{env}/backups/{backup}/restore` (backups.restore)

        Answers 202 with a `backup.restore` operation. The target is backed up first (`safety_backup`, kind `pre_restore`); the backup is restored beside the site (a new directory and a new database) and checked, and only then swapped in: the site's container stops for the swap (seconds) and starts on the restored files and tables. A failure before the swap leaves the site untouched; the replaced files are kept until the restore has verified the site. Restoring another environment's backup rewrites its address to the target's (serialized data kept valid).

        With `new_site`, a new site is made from the backup instead (a `site.restore` operation; `site` in the answer, `safety_backup` null): its production environment on the backup's node, with the PHP version and table prefix of the environment backed up, its address rewritten to the new site's. The plan is checked as for any new site (402), and the caller needs `sites:create` too. The site backed up is not touched.

        **Permission:** `backups:restore`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return self._client._call(OPERATIONS['backups.restore'], {'id': id, 'env': env, 'backup': backup}, body=body, idempotency_key=idempotency_key)


class AsyncBackupsApi:
    """`client.backups`: create, delete, download, get, list, restore."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: BackupsCreateBody, idempotency_key: str | None = None) -> BackupsCreateResult:
        """Back the environment up now

        `POST /v1/sites/{id}/environments/{env}/backups` (backups.create)

        Answers 202 with the backup (`pending`) and its `backup.create` operation: the database dumped in one transaction and the files read into one restic snapshot on the node, then the plan's retention applied (`backups_manual_keep` manual backups are kept).

        **Permission:** `backups:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['backups.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str, idempotency_key: str | None = None) -> BackupsDeleteResult | None:
        """Delete a backup

        `DELETE /v1/sites/{id}/environments/{env}/backups/{backup}` (backups.delete)

        A backup with a snapshot answers 202 with a `backup.delete` operation, which forgets the snapshot, prunes the node's repository and then removes the backup; a failed or expired one (no snapshot) is removed at once (204).

        **Permission:** `backups:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return await self._client._call(OPERATIONS['backups.delete'], {'id': id, 'env': env, 'backup': backup}, idempotency_key=idempotency_key)

    async def download(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str) -> AsyncDownload:
        """Download a backup as a .tar.zst

        `GET /v1/sites/{id}/environments/{env}/backups/{backup}/download` (backups.download)

        The node reads the snapshot and streams it through the control plane as it is read (never held whole anywhere); the answer starts once the node's first bytes arrive. Each call streams the backup anew.

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return await self._client._call(OPERATIONS['backups.download'], {'id': id, 'env': env, 'backup': backup})

    async def get(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str) -> Backup:
        """One backup

        `GET /v1/sites/{id}/environments/{env}/backups/{backup}` (backups.get)

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return await self._client._call(OPERATIONS['backups.get'], {'id': id, 'env': env, 'backup': backup})

    async def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[Backup]:
        """The environment's backups, newest first

        `GET /v1/sites/{id}/environments/{env}/backups` (backups.list)

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['backups.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})

    async def restore(self, *, id: int, env: Literal['production', 'staging', 'development'], backup: str, body: BackupsRestoreBody, idempotency_key: str | None = None) -> BackupsRestoreResult:
        """Restore a backup onto this or another environment of the site, or into a new site

        `POST /v1/sites/{id}/environments/{env}/backups/{backup}/restore` (backups.restore)

        Answers 202 with a `backup.restore` operation. The target is backed up first (`safety_backup`, kind `pre_restore`); the backup is restored beside the site (a new directory and a new database) and checked, and only then swapped in: the site's container stops for the swap (seconds) and starts on the restored files and tables. A failure before the swap leaves the site untouched; the replaced files are kept until the restore has verified the site. Restoring another environment's backup rewrites its address to the target's (serialized data kept valid).

        With `new_site`, a new site is made from the backup instead (a `site.restore` operation; `site` in the answer, `safety_backup` null): its production environment on the backup's node, with the PHP version and table prefix of the environment backed up, its address rewritten to the new site's. The plan is checked as for any new site (402), and the caller needs `sites:create` too. The site backed up is not touched.

        **Permission:** `backups:restore`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            backup: The backup's id (a UUID)
        """
        return await self._client._call(OPERATIONS['backups.restore'], {'id': id, 'env': env, 'backup': backup}, body=body, idempotency_key=idempotency_key)


__all__ = ['BackupsApi', 'AsyncBackupsApi']
