"""The `browser_auth` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import BrowserAuthApproveConcurrentLoginBody, BrowserAuthApproveConcurrentLoginResult, BrowserAuthApproveDeviceBody, BrowserAuthApproveDeviceResult, BrowserAuthApproveLoginBody, BrowserAuthApproveLoginResult, BrowserAuthChallengeDeviceBody, BrowserAuthChallengeDeviceResult, BrowserAuthConfirmEmailVerificationBody, BrowserAuthConfirmEmailVerificationResult, BrowserAuthConfirmPasswordResetBody, BrowserAuthConfirmPasswordResetResult, BrowserAuthDenyConcurrentLoginBody, BrowserAuthDenyConcurrentLoginResult, BrowserAuthDenyLoginBody, BrowserAuthDenyLoginResult, BrowserAuthExchangeSessionBody, BrowserAuthExchangeSessionResult, BrowserAuthListConcurrentLoginRequestsResult, BrowserAuthListLoginActivityResult, BrowserAuthListTrustedDevicesResult, BrowserAuthLoginBody, BrowserAuthLoginResult, BrowserAuthLogoutResult, BrowserAuthMeResult, BrowserAuthRefreshResult, BrowserAuthRegisterFromInviteBody, BrowserAuthRegisterFromInviteResult, BrowserAuthRegisterOwnerBody, BrowserAuthRegisterOwnerResult, BrowserAuthRequestEmailVerificationBody, BrowserAuthRequestEmailVerificationResult, BrowserAuthRequestPasswordResetBody, BrowserAuthRequestPasswordResetResult, BrowserAuthRevokeTrustedDeviceBody, BrowserAuthRevokeTrustedDeviceResult, BrowserAuthSetupTotpResult, BrowserAuthStatusResult, BrowserAuthUseBackupCodeBody, BrowserAuthUseBackupCodeResult, BrowserAuthVerifyTotpBody, BrowserAuthVerifyTotpResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class BrowserAuthApi:
    """`client.browser_auth`: approve_concurrent_login, approve_device, approve_login, challenge_device, confirm_email_verification, confirm_password_reset, deny_concurrent_login, deny_login, exchange_session, list_concurrent_login_requests, list_login_activity, list_trusted_devices, login, logout, me, refresh, register_from_invite, register_owner, request_email_verification, request_password_reset, revoke_trusted_device, setup_totp, status, use_backup_code, verify_totp."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def approve_concurrent_login(self, *, body: BrowserAuthApproveConcurrentLoginBody, x_csrf_token: str | None = None) -> BrowserAuthApproveConcurrentLoginResult:
        """Approve a sign-in waiting for approval, from a live session

        `POST /api/v1/auth/concurrent-login/approve` (browserAuth.approveConcurrentLogin)

        With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another `device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page `/concurrent-login?token=`, which decides with the session of that browser.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.approveConcurrentLogin'], {'X-CSRF-Token': x_csrf_token}, body=body)

    def approve_device(self, *, body: BrowserAuthApproveDeviceBody) -> BrowserAuthApproveDeviceResult:
        """Approve a new device with the e-mailed code

        `POST /api/v1/auth/device/approve` (browserAuth.approveDevice)

        A device is known when the user has a trusted device with this `device_fingerprint` that is not revoked. From an unknown device, `/session-exchange` answers 403 `device_approval_required` (no cookies; the pre-auth token stays usable) unless the team turned new-device approval off (it is on by default). The code must match the latest challenge of this pre-auth token and fingerprint: a code of another sign-in, or of a replaced or expired challenge, answers 401. Five wrong codes burn the challenge (each try is reserved atomically before the comparison, so parallel guesses get no more than five), and each counts toward the account throttle; while the account is locked every code fails like a wrong one. The right code makes the device trusted (labelled from the user agent, with the IP the server saw), and `/session-exchange` with the same pre-auth token then succeeds.
        """
        return self._client._call(OPERATIONS['browserAuth.approveDevice'], {}, body=body)

    def approve_login(self, *, body: BrowserAuthApproveLoginBody) -> BrowserAuthApproveLoginResult:
        """Approve a suspicious sign-in with the alert token

        `POST /api/v1/auth/login/approve` (browserAuth.approveLogin)

        The sign-in's country and network count as known from now on. A sign-in (a session issued by `/session-exchange`) is suspicious when, compared with the user's login and refresh activity of the last 90 days (activity of a sign-in whose alert is pending or denied does not count): its country is new, its network (/24 for IPv4, /48 for IPv6) is new, or reaching it from the previous located activity needs more than 1000 km/h (pairs under 100 km are ignored). Country and coordinates come from the IP the server saw, through an offline GeoLite2 database, never from `session_info`; an address it cannot place (loopback, private, unknown) is judged by its network alone. A user's very first sign-in is never suspicious. The alert e-mail carries one token (256 bits, stored hashed, single use, valid 24 hours from sending) in two links to panel pages, `/login/approve?token=` and `/login/deny?token=`; opening them changes nothing, the page POSTs the token here. An unknown, used or expired token answers 401 `not_authenticated`.
        """
        return self._client._call(OPERATIONS['browserAuth.approveLogin'], {}, body=body)

    def challenge_device(self, *, body: BrowserAuthChallengeDeviceBody) -> BrowserAuthChallengeDeviceResult:
        """E-mail a code to approve a new device

        `POST /api/v1/auth/device/challenge` (browserAuth.challengeDevice)

        A device is known when the user has a trusted device with this `device_fingerprint` that is not revoked. From an unknown device, `/session-exchange` answers 403 `device_approval_required` (no cookies; the pre-auth token stays usable) unless the team turned new-device approval off (it is on by default). This e-mails a 6-digit code to the user, bound to this pre-auth token and fingerprint, valid 10 minutes; a new challenge replaces the token's earlier open one (its code stops working); 5 wrong tries burn it. The code is minted by the mail job when it sends (no code waits in the queue) and stored only as a SHA-256 salted with the challenge id: no hash can hide a six-digit code from an offline search, so the hash only keeps codes out of the database in clear; what protects a code is that it is online-only, bound to one sign-in that already took the password, short-lived and limited to 5 tries. The body's `ip` and `user_agent` are the client's statement; the server records the address it saw and the User-Agent header. An unknown, used or expired pre-auth token answers 401. Limited per IP by `RATE_LIMIT_EMAIL`.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['browserAuth.challengeDevice'], {}, body=body)

    def confirm_email_verification(self, *, body: BrowserAuthConfirmEmailVerificationBody) -> BrowserAuthConfirmEmailVerificationResult:
        """Verify the address with the token from the e-mail

        `POST /api/v1/auth/email/verification/confirm` (browserAuth.confirmEmailVerification)

        Marks the address verified. The token comes from the link in the e-mail (24 hours, single use, stored hashed); an invalid, used or expired one is 401.
        """
        return self._client._call(OPERATIONS['browserAuth.confirmEmailVerification'], {}, body=body)

    def confirm_password_reset(self, *, body: BrowserAuthConfirmPasswordResetBody) -> BrowserAuthConfirmPasswordResetResult:
        """Set a new password with the token from the e-mail

        `POST /api/v1/auth/password-reset/confirm` (browserAuth.confirmPasswordReset)

        Ends every session of the user and every open pre-auth token, and revokes every API token the user created (in every team) unless `revoke_api_tokens` is `false`. A password that breaks the policy gives 422 and leaves the token usable.
        """
        return self._client._call(OPERATIONS['browserAuth.confirmPasswordReset'], {}, body=body)

    def deny_concurrent_login(self, *, body: BrowserAuthDenyConcurrentLoginBody, x_csrf_token: str | None = None) -> BrowserAuthDenyConcurrentLoginResult:
        """Deny a sign-in waiting for approval, from a live session

        `POST /api/v1/auth/concurrent-login/deny` (browserAuth.denyConcurrentLogin)

        With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another `device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page `/concurrent-login?token=`, which decides with the session of that browser.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.denyConcurrentLogin'], {'X-CSRF-Token': x_csrf_token}, body=body)

    def deny_login(self, *, body: BrowserAuthDenyLoginBody) -> BrowserAuthDenyLoginResult:
        """Deny a suspicious sign-in with the alert token

        `POST /api/v1/auth/login/deny` (browserAuth.denyLogin)

        Ends every session born of that sign-in (its pre-auth token, its user) at once and e-mails the user a password reset link; its country and network stay unknown, so the next sign-in from there alerts again. A sign-in (a session issued by `/session-exchange`) is suspicious when, compared with the user's login and refresh activity of the last 90 days (activity of a sign-in whose alert is pending or denied does not count): its country is new, its network (/24 for IPv4, /48 for IPv6) is new, or reaching it from the previous located activity needs more than 1000 km/h (pairs under 100 km are ignored). Country and coordinates come from the IP the server saw, through an offline GeoLite2 database, never from `session_info`; an address it cannot place (loopback, private, unknown) is judged by its network alone. A user's very first sign-in is never suspicious. The alert e-mail carries one token (256 bits, stored hashed, single use, valid 24 hours from sending) in two links to panel pages, `/login/approve?token=` and `/login/deny?token=`; opening them changes nothing, the page POSTs the token here. An unknown, used or expired token answers 401 `not_authenticated`.
        """
        return self._client._call(OPERATIONS['browserAuth.denyLogin'], {}, body=body)

    def exchange_session(self, *, body: BrowserAuthExchangeSessionBody) -> BrowserAuthExchangeSessionResult:
        """Step 2: open a session in a team

        `POST /api/v1/auth/session-exchange` (browserAuth.exchangeSession)

        Consumes the pre-auth token and sets `svc_access` (EdDSA JWT, 6 h, HttpOnly), `svc_refresh` (opaque, 7 d or 1 d, HttpOnly) and `svc_csrf` (readable by scripts), all `Path=/; SameSite=Lax`, `Secure` in production. `team_id` must be one of the user's ACTIVE teams, else 403 `missing_permission` and the token stays usable. The IP recorded is the one the server saw; `session_info.ip` and `geo` are kept as the client's own statement.
        """
        return self._client._call(OPERATIONS['browserAuth.exchangeSession'], {}, body=body)

    def list_concurrent_login_requests(self) -> BrowserAuthListConcurrentLoginRequestsResult:
        """Sign-ins of this user waiting for approval

        `GET /api/v1/auth/concurrent-login/requests` (browserAuth.listConcurrentLoginRequests)

        Pending, unexpired requests, newest first: a live session polls this to be notified. With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another `device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page `/concurrent-login?token=`, which decides with the session of that browser.
        """
        return self._client._call(OPERATIONS['browserAuth.listConcurrentLoginRequests'], {})

    def list_login_activity(self, *, page: int | None = None, page_size: int | None = None) -> BrowserAuthListLoginActivityResult:
        """The caller's sign-ins and refreshes

        `GET /api/v1/auth/login-activity` (browserAuth.listLoginActivity)

        The signed-in user's own `login` (every successful `/session-exchange`) and `refresh` entries, newest first. Query `page` (from 1, default 1) and `page_size` (1 to 100, default 20); other values answer 422. Beside `activity` the reply carries a `pagination` block `{page, page_size, total, total_pages}` as in the general API's lists (not in the spec's shape of this endpoint). `ip` is the address the server saw. `geo.country` is the one the server located the IP in when it could, else the client's statement at login; `geo.city` is only ever the client's, and is null when it contradicts the located country. Refreshes carry no client statement.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['browserAuth.listLoginActivity'], {'page': page, 'page_size': page_size})

    def list_trusted_devices(self) -> BrowserAuthListTrustedDevicesResult:
        """The caller's trusted devices

        `GET /api/v1/auth/trusted-devices` (browserAuth.listTrustedDevices)

        Every device the signed-in user approved with an e-mailed code, newest first, revoked ones included (`revoked_at` set). IPs are those the server saw: at approval (`first_ip`) and at the latest sign-in from the device (`last_ip`, `last_seen_at`).
        """
        return self._client._call(OPERATIONS['browserAuth.listTrustedDevices'], {})

    def login(self, *, body: BrowserAuthLoginBody) -> BrowserAuthLoginResult:
        """Step 1: check the credentials

        `POST /api/v1/auth/login` (browserAuth.login)

        Answers a pre-auth token (36 random bytes, base64url; stored hashed; valid 10 minutes; bound to the user; used once by `/session-exchange`) and the user's teams. An unknown e-mail and a wrong password give the same 401 in about the same time. E-mails are compared lower-cased and NFKC-normalised. `remember_me` makes the refresh cookie last 7 days instead of 1.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['browserAuth.login'], {}, body=body)

    def logout(self, *, x_csrf_token: str | None = None) -> BrowserAuthLogoutResult:
        """End the session

        `POST /api/v1/auth/logout` (browserAuth.logout)

        Revokes the session at once (its access token stops working on the next request) and clears the three cookies. With an expired access cookie the refresh cookie identifies the session.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.logout'], {'X-CSRF-Token': x_csrf_token})

    def me(self) -> BrowserAuthMeResult:
        """The signed-in user in the session's team

        `GET /api/v1/auth/me` (browserAuth.me)

        The user of the session cookie, with the team the session is in and the user's role there. 401 without a valid session.
        """
        return self._client._call(OPERATIONS['browserAuth.me'], {})

    def refresh(self, *, x_csrf_token: str | None = None) -> BrowserAuthRefreshResult:
        """Rotate the refresh token and mint a new access token

        `POST /api/v1/auth/refresh` (browserAuth.refresh)

        Every refresh rotates `svc_refresh`. Presenting a token that was already rotated is treated as theft: the whole session (the token family) is revoked, its access token included. Of parallel refreshes of one token at most one succeeds.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.refresh'], {'X-CSRF-Token': x_csrf_token})

    def register_from_invite(self, *, body: BrowserAuthRegisterFromInviteBody) -> BrowserAuthRegisterFromInviteResult:
        """Door B: join a team with an invite token

        `POST /api/v1/auth/register-from-invite` (browserAuth.registerFromInvite)

        Consumes the invite token (single use, 7 days) for the address it was sent to and joins its team with its role. The address counts as verified. Someone who already has an account gives that account's password and joins with it; the name is then ignored. An invalid, used, revoked or expired token gives 401.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['browserAuth.registerFromInvite'], {}, body=body)

    def register_owner(self, *, body: BrowserAuthRegisterOwnerBody) -> BrowserAuthRegisterOwnerResult:
        """Door A: create an account and a team

        `POST /api/v1/auth/register-owner` (browserAuth.registerOwner)

        Creates the user, the team (slug: 3 to 40 lower-case letters, digits and single hyphens) and makes the user its owner (`*`). The team has no paid plan yet (sites can be created once it has chosen one with `POST /v1/billing/subscription` and paid its first invoice). A verification e-mail is sent; signing in answers 422 until the address is verified. Passwords: 8 to 128 characters after NFKC normalisation. An e-mail or slug already in use gives 422 `validation_error` naming the field.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['browserAuth.registerOwner'], {}, body=body)

    def request_email_verification(self, *, body: BrowserAuthRequestEmailVerificationBody) -> BrowserAuthRequestEmailVerificationResult:
        """Send a new verification link

        `POST /api/v1/auth/email/verification/request` (browserAuth.requestEmailVerification)

        The link is valid 24 hours and works once. Known and unknown addresses get the same answer in the same time: the request only queues a job, and the worker looks the address up. Rate limited per IP and per address.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['browserAuth.requestEmailVerification'], {}, body=body)

    def request_password_reset(self, *, body: BrowserAuthRequestPasswordResetBody) -> BrowserAuthRequestPasswordResetResult:
        """Send a password reset link

        `POST /api/v1/auth/password-reset/request` (browserAuth.requestPasswordReset)

        The link is valid 30 minutes and works once; links are built from PUBLIC_URL, never from the request. Known and unknown addresses get the same answer in the same time: the request only queues a job, and the worker looks the address up. Rate limited per IP and per address.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['browserAuth.requestPasswordReset'], {}, body=body)

    def revoke_trusted_device(self, *, body: BrowserAuthRevokeTrustedDeviceBody, x_csrf_token: str | None = None) -> BrowserAuthRevokeTrustedDeviceResult:
        """Revoke one of the caller's trusted devices

        `POST /api/v1/auth/trusted-devices/revoke` (browserAuth.revokeTrustedDevice)

        Sets `revoked_at` and ends every session of the user on that device (its fingerprint), this one included when it is that device; the next sign-in from it needs an e-mailed code again. Another user's device id answers 404 like an unknown one. Revoking a device that is already revoked changes nothing.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.revokeTrustedDevice'], {'X-CSRF-Token': x_csrf_token}, body=body)

    def setup_totp(self, *, x_csrf_token: str | None = None) -> BrowserAuthSetupTotpResult:
        """Start TOTP enrolment: a secret, its otpauth URI and ten backup codes

        `POST /api/v1/auth/totp/setup` (browserAuth.setupTotp)

        Needs a fully signed-in session. The secret (20 random bytes, base32) is stored sealed (AES-256-GCM under SECRET_KEY) as a *pending* secret, and the ten 8-digit backup codes are stored only as HMAC-SHA256 under a key derived from SECRET_KEY, also pending. Two-factor authentication stays off until `/totp/verify` accepts a code of this secret. Calling setup again replaces the pending secret and codes. With TOTP already enabled it answers 422; disabling and re-enrolling are not offered yet.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.setupTotp'], {'X-CSRF-Token': x_csrf_token})

    def status(self) -> BrowserAuthStatusResult:
        """Service status

        `GET /api/v1/auth/status` (browserAuth.status)

        Checks Postgres and Redis (1.5 s each). `operational` when both answer, else 503 `degraded` with the failing check.
        """
        return self._client._call(OPERATIONS['browserAuth.status'], {})

    def use_backup_code(self, *, body: BrowserAuthUseBackupCodeBody, x_csrf_token: str | None = None) -> BrowserAuthUseBackupCodeResult:
        """Use a backup code instead of a TOTP code

        `POST /api/v1/auth/totp/backup` (browserAuth.useBackupCode)

        Allowed while the session waits for its second factor, which an unused backup code completes. Each code works once: it is consumed by one conditional update, so of two parallel uses only one succeeds. Codes of a setup not yet verified do not work. On a session that waits for nothing, a valid code is still used up. Under the account throttle: a wrong, replayed or used code counts as a failure; after 5 consecutive failures of any factor (passwords included) the account locks for 1 minute, doubling to 15, and while locked every code, even a right one, gets the same 401 as a wrong one (and sign-in the same 401 as a wrong password). Parallel attempts are judged one at a time, so a burst cannot outrun the lock. A success resets the count.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.useBackupCode'], {'X-CSRF-Token': x_csrf_token}, body=body)

    def verify_totp(self, *, body: BrowserAuthVerifyTotpBody, x_csrf_token: str | None = None) -> BrowserAuthVerifyTotpResult:
        """Check a TOTP code: finish enrolment, or complete a session that waits for its second factor

        `POST /api/v1/auth/totp/verify` (browserAuth.verifyTotp)

        Allowed while the session waits for its second factor. Once TOTP is enabled, every session `/session-exchange` issues waits for it: all other endpoints except `/totp/backup`, `/logout` and `/status` answer 401 `totp_required` (a refresh works but the session keeps waiting). Here a current code completes it. Without TOTP enabled and with a setup in progress, a code of the pending secret enables TOTP and makes the backup codes live. On a session that waits for nothing, a valid code is only checked. Codes are RFC 6238 (HMAC-SHA1, 30-second steps, 6 digits); the current step and one step either side are accepted, and each step's code works once (a code of a step at or before the last accepted one is refused). Under the account throttle: a wrong, replayed or used code counts as a failure; after 5 consecutive failures of any factor (passwords included) the account locks for 1 minute, doubling to 15, and while locked every code, even a right one, gets the same 401 as a wrong one (and sign-in the same 401 as a wrong password). Parallel attempts are judged one at a time, so a burst cannot outrun the lock. A success resets the count.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return self._client._call(OPERATIONS['browserAuth.verifyTotp'], {'X-CSRF-Token': x_csrf_token}, body=body)


class AsyncBrowserAuthApi:
    """`client.browser_auth`: approve_concurrent_login, approve_device, approve_login, challenge_device, confirm_email_verification, confirm_password_reset, deny_concurrent_login, deny_login, exchange_session, list_concurrent_login_requests, list_login_activity, list_trusted_devices, login, logout, me, refresh, register_from_invite, register_owner, request_email_verification, request_password_reset, revoke_trusted_device, setup_totp, status, use_backup_code, verify_totp."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def approve_concurrent_login(self, *, body: BrowserAuthApproveConcurrentLoginBody, x_csrf_token: str | None = None) -> BrowserAuthApproveConcurrentLoginResult:
        """Approve a sign-in waiting for approval, from a live session

        `POST /api/v1/auth/concurrent-login/approve` (browserAuth.approveConcurrentLogin)

        With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another `device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page `/concurrent-login?token=`, which decides with the session of that browser.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.approveConcurrentLogin'], {'X-CSRF-Token': x_csrf_token}, body=body)

    async def approve_device(self, *, body: BrowserAuthApproveDeviceBody) -> BrowserAuthApproveDeviceResult:
        """Approve a new device with the e-mailed code

        `POST /api/v1/auth/device/approve` (browserAuth.approveDevice)

        A device is known when the user has a trusted device with this `device_fingerprint` that is not revoked. From an unknown device, `/session-exchange` answers 403 `device_approval_required` (no cookies; the pre-auth token stays usable) unless the team turned new-device approval off (it is on by default). The code must match the latest challenge of this pre-auth token and fingerprint: a code of another sign-in, or of a replaced or expired challenge, answers 401. Five wrong codes burn the challenge (each try is reserved atomically before the comparison, so parallel guesses get no more than five), and each counts toward the account throttle; while the account is locked every code fails like a wrong one. The right code makes the device trusted (labelled from the user agent, with the IP the server saw), and `/session-exchange` with the same pre-auth token then succeeds.
        """
        return await self._client._call(OPERATIONS['browserAuth.approveDevice'], {}, body=body)

    async def approve_login(self, *, body: BrowserAuthApproveLoginBody) -> BrowserAuthApproveLoginResult:
        """Approve a suspicious sign-in with the alert token

        `POST /api/v1/auth/login/approve` (browserAuth.approveLogin)

        The sign-in's country and network count as known from now on. A sign-in (a session issued by `/session-exchange`) is suspicious when, compared with the user's login and refresh activity of the last 90 days (activity of a sign-in whose alert is pending or denied does not count): its country is new, its network (/24 for IPv4, /48 for IPv6) is new, or reaching it from the previous located activity needs more than 1000 km/h (pairs under 100 km are ignored). Country and coordinates come from the IP the server saw, through an offline GeoLite2 database, never from `session_info`; an address it cannot place (loopback, private, unknown) is judged by its network alone. A user's very first sign-in is never suspicious. The alert e-mail carries one token (256 bits, stored hashed, single use, valid 24 hours from sending) in two links to panel pages, `/login/approve?token=` and `/login/deny?token=`; opening them changes nothing, the page POSTs the token here. An unknown, used or expired token answers 401 `not_authenticated`.
        """
        return await self._client._call(OPERATIONS['browserAuth.approveLogin'], {}, body=body)

    async def challenge_device(self, *, body: BrowserAuthChallengeDeviceBody) -> BrowserAuthChallengeDeviceResult:
        """E-mail a code to approve a new device

        `POST /api/v1/auth/device/challenge` (browserAuth.challengeDevice)

        A device is known when the user has a trusted device with this `device_fingerprint` that is not revoked. From an unknown device, `/session-exchange` answers 403 `device_approval_required` (no cookies; the pre-auth token stays usable) unless the team turned new-device approval off (it is on by default). This e-mails a 6-digit code to the user, bound to this pre-auth token and fingerprint, valid 10 minutes; a new challenge replaces the token's earlier open one (its code stops working); 5 wrong tries burn it. The code is minted by the mail job when it sends (no code waits in the queue) and stored only as a SHA-256 salted with the challenge id: no hash can hide a six-digit code from an offline search, so the hash only keeps codes out of the database in clear; what protects a code is that it is online-only, bound to one sign-in that already took the password, short-lived and limited to 5 tries. The body's `ip` and `user_agent` are the client's statement; the server records the address it saw and the User-Agent header. An unknown, used or expired pre-auth token answers 401. Limited per IP by `RATE_LIMIT_EMAIL`.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['browserAuth.challengeDevice'], {}, body=body)

    async def confirm_email_verification(self, *, body: BrowserAuthConfirmEmailVerificationBody) -> BrowserAuthConfirmEmailVerificationResult:
        """Verify the address with the token from the e-mail

        `POST /api/v1/auth/email/verification/confirm` (browserAuth.confirmEmailVerification)

        Marks the address verified. The token comes from the link in the e-mail (24 hours, single use, stored hashed); an invalid, used or expired one is 401.
        """
        return await self._client._call(OPERATIONS['browserAuth.confirmEmailVerification'], {}, body=body)

    async def confirm_password_reset(self, *, body: BrowserAuthConfirmPasswordResetBody) -> BrowserAuthConfirmPasswordResetResult:
        """Set a new password with the token from the e-mail

        `POST /api/v1/auth/password-reset/confirm` (browserAuth.confirmPasswordReset)

        Ends every session of the user and every open pre-auth token, and revokes every API token the user created (in every team) unless `revoke_api_tokens` is `false`. A password that breaks the policy gives 422 and leaves the token usable.
        """
        return await self._client._call(OPERATIONS['browserAuth.confirmPasswordReset'], {}, body=body)

    async def deny_concurrent_login(self, *, body: BrowserAuthDenyConcurrentLoginBody, x_csrf_token: str | None = None) -> BrowserAuthDenyConcurrentLoginResult:
        """Deny a sign-in waiting for approval, from a live session

        `POST /api/v1/auth/concurrent-login/deny` (browserAuth.denyConcurrentLogin)

        With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another `device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page `/concurrent-login?token=`, which decides with the session of that browser.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.denyConcurrentLogin'], {'X-CSRF-Token': x_csrf_token}, body=body)

    async def deny_login(self, *, body: BrowserAuthDenyLoginBody) -> BrowserAuthDenyLoginResult:
        """Deny a suspicious sign-in with the alert token

        `POST /api/v1/auth/login/deny` (browserAuth.denyLogin)

        Ends every session born of that sign-in (its pre-auth token, its user) at once and e-mails the user a password reset link; its country and network stay unknown, so the next sign-in from there alerts again. A sign-in (a session issued by `/session-exchange`) is suspicious when, compared with the user's login and refresh activity of the last 90 days (activity of a sign-in whose alert is pending or denied does not count): its country is new, its network (/24 for IPv4, /48 for IPv6) is new, or reaching it from the previous located activity needs more than 1000 km/h (pairs under 100 km are ignored). Country and coordinates come from the IP the server saw, through an offline GeoLite2 database, never from `session_info`; an address it cannot place (loopback, private, unknown) is judged by its network alone. A user's very first sign-in is never suspicious. The alert e-mail carries one token (256 bits, stored hashed, single use, valid 24 hours from sending) in two links to panel pages, `/login/approve?token=` and `/login/deny?token=`; opening them changes nothing, the page POSTs the token here. An unknown, used or expired token answers 401 `not_authenticated`.
        """
        return await self._client._call(OPERATIONS['browserAuth.denyLogin'], {}, body=body)

    async def exchange_session(self, *, body: BrowserAuthExchangeSessionBody) -> BrowserAuthExchangeSessionResult:
        """Step 2: open a session in a team

        `POST /api/v1/auth/session-exchange` (browserAuth.exchangeSession)

        Consumes the pre-auth token and sets `svc_access` (EdDSA JWT, 6 h, HttpOnly), `svc_refresh` (opaque, 7 d or 1 d, HttpOnly) and `svc_csrf` (readable by scripts), all `Path=/; SameSite=Lax`, `Secure` in production. `team_id` must be one of the user's ACTIVE teams, else 403 `missing_permission` and the token stays usable. The IP recorded is the one the server saw; `session_info.ip` and `geo` are kept as the client's own statement.
        """
        return await self._client._call(OPERATIONS['browserAuth.exchangeSession'], {}, body=body)

    async def list_concurrent_login_requests(self) -> BrowserAuthListConcurrentLoginRequestsResult:
        """Sign-ins of this user waiting for approval

        `GET /api/v1/auth/concurrent-login/requests` (browserAuth.listConcurrentLoginRequests)

        Pending, unexpired requests, newest first: a live session polls this to be notified. With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another `device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page `/concurrent-login?token=`, which decides with the session of that browser.
        """
        return await self._client._call(OPERATIONS['browserAuth.listConcurrentLoginRequests'], {})

    async def list_login_activity(self, *, page: int | None = None, page_size: int | None = None) -> BrowserAuthListLoginActivityResult:
        """The caller's sign-ins and refreshes

        `GET /api/v1/auth/login-activity` (browserAuth.listLoginActivity)

        The signed-in user's own `login` (every successful `/session-exchange`) and `refresh` entries, newest first. Query `page` (from 1, default 1) and `page_size` (1 to 100, default 20); other values answer 422. Beside `activity` the reply carries a `pagination` block `{page, page_size, total, total_pages}` as in the general API's lists (not in the spec's shape of this endpoint). `ip` is the address the server saw. `geo.country` is the one the server located the IP in when it could, else the client's statement at login; `geo.city` is only ever the client's, and is null when it contradicts the located country. Refreshes carry no client statement.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['browserAuth.listLoginActivity'], {'page': page, 'page_size': page_size})

    async def list_trusted_devices(self) -> BrowserAuthListTrustedDevicesResult:
        """The caller's trusted devices

        `GET /api/v1/auth/trusted-devices` (browserAuth.listTrustedDevices)

        Every device the signed-in user approved with an e-mailed code, newest first, revoked ones included (`revoked_at` set). IPs are those the server saw: at approval (`first_ip`) and at the latest sign-in from the device (`last_ip`, `last_seen_at`).
        """
        return await self._client._call(OPERATIONS['browserAuth.listTrustedDevices'], {})

    async def login(self, *, body: BrowserAuthLoginBody) -> BrowserAuthLoginResult:
        """Step 1: check the credentials

        `POST /api/v1/auth/login` (browserAuth.login)

        Answers a pre-auth token (36 random bytes, base64url; stored hashed; valid 10 minutes; bound to the user; used once by `/session-exchange`) and the user's teams. An unknown e-mail and a wrong password give the same 401 in about the same time. E-mails are compared lower-cased and NFKC-normalised. `remember_me` makes the refresh cookie last 7 days instead of 1.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['browserAuth.login'], {}, body=body)

    async def logout(self, *, x_csrf_token: str | None = None) -> BrowserAuthLogoutResult:
        """End the session

        `POST /api/v1/auth/logout` (browserAuth.logout)

        Revokes the session at once (its access token stops working on the next request) and clears the three cookies. With an expired access cookie the refresh cookie identifies the session.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.logout'], {'X-CSRF-Token': x_csrf_token})

    async def me(self) -> BrowserAuthMeResult:
        """The signed-in user in the session's team

        `GET /api/v1/auth/me` (browserAuth.me)

        The user of the session cookie, with the team the session is in and the user's role there. 401 without a valid session.
        """
        return await self._client._call(OPERATIONS['browserAuth.me'], {})

    async def refresh(self, *, x_csrf_token: str | None = None) -> BrowserAuthRefreshResult:
        """Rotate the refresh token and mint a new access token

        `POST /api/v1/auth/refresh` (browserAuth.refresh)

        Every refresh rotates `svc_refresh`. Presenting a token that was already rotated is treated as theft: the whole session (the token family) is revoked, its access token included. Of parallel refreshes of one token at most one succeeds.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.refresh'], {'X-CSRF-Token': x_csrf_token})

    async def register_from_invite(self, *, body: BrowserAuthRegisterFromInviteBody) -> BrowserAuthRegisterFromInviteResult:
        """Door B: join a team with an invite token

        `POST /api/v1/auth/register-from-invite` (browserAuth.registerFromInvite)

        Consumes the invite token (single use, 7 days) for the address it was sent to and joins its team with its role. The address counts as verified. Someone who already has an account gives that account's password and joins with it; the name is then ignored. An invalid, used, revoked or expired token gives 401.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['browserAuth.registerFromInvite'], {}, body=body)

    async def register_owner(self, *, body: BrowserAuthRegisterOwnerBody) -> BrowserAuthRegisterOwnerResult:
        """Door A: create an account and a team

        `POST /api/v1/auth/register-owner` (browserAuth.registerOwner)

        Creates the user, the team (slug: 3 to 40 lower-case letters, digits and single hyphens) and makes the user its owner (`*`). The team has no paid plan yet (sites can be created once it has chosen one with `POST /v1/billing/subscription` and paid its first invoice). A verification e-mail is sent; signing in answers 422 until the address is verified. Passwords: 8 to 128 characters after NFKC normalisation. An e-mail or slug already in use gives 422 `validation_error` naming the field.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['browserAuth.registerOwner'], {}, body=body)

    async def request_email_verification(self, *, body: BrowserAuthRequestEmailVerificationBody) -> BrowserAuthRequestEmailVerificationResult:
        """Send a new verification link

        `POST /api/v1/auth/email/verification/request` (browserAuth.requestEmailVerification)

        The link is valid 24 hours and works once. Known and unknown addresses get the same answer in the same time: the request only queues a job, and the worker looks the address up. Rate limited per IP and per address.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['browserAuth.requestEmailVerification'], {}, body=body)

    async def request_password_reset(self, *, body: BrowserAuthRequestPasswordResetBody) -> BrowserAuthRequestPasswordResetResult:
        """Send a password reset link

        `POST /api/v1/auth/password-reset/request` (browserAuth.requestPasswordReset)

        The link is valid 30 minutes and works once; links are built from PUBLIC_URL, never from the request. Known and unknown addresses get the same answer in the same time: the request only queues a job, and the worker looks the address up. Rate limited per IP and per address.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['browserAuth.requestPasswordReset'], {}, body=body)

    async def revoke_trusted_device(self, *, body: BrowserAuthRevokeTrustedDeviceBody, x_csrf_token: str | None = None) -> BrowserAuthRevokeTrustedDeviceResult:
        """Revoke one of the caller's trusted devices

        `POST /api/v1/auth/trusted-devices/revoke` (browserAuth.revokeTrustedDevice)

        Sets `revoked_at` and ends every session of the user on that device (its fingerprint), this one included when it is that device; the next sign-in from it needs an e-mailed code again. Another user's device id answers 404 like an unknown one. Revoking a device that is already revoked changes nothing.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.revokeTrustedDevice'], {'X-CSRF-Token': x_csrf_token}, body=body)

    async def setup_totp(self, *, x_csrf_token: str | None = None) -> BrowserAuthSetupTotpResult:
        """Start TOTP enrolment: a secret, its otpauth URI and ten backup codes

        `POST /api/v1/auth/totp/setup` (browserAuth.setupTotp)

        Needs a fully signed-in session. The secret (20 random bytes, base32) is stored sealed (AES-256-GCM under SECRET_KEY) as a *pending* secret, and the ten 8-digit backup codes are stored only as HMAC-SHA256 under a key derived from SECRET_KEY, also pending. Two-factor authentication stays off until `/totp/verify` accepts a code of this secret. Calling setup again replaces the pending secret and codes. With TOTP already enabled it answers 422; disabling and re-enrolling are not offered yet.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.setupTotp'], {'X-CSRF-Token': x_csrf_token})

    async def status(self) -> BrowserAuthStatusResult:
        """Service status

        `GET /api/v1/auth/status` (browserAuth.status)

        Checks Postgres and Redis (1.5 s each). `operational` when both answer, else 503 `degraded` with the failing check.
        """
        return await self._client._call(OPERATIONS['browserAuth.status'], {})

    async def use_backup_code(self, *, body: BrowserAuthUseBackupCodeBody, x_csrf_token: str | None = None) -> BrowserAuthUseBackupCodeResult:
        """Use a backup code instead of a TOTP code

        `POST /api/v1/auth/totp/backup` (browserAuth.useBackupCode)

        Allowed while the session waits for its second factor, which an unused backup code completes. Each code works once: it is consumed by one conditional update, so of two parallel uses only one succeeds. Codes of a setup not yet verified do not work. On a session that waits for nothing, a valid code is still used up. Under the account throttle: a wrong, replayed or used code counts as a failure; after 5 consecutive failures of any factor (passwords included) the account locks for 1 minute, doubling to 15, and while locked every code, even a right one, gets the same 401 as a wrong one (and sign-in the same 401 as a wrong password). Parallel attempts are judged one at a time, so a burst cannot outrun the lock. A success resets the count.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.useBackupCode'], {'X-CSRF-Token': x_csrf_token}, body=body)

    async def verify_totp(self, *, body: BrowserAuthVerifyTotpBody, x_csrf_token: str | None = None) -> BrowserAuthVerifyTotpResult:
        """Check a TOTP code: finish enrolment, or complete a session that waits for its second factor

        `POST /api/v1/auth/totp/verify` (browserAuth.verifyTotp)

        Allowed while the session waits for its second factor. Once TOTP is enabled, every session `/session-exchange` issues waits for it: all other endpoints except `/totp/backup`, `/logout` and `/status` answer 401 `totp_required` (a refresh works but the session keeps waiting). Here a current code completes it. Without TOTP enabled and with a setup in progress, a code of the pending secret enables TOTP and makes the backup codes live. On a session that waits for nothing, a valid code is only checked. Codes are RFC 6238 (HMAC-SHA1, 30-second steps, 6 digits); the current step and one step either side are accepted, and each step's code works once (a code of a step at or before the last accepted one is refused). Under the account throttle: a wrong, replayed or used code counts as a failure; after 5 consecutive failures of any factor (passwords included) the account locks for 1 minute, doubling to 15, and while locked every code, even a right one, gets the same 401 as a wrong one (and sign-in the same 401 as a wrong password). Parallel attempts are judged one at a time, so a burst cannot outrun the lock. A success resets the count.

        **CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.

        Args:
            x_csrf_token: The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.
        """
        return await self._client._call(OPERATIONS['browserAuth.verifyTotp'], {'X-CSRF-Token': x_csrf_token}, body=body)


__all__ = ['BrowserAuthApi', 'AsyncBrowserAuthApi']
