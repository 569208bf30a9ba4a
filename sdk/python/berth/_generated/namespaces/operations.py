"""The `operations` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...binary import AsyncDownload
from ...binary import Download
from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Operation, OperationDetail

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class OperationsApi:
    """`client.operations`: cancel, events, get, list."""

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

    def events(self, *, id: str, last_event_id: int | None = None) -> Download:
        """Follow one operation's progress, steps and log lines as Server-Sent Events

        `GET /v1/operations/{id}/events` (operations.events)

        A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one event per change, as `id: <event id>`, `event: operation | step | log | end` and `data: <JSON>` lines (schema `OperationEvent`), and a `: keepalive` comment every 15 s. Events are kept 24 hours. Without a resume point, every kept event of the operation is sent from its start. Once the operation has ended and its last event was sent, an `end` event follows and the server closes the stream. Resuming: a browser sends the header `Last-Event-ID` when it reconnects; a first connection may pass `?last_event_id=` instead (EventSource cannot set headers). The events after that id are sent, none lost or repeated, from whichever API process answers. A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes) and then ends without an `end` event: the client reconnects and resumes, and its credentials are checked again (a revoked session or a removed member is refused then).

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The operation's id (a UUID)
            last_event_id: Resume after this event id, as the Last-Event-ID header does (the header wins when both are sent)
        """
        return self._client._call(OPERATIONS['operations.events'], {'id': id, 'last_event_id': last_event_id})

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
    """`client.operations`: cancel, events, get, list."""

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

    async def events(self, *, id: str, last_event_id: int | None = None) -> AsyncDownload:
        """Follow one operation's progress, steps and log lines as Server-Sent Events

        `GET /v1/operations/{id}/events` (operations.events)

        A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one event per change, as `id: <event id>`, `event: operation | step | log | end` and `data: <JSON>` lines (schema `OperationEvent`), and a `: keepalive` comment every 15 s. Events are kept 24 hours. Without a resume point, every kept event of the operation is sent from its start. Once the operation has ended and its last event was sent, an `end` event follows and the server closes the stream. Resuming: a browser sends the header `Last-Event-ID` when it reconnects; a first connection may pass `?last_event_id=` instead (EventSource cannot set headers). The events after that id are sent, none lost or repeated, from whichever API process answers. A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes) and then ends without an `end` event: the client reconnects and resumes, and its credentials are checked again (a revoked session or a removed member is refused then).

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The operation's id (a UUID)
            last_event_id: Resume after this event id, as the Last-Event-ID header does (the header wins when both are sent)
        """
        return await self._client._call(OPERATIONS['operations.events'], {'id': id, 'last_event_id': last_event_id})

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
