"""What the SDK knows about one API operation: the row of `berth.OPERATIONS` the generator writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# How a 2xx answer becomes a return value: the `data` of `{data, meta}`, a Page of a list, the body
# as-is (the cookie surface), a streamed Download of a binary answer, or None for an empty one.
Answer = Literal["data", "page", "body", "binary", "empty"]


@dataclass(frozen=True)
class Parameter:
    name: str  # as on the wire: `{id}`, `?page_size=`, `Idempotency-Key`
    python_name: str  # the keyword argument
    location: Literal["path", "query", "header"]
    required: bool


@dataclass(frozen=True)
class OperationSpec:
    operation_id: str
    namespace: str  # client attribute, e.g. "browser_auth"
    method_name: str  # e.g. "list_php_versions"
    http_method: str  # upper case
    path: str  # with `{name}` placeholders
    parameters: tuple[Parameter, ...]
    # Whether the operation documents an `Idempotency-Key` header: the SDK then sends one on every call.
    idempotent: bool
    body_media_types: tuple[str, ...]  # empty when there is no request body
    body_required: bool
    answers: dict[str, Answer] = field(hash=False)  # 2xx status -> how its body is read
    summary: str = ""

    @property
    def cookie_surface(self) -> bool:
        """`/api/v1/auth/*` answers its own bodies and `{detail, code}` errors."""
        return self.path.startswith("/api/")

    def answer_for(self, status: int) -> Answer:
        known = self.answers.get(str(status))
        if known:
            return known
        if status == 204:
            return "empty"
        return next(iter(self.answers.values()), "body")
