"""When a request is sent again, and how long to wait first."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Callable

RETRIED_STATUSES = frozenset({429, 502, 503, 504})
# PUT and DELETE are idempotent by HTTP's definition; POST and PATCH only with an Idempotency-Key.
ALWAYS_RETRIED_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})


@dataclass
class RetryPolicy:
    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 60.0
    # Tests swap this for a recorder; everything else waits for real.
    sleep: Callable[[float], None] = field(default=time.sleep)

    def may_retry(self, http_method: str, has_idempotency_key: bool) -> bool:
        return http_method in ALWAYS_RETRIED_METHODS or has_idempotency_key

    def delay(self, retry_number: int, retry_after: float | None) -> float:
        """Seconds before retry `retry_number` (0 for the first): the server's Retry-After when it
        gave one, else 0.5 s doubling each time plus up to a quarter more at random, so clients that
        failed together do not come back together."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay)
        exponential = self.base_delay * (2**retry_number)
        return min(exponential * (1 + random.random() / 4), self.max_delay)


def parse_retry_after(value: str | None) -> float | None:
    """`Retry-After` is delta-seconds or an HTTP date (RFC 9110 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)
