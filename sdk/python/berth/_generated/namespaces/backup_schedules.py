"""The `backup_schedules` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import BackupSchedule, BackupSchedulesCreateBody, BackupSchedulesUpdateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class BackupSchedulesApi:
    """`client.backup_schedules`: create, delete, get, list, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: BackupSchedulesCreateBody, idempotency_key: str | None = None) -> BackupSchedule:
        """Back the environment up on a schedule

        `POST /v1/sites/{id}/environments/{env}/backup-schedules` (backupSchedules.create)

        An environment has at most 5 schedules. Each slot of a schedule makes one `scheduled` backup (a `backup.create` operation), however many workers run; after downtime, the slots missed are not run one by one: the most recent runs once. An environment that is not active at a slot (being made, changed or deleted) skips it. Its first slot is the next one after now.

        **Permission:** `backups:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['backupSchedules.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], schedule: int, idempotency_key: str | None = None) -> BackupSchedule:
        """Delete a backup schedule

        `DELETE /v1/sites/{id}/environments/{env}/backup-schedules/{schedule}` (backupSchedules.delete)

        The backups it made stay (their `schedule_id` becomes null) and follow the plan's retention.

        **Permission:** `backups:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            schedule: The backup schedule's id
        """
        return self._client._call(OPERATIONS['backupSchedules.delete'], {'id': id, 'env': env, 'schedule': schedule}, idempotency_key=idempotency_key)

    def get(self, *, id: int, env: Literal['production', 'staging', 'development'], schedule: int) -> BackupSchedule:
        """One backup schedule

        `GET /v1/sites/{id}/environments/{env}/backup-schedules/{schedule}` (backupSchedules.get)

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            schedule: The backup schedule's id
        """
        return self._client._call(OPERATIONS['backupSchedules.get'], {'id': id, 'env': env, 'schedule': schedule})

    def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[BackupSchedule]:
        """The environment's backup schedules

        `GET /v1/sites/{id}/environments/{env}/backup-schedules` (backupSchedules.list)

        An environment has at most 5 schedules. Each slot of a schedule makes one `scheduled` backup (a `backup.create` operation), however many workers run; after downtime, the slots missed are not run one by one: the most recent runs once. An environment that is not active at a slot (being made, changed or deleted) skips it.

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['backupSchedules.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})

    def update(self, *, id: int, env: Literal['production', 'staging', 'development'], schedule: int, body: BackupSchedulesUpdateBody, idempotency_key: str | None = None) -> BackupSchedule:
        """Change or pause a backup schedule

        `PATCH /v1/sites/{id}/environments/{env}/backup-schedules/{schedule}` (backupSchedules.update)

        A new `cron` or `timezone`, or enabling it again, moves `next_run_at` to the next slot after now; disabling keeps the row.

        **Permission:** `backups:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            schedule: The backup schedule's id
        """
        return self._client._call(OPERATIONS['backupSchedules.update'], {'id': id, 'env': env, 'schedule': schedule}, body=body, idempotency_key=idempotency_key)


class AsyncBackupSchedulesApi:
    """`client.backup_schedules`: create, delete, get, list, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: BackupSchedulesCreateBody, idempotency_key: str | None = None) -> BackupSchedule:
        """Back the environment up on a schedule

        `POST /v1/sites/{id}/environments/{env}/backup-schedules` (backupSchedules.create)

        An environment has at most 5 schedules. Each slot of a schedule makes one `scheduled` backup (a `backup.create` operation), however many workers run; after downtime, the slots missed are not run one by one: the most recent runs once. An environment that is not active at a slot (being made, changed or deleted) skips it. Its first slot is the next one after now.

        **Permission:** `backups:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['backupSchedules.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], schedule: int, idempotency_key: str | None = None) -> BackupSchedule:
        """Delete a backup schedule

        `DELETE /v1/sites/{id}/environments/{env}/backup-schedules/{schedule}` (backupSchedules.delete)

        The backups it made stay (their `schedule_id` becomes null) and follow the plan's retention.

        **Permission:** `backups:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            schedule: The backup schedule's id
        """
        return await self._client._call(OPERATIONS['backupSchedules.delete'], {'id': id, 'env': env, 'schedule': schedule}, idempotency_key=idempotency_key)

    async def get(self, *, id: int, env: Literal['production', 'staging', 'development'], schedule: int) -> BackupSchedule:
        """One backup schedule

        `GET /v1/sites/{id}/environments/{env}/backup-schedules/{schedule}` (backupSchedules.get)

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            schedule: The backup schedule's id
        """
        return await self._client._call(OPERATIONS['backupSchedules.get'], {'id': id, 'env': env, 'schedule': schedule})

    async def list(self, *, id: int, env: Literal['production', 'staging', 'development'], page: int | None = None, page_size: int | None = None) -> Page[BackupSchedule]:
        """The environment's backup schedules

        `GET /v1/sites/{id}/environments/{env}/backup-schedules` (backupSchedules.list)

        An environment has at most 5 schedules. Each slot of a schedule makes one `scheduled` backup (a `backup.create` operation), however many workers run; after downtime, the slots missed are not run one by one: the most recent runs once. An environment that is not active at a slot (being made, changed or deleted) skips it.

        **Permission:** `backups:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['backupSchedules.list'], {'id': id, 'env': env, 'page': page, 'page_size': page_size})

    async def update(self, *, id: int, env: Literal['production', 'staging', 'development'], schedule: int, body: BackupSchedulesUpdateBody, idempotency_key: str | None = None) -> BackupSchedule:
        """Change or pause a backup schedule

        `PATCH /v1/sites/{id}/environments/{env}/backup-schedules/{schedule}` (backupSchedules.update)

        A new `cron` or `timezone`, or enabling it again, moves `next_run_at` to the next slot after now; disabling keeps the row.

        **Permission:** `backups:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            schedule: The backup schedule's id
        """
        return await self._client._call(OPERATIONS['backupSchedules.update'], {'id': id, 'env': env, 'schedule': schedule}, body=body, idempotency_key=idempotency_key)


__all__ = ['BackupSchedulesApi', 'AsyncBackupSchedulesApi']
