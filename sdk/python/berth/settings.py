"""What both clients are made with, and the defaults read from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass

import httpx

from . import __version__
from .retry import RetryPolicy

DEFAULT_TIMEOUT = 30.0  # seconds, per request (connect, read, write, pool)


@dataclass
class ClientSettings:
    base_url: str
    token: str | None
    retry: RetryPolicy
    timeout: float | httpx.Timeout

    @classmethod
    def resolve(cls, base_url: str | None, token: str | None, max_retries: int, timeout: float | httpx.Timeout) -> ClientSettings:
        base_url = base_url or os.environ.get("BERTH_URL")
        if not base_url:
            raise ValueError("no API address: pass base_url= or set BERTH_URL (e.g. https://panel.example.com)")
        token = token if token is not None else os.environ.get("BERTH_TOKEN") or None
        return cls(base_url=base_url.rstrip("/"), token=token, retry=RetryPolicy(max_retries=max_retries), timeout=timeout)

    def headers(self) -> dict[str, str]:
        headers = {"User-Agent": f"berth-python/{__version__}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers
