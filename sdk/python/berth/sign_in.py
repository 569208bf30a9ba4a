"""Script sign-in (`POST /v1/auth/login`), approving a new device with the e-mailed code on the way.

The rules are the `auth.login` operation's: a new device answers 403 `device_approval_required` with
a pre-auth token and the device's fingerprint; the code the challenge e-mails approves that device,
and the same call again with the pre-auth token and fingerprint finishes the sign-in.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from .errors import PermissionDeniedError

if TYPE_CHECKING:
    from .async_client import AsyncClient
    from .client import Client

DEVICE_APPROVAL_REQUIRED = "device_approval_required"


def _login_body(credentials: dict[str, Any], team_id: int | None, device_fingerprint: str | None, totp: str | None) -> dict[str, Any]:
    body = dict(credentials)
    if team_id is not None:
        body["team_id"] = team_id
    if device_fingerprint:
        body["device_fingerprint"] = device_fingerprint
    if totp:
        body["totp_code"] = totp
    return body


def _pending_device(error: PermissionDeniedError, on_device_approval: object) -> tuple[str, str]:
    if error.reason != DEVICE_APPROVAL_REQUIRED or on_device_approval is None:
        raise error
    return str(error.details["pre_auth_token"]), str(error.details["device_fingerprint"])


def sign_in(cls: type[Client], base_url, email, password, team_id, device_fingerprint, totp, on_device_approval, client_options) -> Client:
    with cls(base_url, token="", **client_options) as anonymous:
        try:
            session = anonymous.auth.login(body=_login_body({"email": email, "password": password}, team_id, device_fingerprint, totp))
        except PermissionDeniedError as error:
            pre_auth_token, device_fingerprint = _pending_device(error, on_device_approval)
            device = {"pre_auth_token": pre_auth_token, "device_fingerprint": device_fingerprint}
            anonymous.browser_auth.challenge_device(body=device)
            code = on_device_approval()
            anonymous.browser_auth.approve_device(body={**device, "otp_code": str(code).strip()})
            session = anonymous.auth.login(body=_login_body({"pre_auth_token": pre_auth_token}, team_id, device_fingerprint, totp))
    client = cls(anonymous.base_url, token=session["access_token"], **client_options)
    client.device_fingerprint = device_fingerprint
    return client


async def async_sign_in(
    cls: type[AsyncClient], base_url, email, password, team_id, device_fingerprint, totp, on_device_approval: Callable[[], str | Awaitable[str]] | None, client_options
) -> AsyncClient:
    async with cls(base_url, token="", **client_options) as anonymous:
        try:
            session = await anonymous.auth.login(body=_login_body({"email": email, "password": password}, team_id, device_fingerprint, totp))
        except PermissionDeniedError as error:
            pre_auth_token, device_fingerprint = _pending_device(error, on_device_approval)
            device = {"pre_auth_token": pre_auth_token, "device_fingerprint": device_fingerprint}
            await anonymous.browser_auth.challenge_device(body=device)
            code = on_device_approval()
            if inspect.isawaitable(code):
                code = await code
            await anonymous.browser_auth.approve_device(body={**device, "otp_code": str(code).strip()})
            session = await anonymous.auth.login(body=_login_body({"pre_auth_token": pre_auth_token}, team_id, device_fingerprint, totp))
    client = cls(anonymous.base_url, token=session["access_token"], **client_options)
    client.device_fingerprint = device_fingerprint
    return client
