"""A 2xx answer turned into what a method returns, as `OperationSpec.answers` says."""

from __future__ import annotations

import json
from typing import Any

from .operation_spec import OperationSpec
from .pagination import Page


def is_success(status: int) -> bool:
    return 200 <= status < 300


def decode_answer(spec: OperationSpec, status: int, content: bytes) -> Any:
    kind = spec.answer_for(status)
    if kind == "empty" or not content:
        return None
    body = json.loads(content)
    if kind == "data":
        return body["data"] if isinstance(body, dict) and "data" in body else body
    if kind == "page":
        return Page(data=list(body.get("data") or []), pagination=dict(body.get("pagination") or {}), meta=dict(body.get("meta") or {}))
    return body
