"""Which calls are sent again, how long the client waits first, and the Idempotency-Key it keeps."""

from __future__ import annotations

import uuid

import pytest
from scripted_server import Reply, v1_data, v1_error

import berth

SITE = {"id": 1, "name": "Shop"}
SITE_CREATE = {"name": "Shop", "php_version": "8.3", "wordpress": {"title": "Shop", "admin_user": "admin", "admin_email": "a@example.com"}}


def test_a_get_is_retried_on_503_after_about_half_a_second(server, client, sleeps):
    server.reply(v1_error(503, "UPSTREAM_ERROR", "busy"), v1_data(SITE))
    assert client.sites.get(id="1") == SITE
    assert len(server.requests) == 2
    assert len(sleeps) == 1 and 0.5 <= sleeps[0] <= 0.625


def test_backoff_doubles_from_half_a_second_with_jitter(server, client, sleeps):
    server.reply(Reply(502), Reply(503), Reply(504), v1_data(SITE))
    assert client.sites.get(id="1") == SITE
    assert len(server.requests) == 4
    for wait, base in zip(sleeps, [0.5, 1.0, 2.0], strict=True):
        assert base <= wait <= base * 1.25


def test_retry_after_is_obeyed_and_capped_at_60_seconds(server, client, sleeps):
    server.reply(
        Reply(429, headers={"Retry-After": "2"}),
        Reply(429, headers={"Retry-After": "120"}),
        v1_data(SITE),
    )
    assert client.sites.get(id="1") == SITE
    assert sleeps == [2.0, 60.0]


def test_after_the_last_retry_the_429_is_a_rate_limit_error(server, client, sleeps):
    limited = Reply(429, {"error": {"code": "RATE_LIMIT_EXCEEDED", "message": "slow down", "details": {"retry_after_seconds": 7}}, "meta": {"timestamp": "t", "request_id": "r"}}, {"Retry-After": "7"})
    server.reply(*[limited] * 4)
    with pytest.raises(berth.RateLimitError) as raised:
        client.sites.get(id="1")
    assert raised.value.retry_after == 7.0 and raised.value.status == 429 and raised.value.code == "RATE_LIMIT_EXCEEDED"
    assert len(server.requests) == 4 and sleeps == [7.0, 7.0, 7.0]


def test_a_post_keeps_one_generated_idempotency_key_across_its_retries(server, client):
    server.reply(Reply(503), Reply(drop_connection=True), v1_data({"site": SITE, "operation": {"id": "op"}}, 202))
    client.sites.create(body=SITE_CREATE)
    keys = [request.headers.get("idempotency-key") for request in server.requests]
    assert len(keys) == 3 and len(set(keys)) == 1
    assert uuid.UUID(keys[0]).version == 4
    assert all(request.json() == SITE_CREATE for request in server.requests)


def test_each_logical_call_gets_its_own_key_and_a_given_key_is_sent_as_is(server, client):
    server.handle(lambda request: v1_data({"site": SITE, "operation": {"id": "op"}}, 202))
    client.sites.create(body=SITE_CREATE)
    client.sites.create(body=SITE_CREATE)
    client.sites.create(body=SITE_CREATE, idempotency_key="my-key-1")
    keys = [request.headers["idempotency-key"] for request in server.requests]
    assert keys[0] != keys[1] and keys[2] == "my-key-1"


def test_a_post_without_an_idempotency_key_is_never_retried(server, client, sleeps):
    # The cookie surface documents no Idempotency-Key: sending its sign-in twice could do it twice.
    server.reply(Reply(503, {"detail": "busy", "code": "internal_error"}))
    with pytest.raises(berth.BerthError) as raised:
        client.browser_auth.login(body={"email": "a@example.com", "password": "pw"})
    assert raised.value.status == 503
    assert len(server.requests) == 1 and sleeps == []
    assert "idempotency-key" not in server.requests[0].headers


def test_put_and_delete_are_retried(server, client):
    server.reply(Reply(503), v1_data({"legal_name": "X"}), Reply(504), Reply(204))
    client.billing_profile.replace(body={"legal_name": "X"})
    assert client.backups.delete(id="1", env="production", backup="2") is None
    assert [request.method for request in server.requests] == ["PUT", "PUT", "DELETE", "DELETE"]


def test_network_failures_are_retried_then_reported_as_connection_errors(server, client, sleeps):
    server.reply(Reply(drop_connection=True), v1_data(SITE))
    assert client.sites.get(id="1") == SITE
    server.reply(*[Reply(drop_connection=True)] * 4)
    with pytest.raises(berth.BerthConnectionError):
        client.sites.get(id="1")
    assert len(server.requests) == 6


def test_a_refused_connection_is_a_connection_error(sleeps):
    with berth.Client("http://127.0.0.1:9", token="t", max_retries=1) as unreachable:
        unreachable._retry.sleep = sleeps.append
        with pytest.raises(berth.BerthConnectionError):
            unreachable.me.get()
    assert len(sleeps) == 1


def test_max_retries_zero_sends_once(server, sleeps):
    server.reply(Reply(503))
    with berth.Client(server.url, token="t", max_retries=0) as once:
        with pytest.raises(berth.BerthError):
            once.sites.get(id="1")
    assert len(server.requests) == 1


def test_other_errors_are_not_retried(server, client, sleeps):
    server.reply(Reply(500, {"error": {"code": "INTERNAL_ERROR", "message": "boom", "details": {}}, "meta": {}}))
    with pytest.raises(berth.BerthError):
        client.sites.get(id="1")
    assert len(server.requests) == 1 and sleeps == []
