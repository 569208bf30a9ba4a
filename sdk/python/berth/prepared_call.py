"""One logical API call turned into an HTTP request, built once and sent again as is on a retry
(same Idempotency-Key, same body)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import quote

import httpx

from .operation_spec import OperationSpec
from .retry import RetryPolicy

JSON_MEDIA = "application/json"
CSRF_HEADER = "X-CSRF-Token"
CSRF_COOKIE = "svc_csrf"  # the cookie surface's double-submit token


@dataclass
class PreparedCall:
    spec: OperationSpec
    request: httpx.Request
    retryable: bool


def prepare_call(
    http: httpx.Client | httpx.AsyncClient,
    spec: OperationSpec,
    arguments: Mapping[str, Any],
    *,
    body: Any = None,
    content_type: str | None = None,
    idempotency_key: str | None = None,
    retry: RetryPolicy,
) -> PreparedCall:
    path = spec.path
    query: dict[str, Any] = {}
    headers: dict[str, str] = {}
    for parameter in spec.parameters:
        value = arguments.get(parameter.name)
        if value is None:
            if parameter.location == "path":
                raise ValueError(f"{spec.operation_id}: `{parameter.python_name}` is required")
            continue
        if parameter.location == "path":
            path = path.replace("{" + parameter.name + "}", quote(str(value), safe=""))
        elif parameter.location == "query":
            query[parameter.name] = _query_value(value)
        else:
            headers[parameter.name] = str(value)
    if any(p.name == CSRF_HEADER for p in spec.parameters) and CSRF_HEADER not in headers:
        csrf = http.cookies.get(CSRF_COOKIE)
        if csrf:
            headers[CSRF_HEADER] = csrf
    if spec.idempotent:
        # One key per logical call, generated here so that every retry below reuses it.
        headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
    replayable = True
    content: Any = None
    json_body: Any = None
    if body is not None:
        if not spec.body_media_types:
            raise ValueError(f"{spec.operation_id} takes no body")
        media = content_type or spec.body_media_types[0]
        if media == JSON_MEDIA:
            json_body = body
        else:
            headers["Content-Type"] = media
            content = bytes(body) if isinstance(body, bytearray) else body
            replayable = isinstance(content, bytes)
    elif spec.body_required:
        raise ValueError(f"{spec.operation_id}: `body` is required")
    request = http.build_request(spec.http_method, path, params=query, headers=headers, json=json_body, content=content)
    retryable = replayable and retry.may_retry(spec.http_method, "Idempotency-Key" in headers)
    return PreparedCall(spec, request, retryable)


def _query_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
