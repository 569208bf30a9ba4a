"""The asyncio client: `berth.AsyncClient`, the same surface as Client with `await`."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping, TypeVar

import httpx

from ._generated.namespaces import AsyncNamespaces
from .answers import decode_answer, is_success
from .binary import AsyncDownload
from .errors import BerthConnectionError, OperationTimeoutError, error_from_answer
from .operation_spec import OperationSpec
from .pagination import MAX_PAGE_SIZE, Page, apaginate
from .prepared_call import prepare_call
from .retry import RETRIED_STATUSES, parse_retry_after
from .settings import DEFAULT_TIMEOUT, ClientSettings
from .waiting import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT, ProgressCallback, ProgressTracker, final_or_none, operation_id_of

Item = TypeVar("Item")


class AsyncClient(AsyncNamespaces):
    """`async with berth.AsyncClient() as client: site = await client.sites.get(id=1)`."""

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        max_retries: int = 3,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._settings = ClientSettings.resolve(base_url, token, max_retries, timeout)
        self._retry = self._settings.retry
        self._http = httpx.AsyncClient(base_url=self._settings.base_url, headers=self._settings.headers(), timeout=timeout, transport=transport)
        self.device_fingerprint: str | None = None
        self._attach_namespaces()

    @classmethod
    async def sign_in(
        cls,
        base_url: str | None,
        email: str,
        password: str,
        team_id: int | None = None,
        device_fingerprint: str | None = None,
        totp: str | None = None,
        on_device_approval: Callable[[], str | Awaitable[str]] | None = None,
        **client_options: Any,
    ) -> AsyncClient:
        """As Client.sign_in; `on_device_approval` may be a coroutine function."""
        from .sign_in import async_sign_in

        return await async_sign_in(cls, base_url, email, password, team_id, device_fingerprint, totp, on_device_approval, client_options)

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    @property
    def cookies(self) -> httpx.Cookies:
        return self._http.cookies

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def paginate(self, list_method: Callable[..., Awaitable[Page[Item]]], page_size: int = MAX_PAGE_SIZE, **arguments: Any) -> AsyncIterator[Item]:
        """`async for site in client.paginate(client.sites.list): ...`"""
        return apaginate(list_method, page_size, **arguments)

    async def wait_for_operation(
        self,
        operation: str | Mapping[str, Any],
        on_progress: ProgressCallback | None = None,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
    ) -> dict[str, Any]:
        """As Client.wait_for_operation; `on_progress` is a plain function."""
        operation_id = operation_id_of(operation)
        tracker = ProgressTracker()
        deadline = time.monotonic() + timeout
        while True:
            current = await self.operations.get(id=operation_id)
            if on_progress and tracker.moved(current):
                on_progress(current)
            if final_or_none(current):
                return current
            if time.monotonic() + poll_interval > deadline:
                raise OperationTimeoutError(current, timeout)
            await asyncio.sleep(poll_interval)

    async def _call(
        self,
        spec: OperationSpec,
        arguments: Mapping[str, Any],
        *,
        body: Any = None,
        content_type: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        call = prepare_call(self._http, spec, arguments, body=body, content_type=content_type, idempotency_key=idempotency_key, retry=self._retry)
        response = await self._send_with_retries(call.request, call.retryable)
        if not is_success(response.status_code):
            await response.aread()
            await response.aclose()
            raise error_from_answer(response.status_code, response.headers, response.content)
        if spec.answer_for(response.status_code) == "binary":
            return AsyncDownload(response)
        try:
            content = await response.aread()
        finally:
            await response.aclose()
        return decode_answer(spec, response.status_code, content)

    async def _send_with_retries(self, request: httpx.Request, retryable: bool) -> httpx.Response:
        retries_left = self._retry.max_retries if retryable else 0
        retry_number = 0
        while True:
            try:
                response = await self._http.send(request, stream=True)
            except httpx.TransportError as error:
                if retries_left <= 0:
                    raise BerthConnectionError(f"{request.method} {request.url}: {error!r}") from error
                await asyncio.sleep(self._retry.delay(retry_number, None))
            else:
                if response.status_code not in RETRIED_STATUSES or retries_left <= 0:
                    return response
                await response.aclose()
                await asyncio.sleep(self._retry.delay(retry_number, parse_retry_after(response.headers.get("retry-after"))))
            retries_left -= 1
            retry_number += 1
