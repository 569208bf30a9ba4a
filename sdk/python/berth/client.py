"""The synchronous client: `berth.Client`."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator, Mapping, TypeVar

import httpx

from ._generated.namespaces import Namespaces
from .answers import decode_answer, is_success
from .binary import Download
from .errors import BerthConnectionError, OperationTimeoutError, error_from_answer
from .operation_spec import OperationSpec
from .pagination import MAX_PAGE_SIZE, Page, paginate
from .prepared_call import prepare_call
from .retry import RETRIED_STATUSES, parse_retry_after
from .settings import DEFAULT_TIMEOUT, ClientSettings
from .waiting import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT, ProgressCallback, ProgressTracker, final_or_none, operation_id_of

Item = TypeVar("Item")


class Client(Namespaces):
    """A Berth API client. `client.<namespace>.<verb>(...)` for every operation of docs/openapi.json.

    base_url and token default to the BERTH_URL and BERTH_TOKEN environment variables. `transport`
    is an httpx transport (tests, proxies). Use it as a context manager, or call close().
    """

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        max_retries: int = 3,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._settings = ClientSettings.resolve(base_url, token, max_retries, timeout)
        self._retry = self._settings.retry
        self._http = httpx.Client(base_url=self._settings.base_url, headers=self._settings.headers(), timeout=timeout, transport=transport)
        #: Set by sign_in: the device fingerprint the API now trusts; pass it to the next sign_in.
        self.device_fingerprint: str | None = None
        self._attach_namespaces()

    @classmethod
    def sign_in(
        cls,
        base_url: str | None,
        email: str,
        password: str,
        team_id: int | None = None,
        device_fingerprint: str | None = None,
        totp: str | None = None,
        on_device_approval: Callable[[], str] | None = None,
        **client_options: Any,
    ) -> Client:
        """Sign in as a script (`POST /v1/auth/login`) and return a client holding the access token.

        A new device is approved on the way when `on_device_approval` is given: the API e-mails a
        code and the callback returns it. Keep `client.device_fingerprint` for the next sign-in.
        """
        from .sign_in import sign_in

        return sign_in(cls, base_url, email, password, team_id, device_fingerprint, totp, on_device_approval, client_options)

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    @property
    def cookies(self) -> httpx.Cookies:
        """The cookie jar: the cookie surface (`client.browser_auth`) keeps its session here."""
        return self._http.cookies

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def paginate(self, list_method: Callable[..., Page[Item]], page_size: int = MAX_PAGE_SIZE, **arguments: Any) -> Iterator[Item]:
        """`for site in client.paginate(client.sites.list): ...` walks every page."""
        return paginate(list_method, page_size, **arguments)

    def wait_for_operation(
        self,
        operation: str | Mapping[str, Any],
        on_progress: ProgressCallback | None = None,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
    ) -> dict[str, Any]:
        """Poll the operation until it ends and return it (OperationDetail); raise OperationFailedError
        when it failed or was cancelled, OperationTimeoutError after `timeout` seconds.
        `on_progress(operation)` is called whenever its status, progress or a step changes."""
        operation_id = operation_id_of(operation)
        tracker = ProgressTracker()
        deadline = time.monotonic() + timeout
        while True:
            current = self.operations.get(id=operation_id)
            if on_progress and tracker.moved(current):
                on_progress(current)
            if final_or_none(current):
                return current
            if time.monotonic() + poll_interval > deadline:
                raise OperationTimeoutError(current, timeout)
            time.sleep(poll_interval)

    def _call(
        self,
        spec: OperationSpec,
        arguments: Mapping[str, Any],
        *,
        body: Any = None,
        content_type: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        call = prepare_call(self._http, spec, arguments, body=body, content_type=content_type, idempotency_key=idempotency_key, retry=self._retry)
        response = self._send_with_retries(call.request, call.retryable)
        if not is_success(response.status_code):
            response.read()
            response.close()
            raise error_from_answer(response.status_code, response.headers, response.content)
        if spec.answer_for(response.status_code) == "binary":
            return Download(response)
        try:
            content = response.read()
        finally:
            response.close()
        return decode_answer(spec, response.status_code, content)

    def _send_with_retries(self, request: httpx.Request, retryable: bool) -> httpx.Response:
        retries_left = self._retry.max_retries if retryable else 0
        retry_number = 0
        while True:
            try:
                response = self._http.send(request, stream=True)
            except httpx.TransportError as error:
                if retries_left <= 0:
                    raise BerthConnectionError(f"{request.method} {request.url}: {error!r}") from error
                self._retry.sleep(self._retry.delay(retry_number, None))
            else:
                if response.status_code not in RETRIED_STATUSES or retries_left <= 0:
                    return response
                response.close()
                self._retry.sleep(self._retry.delay(retry_number, parse_retry_after(response.headers.get("retry-after"))))
            retries_left -= 1
            retry_number += 1
