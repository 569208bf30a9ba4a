"""Both error bodies (/v1 and the cookie surface) become one BerthError hierarchy."""

from __future__ import annotations

import pytest
from scripted_server import Reply, v1_error

import berth


def test_a_v1_error_carries_code_message_request_id_and_details(server, client):
    server.reply(v1_error(404, "NOT_FOUND", "No such site", {"reason": "gone"}, request_id="req-404"))
    with pytest.raises(berth.NotFoundError) as raised:
        client.sites.get(id="999")
    error = raised.value
    assert (error.status, error.code, error.message, error.request_id) == (404, "NOT_FOUND", "No such site", "req-404")
    assert error.details == {"reason": "gone"} and error.reason == "gone"
    assert "req-404" in str(error)


def test_a_422_lists_the_fields(server, client):
    fields = [{"field": "wordpress.admin_email", "message": "Invalid email"}]
    server.reply(v1_error(422, "VALIDATION_ERROR", "The body does not match", {"fields": fields}))
    with pytest.raises(berth.ValidationError) as raised:
        client.sites.create(body={"name": "x", "php_version": "8.3", "wordpress": {"title": "t", "admin_user": "a", "admin_email": "nope"}})
    assert raised.value.fields == fields


@pytest.mark.parametrize(
    ("status", "error_class"),
    [(401, berth.AuthenticationError), (403, berth.PermissionDeniedError), (409, berth.ConflictError), (400, berth.ValidationError), (500, berth.BerthError)],
)
def test_statuses_map_to_their_error_classes(server, client, status, error_class):
    server.reply(v1_error(status, "SOME_CODE", "no"))
    with pytest.raises(error_class) as raised:
        client.teams.list()
    assert isinstance(raised.value, berth.BerthError) and raised.value.status == status


def test_a_cookie_surface_error_maps_detail_and_code_and_takes_the_request_id_header(server, client):
    server.reply(Reply(401, {"detail": "Invalid credentials", "code": "not_authenticated"}, {"X-Request-Id": "req-cookie"}))
    with pytest.raises(berth.AuthenticationError) as raised:
        client.browser_auth.login(body={"email": "a@example.com", "password": "wrong"})
    error = raised.value
    assert (error.status, error.code, error.message, error.request_id) == (401, "not_authenticated", "Invalid credentials", "req-cookie")


def test_extra_keys_of_a_cookie_surface_error_are_its_details(server, client):
    server.reply(Reply(422, {"detail": "Verify your e-mail first", "email": "a@example.com", "code": "validation_error"}))
    with pytest.raises(berth.ValidationError) as raised:
        client.browser_auth.login(body={"email": "a@example.com", "password": "pw"})
    assert raised.value.details == {"email": "a@example.com"} and raised.value.fields == []


def test_a_body_that_is_not_json_still_gives_a_message(server, client):
    server.reply(Reply(500, b"<html>proxy error</html>"))
    with pytest.raises(berth.BerthError) as raised:
        client.me.get()
    assert raised.value.status == 500 and "proxy error" in raised.value.message and raised.value.code is None
