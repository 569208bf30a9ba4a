"""The `uploads` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...binary import BinaryContent
from ..operations import OPERATIONS
from ..models import Upload

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class UploadsApi:
    """`client.uploads`: create, get."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, filename: str, body: BinaryContent, content_type: Literal['application/zip', 'application/octet-stream'] = 'application/zip', idempotency_key: str | None = None) -> Upload:
        """Upload a plugin or theme package (zip)

        `POST /v1/uploads` (uploads.create)

        The body is the zip file itself (`Content-Type: application/zip`, or `application/octet-stream`), at most 67108864 bytes (`UPLOAD_MAX_BYTES`), and the file name is `?filename=`. Answers 201 with its id and SHA-256; it is kept 24 hours, for an operation to install it. A team holds at most 50 live uploads totalling 536870912 bytes (`UPLOAD_QUOTA_COUNT`, `UPLOAD_QUOTA_BYTES`). The permission is checked before any of the body is read; the body is streamed into storage, and refused (with nothing stored) as soon as it crosses a limit. With an `Idempotency-Key`, a repeat with the same bytes and file name gets the first answer.

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            filename: The package's file name, as the customer knows it (`my-plugin.zip`): 1 to 200 characters, no slashes or control characters
        """
        return self._client._call(OPERATIONS['uploads.create'], {'filename': filename}, body=body, content_type=content_type, idempotency_key=idempotency_key)

    def get(self, *, id: str) -> Upload:
        """One upload's metadata (not its bytes)

        `GET /v1/uploads/{id}` (uploads.get)

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The upload's id (a UUID)
        """
        return self._client._call(OPERATIONS['uploads.get'], {'id': id})


class AsyncUploadsApi:
    """`client.uploads`: create, get."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, filename: str, body: BinaryContent, content_type: Literal['application/zip', 'application/octet-stream'] = 'application/zip', idempotency_key: str | None = None) -> Upload:
        """Upload a plugin or theme package (zip)

        `POST /v1/uploads` (uploads.create)

        The body is the zip file itself (`Content-Type: application/zip`, or `application/octet-stream`), at most 67108864 bytes (`UPLOAD_MAX_BYTES`), and the file name is `?filename=`. Answers 201 with its id and SHA-256; it is kept 24 hours, for an operation to install it. A team holds at most 50 live uploads totalling 536870912 bytes (`UPLOAD_QUOTA_COUNT`, `UPLOAD_QUOTA_BYTES`). The permission is checked before any of the body is read; the body is streamed into storage, and refused (with nothing stored) as soon as it crosses a limit. With an `Idempotency-Key`, a repeat with the same bytes and file name gets the first answer.

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            filename: The package's file name, as the customer knows it (`my-plugin.zip`): 1 to 200 characters, no slashes or control characters
        """
        return await self._client._call(OPERATIONS['uploads.create'], {'filename': filename}, body=body, content_type=content_type, idempotency_key=idempotency_key)

    async def get(self, *, id: str) -> Upload:
        """One upload's metadata (not its bytes)

        `GET /v1/uploads/{id}` (uploads.get)

        **Permission:** `wordpress:install`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The upload's id (a UUID)
        """
        return await self._client._call(OPERATIONS['uploads.get'], {'id': id})


__all__ = ['UploadsApi', 'AsyncUploadsApi']
