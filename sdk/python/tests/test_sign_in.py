"""`Client.sign_in`: script sign-in, approving a new device with the e-mailed code."""

from __future__ import annotations

import pytest
from scripted_server import Reply, v1_data, v1_error

import berth

PRE_AUTH = "pre-auth-token-0123456789"
FINGERPRINT = "fp-server-chosen-1"
SESSION = {"access_token": "eyJ.access.token", "token_type": "Bearer", "expires_in": 21600, "session_id": "s1", "team_id": 1}


def device_approval_required():
    return v1_error(403, "AUTHORIZATION_ERROR", "Approve this device", {"reason": "device_approval_required", "pre_auth_token": PRE_AUTH, "device_fingerprint": FINGERPRINT})


def test_a_known_device_signs_in_with_one_call(server):
    server.reply(v1_data(SESSION), v1_data({"id": 7}))
    client = berth.Client.sign_in(server.url, "owner@example.com", "pw", team_id=1, device_fingerprint="script-fp-01", totp="123456")
    assert server.requests[0].path == "/v1/auth/login"
    assert server.requests[0].json() == {"email": "owner@example.com", "password": "pw", "team_id": 1, "device_fingerprint": "script-fp-01", "totp_code": "123456"}
    client.me.get()
    assert server.requests[1].headers["authorization"] == "Bearer eyJ.access.token"
    assert client.device_fingerprint == "script-fp-01"


def test_a_new_device_is_challenged_approved_with_the_code_and_signed_in_again(server):
    server.reply(device_approval_required(), Reply(200, {"message": "sent"}), Reply(200, {"message": "trusted"}), v1_data(SESSION), v1_data({"id": 7}))
    asked = []
    client = berth.Client.sign_in(server.url, "owner@example.com", "pw", on_device_approval=lambda: asked.append(1) or " 424242 ")
    login, challenge, approve, again = server.requests[:4]
    assert (challenge.path, challenge.json()) == ("/api/v1/auth/device/challenge", {"pre_auth_token": PRE_AUTH, "device_fingerprint": FINGERPRINT})
    assert (approve.path, approve.json()) == ("/api/v1/auth/device/approve", {"pre_auth_token": PRE_AUTH, "device_fingerprint": FINGERPRINT, "otp_code": "424242"})
    assert (again.path, again.json()) == ("/v1/auth/login", {"pre_auth_token": PRE_AUTH, "device_fingerprint": FINGERPRINT})
    assert asked == [1] and client.device_fingerprint == FINGERPRINT
    assert "authorization" not in login.headers
    client.me.get()
    assert server.requests[4].headers["authorization"] == "Bearer eyJ.access.token"


def test_without_a_callback_the_device_approval_error_is_raised(server):
    server.reply(device_approval_required())
    with pytest.raises(berth.PermissionDeniedError) as raised:
        berth.Client.sign_in(server.url, "owner@example.com", "pw")
    assert raised.value.reason == "device_approval_required" and raised.value.details["pre_auth_token"] == PRE_AUTH


def test_a_wrong_password_is_an_authentication_error(server):
    server.reply(v1_error(401, "AUTHENTICATION_ERROR", "Invalid credentials"))
    with pytest.raises(berth.AuthenticationError):
        berth.Client.sign_in(server.url, "owner@example.com", "wrong", on_device_approval=lambda: "000000")
