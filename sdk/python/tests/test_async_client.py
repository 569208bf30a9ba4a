"""AsyncClient: the same generated surface with `await` (run with asyncio.run; no plugin needed)."""

from __future__ import annotations

import asyncio

import pytest
from scripted_server import Reply, v1_data
from test_pagination import SITES, serve_sites

import berth


def run(coroutine):
    return asyncio.run(coroutine)


def test_calls_retries_and_keeps_the_idempotency_key(server):
    server.reply(Reply(503, headers={"Retry-After": "0"}), v1_data({"site": {"id": 1}, "operation": {"id": "op"}}, 202))

    async def scenario():
        async with berth.AsyncClient(server.url, token="t") as client:
            return await client.sites.create(body={"name": "x", "php_version": "8.3", "wordpress": {"title": "t", "admin_user": "a", "admin_email": "a@example.com"}})

    assert run(scenario())["site"] == {"id": 1}
    assert len({request.headers["idempotency-key"] for request in server.requests}) == 1 and len(server.requests) == 2


def test_paginate_and_errors(server):
    server.handle(serve_sites)

    async def scenario():
        async with berth.AsyncClient(server.url, token="t") as client:
            return [site async for site in client.paginate(client.sites.list, page_size=2)]

    assert run(scenario()) == SITES


def test_wait_for_operation_and_failure(server):
    server.reply(
        v1_data({"id": "op", "status": "running", "progress": 5, "steps": []}),
        v1_data({"id": "op", "status": "failed", "progress": 5, "steps": [], "error": {"step": "install", "message": "boom"}}),
    )

    async def scenario():
        async with berth.AsyncClient(server.url, token="t") as client:
            await client.wait_for_operation("op", poll_interval=0.01)

    with pytest.raises(berth.OperationFailedError) as raised:
        run(scenario())
    assert raised.value.step == "install"


def test_a_download_is_streamed(server):
    server.reply(Reply(200, b"x" * 100_000, {"Content-Type": "application/pdf"}))

    async def scenario():
        async with berth.AsyncClient(server.url, token="t") as client:
            async with await client.invoices.download_pdf(id="1") as download:
                return b"".join([chunk async for chunk in download.aiter_bytes()])

    assert run(scenario()) == b"x" * 100_000
