"""Following a long-running operation (`GET /v1/operations/{id}`) until it ends."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .errors import OperationFailedError

FINAL_STATUSES = frozenset({"succeeded", "failed", "cancelled"})
DEFAULT_WAIT_TIMEOUT = 30 * 60.0  # seconds; a site's creation takes minutes, not hours
DEFAULT_POLL_INTERVAL = 2.0

ProgressCallback = Callable[[dict[str, Any]], None]


def operation_id_of(operation: str | Mapping[str, Any]) -> str:
    """Accepts an id, an Operation, or a 202 answer that carries one (`{site, operation}`)."""
    if isinstance(operation, Mapping):
        if isinstance(operation.get("operation"), Mapping):
            operation = operation["operation"]
        if "id" not in operation:
            raise ValueError("wait_for_operation: this mapping is neither an operation nor holds one")
        return str(operation["id"])
    return str(operation)


class ProgressTracker:
    """Tells when an operation moved: its status, its progress, or any step's status changed."""

    def __init__(self) -> None:
        self._last: tuple | None = None

    def moved(self, operation: Mapping[str, Any]) -> bool:
        steps = tuple((step.get("name"), step.get("status")) for step in operation.get("steps") or [])
        state = (operation.get("status"), operation.get("progress"), steps)
        moved = state != self._last
        self._last = state
        return moved


def final_or_none(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The operation if it ended well, None while it runs; raises when it failed or was cancelled."""
    status = operation.get("status")
    if status not in FINAL_STATUSES:
        return None
    if status != "succeeded":
        raise OperationFailedError(operation)
    return operation
