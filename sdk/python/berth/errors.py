"""One error type for both error bodies of the API: /v1's `{error: {code, message, details}, meta}`
and the cookie surface's `{detail, code}`."""

from __future__ import annotations

import json
from typing import Any, Mapping

from .retry import parse_retry_after


class BerthError(Exception):
    """An error answer of the API (or, in the subclasses below, a failure on the way to one)."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        request_id: str | None = None,
        details: Mapping[str, Any] | None = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.details: dict[str, Any] = dict(details or {})
        self.body = body

    @property
    def reason(self) -> str | None:
        """`details.reason`: what tells apart the causes that share a code (`device_approval_required`, ...)."""
        reason = self.details.get("reason")
        return reason if isinstance(reason, str) else None

    def __str__(self) -> str:
        where = f" (request {self.request_id})" if self.request_id else ""
        status = f"{self.status} " if self.status else ""
        code = f"{self.code}: " if self.code else ""
        return f"{status}{code}{self.message}{where}"


class ValidationError(BerthError):
    """400/422: `.fields` lists each field that failed and why (`[{field, message}]`)."""

    @property
    def fields(self) -> list[dict[str, str]]:
        fields = self.details.get("fields")
        return list(fields) if isinstance(fields, list) else []


class AuthenticationError(BerthError):
    """401: missing, invalid or expired credentials (or a second factor still to give)."""


class PermissionDeniedError(BerthError):
    """403: signed in, but not allowed (or a new device to approve: `.reason`)."""


class NotFoundError(BerthError):
    """404."""


class ConflictError(BerthError):
    """409: the state forbids it, or an Idempotency-Key reused with another body."""


class RateLimitError(BerthError):
    """429 after the retries ran out: `.retry_after` seconds to wait, when the API said."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class BerthConnectionError(BerthError):
    """No answer: the connection failed or timed out (after the retries)."""


class OperationFailedError(BerthError):
    """`wait_for_operation` saw the operation end failed or cancelled."""

    reason: str = ""  # here the operation's failure message, not `details.reason`

    def __init__(self, operation: Mapping[str, Any]) -> None:
        error = operation.get("error") or {}
        failed_steps = [step.get("name") for step in operation.get("steps") or [] if step.get("status") == "failed"]
        self.operation = dict(operation)
        self.step: str | None = error.get("step") or (failed_steps[0] if failed_steps else None)
        self.reason: str = error.get("message") or str(operation.get("status"))
        at_step = f" at step {self.step}" if self.step else ""
        message = f"operation {operation.get('id')} ({operation.get('kind')}) {operation.get('status')}{at_step}: {self.reason}"
        super().__init__(message, code=str(operation.get("status")), details={"error": error})


class OperationTimeoutError(BerthError, TimeoutError):
    """`wait_for_operation` gave up before the operation ended; `.operation` is the last state seen."""

    def __init__(self, operation: Mapping[str, Any], timeout: float) -> None:
        self.operation = dict(operation)
        super().__init__(f"operation {operation.get('id')} still {operation.get('status')} after {timeout:g} s", code="timeout")


_BY_STATUS: dict[int, type[BerthError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def error_from_answer(status: int, headers: Mapping[str, str], content: bytes) -> BerthError:
    """The BerthError for a non-2xx answer, whichever of the two error bodies it carries."""
    body = _json_or_none(content)
    request_id = headers.get("x-request-id")
    details: dict[str, Any] = {}
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        error = body["error"]
        code, message = error.get("code"), error.get("message")
        details = error.get("details") if isinstance(error.get("details"), dict) else {}
        request_id = (body.get("meta") or {}).get("request_id") or request_id
    elif isinstance(body, dict) and "detail" in body:
        code, message = body.get("code"), body.get("detail")
        # Extra keys of a cookie-surface error (the address to verify, say) are its details.
        details = {key: value for key, value in body.items() if key not in ("detail", "code")}
    else:
        code, message = None, content.decode("utf-8", "replace")[:500] or f"HTTP {status}"
    if not isinstance(message, str):
        message = json.dumps(message)
    error_class = _BY_STATUS.get(status, BerthError)
    common = dict(status=status, code=code, request_id=request_id, details=details, body=body)
    if error_class is RateLimitError:
        retry_after = parse_retry_after(headers.get("retry-after"))
        if retry_after is None and isinstance(details.get("retry_after_seconds"), (int, float)):
            retry_after = float(details["retry_after_seconds"])
        return RateLimitError(message, retry_after=retry_after, **common)
    return error_class(message, **common)


def _json_or_none(content: bytes) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return None
