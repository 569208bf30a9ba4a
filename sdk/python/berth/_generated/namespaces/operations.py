"""The `operations` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Operation, OperationDetail

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class OperationsApi:
    """`client.operations`: cancel, get, list."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def cancel(self, *, id: str, idempotency_key: str | None = None) -> Operation:
        """Cancel an operation

        `POST /v1/operations/{id}/cancel` (operations.cancel)

        A queued operation is cancelled at once. A running one stops before its next step when the step it is in is `cancellable` (the answer shows `cancel_requested_at`; the status turns `cancelled` when it stops); otherwise, and for a finished operation, 409 CONFLICT. Work a step already did is not undone.

        **Permission:** `operations:cancel`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The operation's id (a UUID)
        """
        return self._client._call(OPERATIONS['operations.cancel'], {'id': id}, idempotency_key=idempotency_key)

    def get(self, *, id: str) -> OperationDetail:
        """One operation: status, progress, steps, the last log lines and, on failure, what failed

        `GET /v1/operations/{id}` (operations.get)

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The operation's id (a UUID)
        """
        return self._client._call(OPERATIONS['operations.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None, status: Literal['queued', 'running', 'succeeded', 'failed', 'cancelled'] | None = None, kind: str | None = None, target_type: str | None = None, target_id: str | None = None) -> Page[Operation]:
        """List the team's operations, newest first

        `GET /v1/operations` (operations.list)

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['operations.list'], {'page': page, 'page_size': page_size, 'status': status, 'kind': kind, 'target_type': target_type, 'target_id': target_id})


class AsyncOperationsApi:
    """`client.operations`: cancel, get, list."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def cancel(self, *, id: str, idempotency_key: str | None = None) -> Operation:
        """Cancel an operation

        `POST /v1/operations/{id}/cancel` (operations.cancel)

        A queued operation is cancelled at once. A running one stops before its next step when the step it is in is `cancellable` (the answer shows `cancel_requested_at`; the status turns `cancelled` when it stops); otherwise, and for a finished operation, 409 CONFLICT. Work a step already did is not undone.

        **Permission:** `operations:cancel`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The operation's id (a UUID)
        """
        return await self._client._call(OPERATIONS['operations.cancel'], {'id': id}, idempotency_key=idempotency_key)

    async def get(self, *, id: str) -> OperationDetail:
        """One operation: status, progress, steps, the last log lines and, on failure, what failed

        `GET /v1/operations/{id}` (operations.get)

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The operation's id (a UUID)
        """
        return await self._client._call(OPERATIONS['operations.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None, status: Literal['queued', 'running', 'succeeded', 'failed', 'cancelled'] | None = None, kind: str | None = None, target_type: str | None = None, target_id: str | None = None) -> Page[Operation]:
        """List the team's operations, newest first

        `GET /v1/operations` (operations.list)

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['operations.list'], {'page': page, 'page_size': page_size, 'status': status, 'kind': kind, 'target_type': target_type, 'target_id': target_id})


__all__ = ['OperationsApi', 'AsyncOperationsApi']
