"""The `events` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...binary import AsyncDownload
from ...binary import Download
from ..operations import OPERATIONS

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class EventsApi:
    """`client.events`: stream."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def stream(self, *, last_event_id: int | None = None) -> Download:
        """Follow every operation of the caller's team as Server-Sent Events

        `GET /v1/events` (events.stream)

        A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one event per change, as `id: <event id>`, `event: operation | step | log | end` and `data: <JSON>` lines (schema `OperationEvent`), and a `: keepalive` comment every 15 s. Events are kept 24 hours. Every event of the team's operations (platform operations are not included); the stream never ends by itself. Without a resume point it starts now: only events written after the connection are sent. Resuming: a browser sends the header `Last-Event-ID` when it reconnects; a first connection may pass `?last_event_id=` instead (EventSource cannot set headers). The events after that id are sent, none lost or repeated, from whichever API process answers. A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes) and then ends without an `end` event: the client reconnects and resumes, and its credentials are checked again (a revoked session or a removed member is refused then).

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            last_event_id: Resume after this event id, as the Last-Event-ID header does (the header wins when both are sent)
        """
        return self._client._call(OPERATIONS['events.stream'], {'last_event_id': last_event_id})


class AsyncEventsApi:
    """`client.events`: stream."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def stream(self, *, last_event_id: int | None = None) -> AsyncDownload:
        """Follow every operation of the caller's team as Server-Sent Events

        `GET /v1/events` (events.stream)

        A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one event per change, as `id: <event id>`, `event: operation | step | log | end` and `data: <JSON>` lines (schema `OperationEvent`), and a `: keepalive` comment every 15 s. Events are kept 24 hours. Every event of the team's operations (platform operations are not included); the stream never ends by itself. Without a resume point it starts now: only events written after the connection are sent. Resuming: a browser sends the header `Last-Event-ID` when it reconnects; a first connection may pass `?last_event_id=` instead (EventSource cannot set headers). The events after that id are sent, none lost or repeated, from whichever API process answers. A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes) and then ends without an `end` event: the client reconnects and resumes, and its credentials are checked again (a revoked session or a removed member is refused then).

        **Permission:** `operations:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            last_event_id: Resume after this event id, as the Last-Event-ID header does (the header wins when both are sent)
        """
        return await self._client._call(OPERATIONS['events.stream'], {'last_event_id': last_event_id})


__all__ = ['EventsApi', 'AsyncEventsApi']
