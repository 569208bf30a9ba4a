"""The `auth` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import AuthLoginBody, AuthLoginResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class AuthApi:
    """`client.auth`: login."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def login(self, *, body: AuthLoginBody, idempotency_key: str | None = None) -> AuthLoginResult:
        """Sign in: e-mail and password (and TOTP code) for a bearer access token

        `POST /v1/auth/login` (auth.login)

        The panel's two-step sign-in (`/api/v1/auth/login`, then `/session-exchange`) in one call, with every check it makes: the password (an unknown e-mail and a wrong password get the same 401 in about the same time), the account lock, e-mail verification (403 `email_not_verified`), membership, new-device approval, concurrent-login approval and the second factor. It opens a session like the panel's, listed by `GET /v1/sessions`, and answers its access token (6 hours). No refresh token is given: sign in again, or use an API token for long-lived access.

        - `team_id` may be left out by a member of exactly one ACTIVE team; with several, 422 on `team_id`. A team you are not an active member of: 403 `missing_permission`.
        - Two-factor authentication on: `totp_code` is required (missing: 401 `details.reason: totp_required`, nothing spent). A wrong, replayed or used code answers 401 and ends the session it would have opened (sign in again); codes count toward the account throttle, and each code works once. Ignored when two-factor authentication is off.
        - A new device (approval is on by default): 403 `device_approval_required` with `details.pre_auth_token` and `details.device_fingerprint`. Ask for the e-mailed code with `POST /api/v1/auth/device/challenge` and approve it with `/device/approve` (both take those two values), then call this again with `pre_auth_token` (instead of the password) or with the password; send that `device_fingerprint` every time from then on, since the device is now trusted.
        - Another device of yours signed in while the team asks for approval: 403 `concurrent_login_pending` with `details.token` (what the live session approves with `/api/v1/auth/concurrent-login/approve`) and `details.pre_auth_token`: once approved, call this again with that `pre_auth_token` and the same `device_fingerprint`. Denied: 403 `concurrent_login_denied`.

        Limited per client IP by `RATE_LIMIT_LOGIN`, shared with the panel's `/login`, besides the /v1 limit.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['auth.login'], {}, body=body, idempotency_key=idempotency_key)


class AsyncAuthApi:
    """`client.auth`: login."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def login(self, *, body: AuthLoginBody, idempotency_key: str | None = None) -> AuthLoginResult:
        """Sign in: e-mail and password (and TOTP code) for a bearer access token

        `POST /v1/auth/login` (auth.login)

        The panel's two-step sign-in (`/api/v1/auth/login`, then `/session-exchange`) in one call, with every check it makes: the password (an unknown e-mail and a wrong password get the same 401 in about the same time), the account lock, e-mail verification (403 `email_not_verified`), membership, new-device approval, concurrent-login approval and the second factor. It opens a session like the panel's, listed by `GET /v1/sessions`, and answers its access token (6 hours). No refresh token is given: sign in again, or use an API token for long-lived access.

        - `team_id` may be left out by a member of exactly one ACTIVE team; with several, 422 on `team_id`. A team you are not an active member of: 403 `missing_permission`.
        - Two-factor authentication on: `totp_code` is required (missing: 401 `details.reason: totp_required`, nothing spent). A wrong, replayed or used code answers 401 and ends the session it would have opened (sign in again); codes count toward the account throttle, and each code works once. Ignored when two-factor authentication is off.
        - A new device (approval is on by default): 403 `device_approval_required` with `details.pre_auth_token` and `details.device_fingerprint`. Ask for the e-mailed code with `POST /api/v1/auth/device/challenge` and approve it with `/device/approve` (both take those two values), then call this again with `pre_auth_token` (instead of the password) or with the password; send that `device_fingerprint` every time from then on, since the device is now trusted.
        - Another device of yours signed in while the team asks for approval: 403 `concurrent_login_pending` with `details.token` (what the live session approves with `/api/v1/auth/concurrent-login/approve`) and `details.pre_auth_token`: once approved, call this again with that `pre_auth_token` and the same `device_fingerprint`. Denied: 403 `concurrent_login_denied`.

        Limited per client IP by `RATE_LIMIT_LOGIN`, shared with the panel's `/login`, besides the /v1 limit.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['auth.login'], {}, body=body, idempotency_key=idempotency_key)


__all__ = ['AuthApi', 'AsyncAuthApi']
