"""Typed models of the Berth API. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class ActivityGetResult(TypedDict):
    id: int
    #: `<resource>.<verb>`: the route's declared action for /v1 requests, `auth.*`, `team.created`,
    #: `member.joined` for auth events
    action: str
    #: `denied`: answered 401 or 403; `failed`: any other error
    outcome: Literal['success', 'denied', 'failed']
    #: The HTTP status answered; null for auth events, recorded by the change itself
    status: int | None
    actor: ActivityGetResultActor
    target: ActivityGetResultTarget
    #: The address the server saw
    ip: str | None
    user_agent: str | None
    #: The `X-Request-Id` of the request
    request_id: str | None
    #: A few facts (method and path, error code); never a body, password, token or code
    metadata: dict[str, Any]
    #: ISO 8601 UTC
    created_at: str


class ActivityGetResultActor(TypedDict):
    user_id: int | None
    #: The user's name when the entry was written
    name: str | None
    #: The user's e-mail address when the entry was written
    email: str | None
    #: `session`: a signed-in session (or the sign-in opening it); `api_token`; `credentials`: an
    #: auth request carrying a password, an e-mailed token or code instead of a session; `system`:
    #: Berth itself
    via: Literal['session', 'api_token', 'credentials', 'system']
    api_token_id: int | None


class ActivityGetResultTarget(TypedDict):
    type: str
    id: str | None


class ActivityListItem(TypedDict):
    id: int
    #: `<resource>.<verb>`: the route's declared action for /v1 requests, `auth.*`, `team.created`,
    #: `member.joined` for auth events
    action: str
    #: `denied`: answered 401 or 403; `failed`: any other error
    outcome: Literal['success', 'denied', 'failed']
    #: The HTTP status answered; null for auth events, recorded by the change itself
    status: int | None
    actor: ActivityListItemActor
    target: ActivityListItemTarget
    #: The address the server saw
    ip: str | None
    user_agent: str | None
    #: The `X-Request-Id` of the request
    request_id: str | None
    #: A few facts (method and path, error code); never a body, password, token or code
    metadata: dict[str, Any]
    #: ISO 8601 UTC
    created_at: str


class ActivityListItemActor(TypedDict):
    user_id: int | None
    #: The user's name when the entry was written
    name: str | None
    #: The user's e-mail address when the entry was written
    email: str | None
    #: `session`: a signed-in session (or the sign-in opening it); `api_token`; `credentials`: an
    #: auth request carrying a password, an e-mailed token or code instead of a session; `system`:
    #: Berth itself
    via: Literal['session', 'api_token', 'credentials', 'system']
    api_token_id: int | None


class ActivityListItemTarget(TypedDict):
    type: str
    id: str | None


class Addon(TypedDict):
    id: int
    code: str
    name: str
    #: The price of one unit per interval before tax, in integer minor units of `currency` (cents)
    price_minor: int
    currency: str
    interval: Literal['month', 'year']
    #: What one unit adds to the plan's limits
    adds: AddonAdds
    active: bool
    #: ISO 8601 UTC
    updated_at: str


class AddonAdds(TypedDict):
    """What one unit adds to the plan's limits"""
    extra_sites: int
    extra_disk_bytes: int
    extra_backups_manual_keep: int
    extra_backups_scheduled_keep: int


class AddonsCreateBody(TypedDict):
    #: What teams buy, in `PUT /v1/billing/subscription/addons/{code}`
    code: str
    name: str
    #: The price of one unit per interval before tax, in minor units
    price_minor: int
    #: ISO 4217; only plans in this currency can have it
    currency: str
    #: Only plans with this interval can have it
    interval: Literal['month', 'year']
    #: Sites one unit adds to `max_sites`
    extra_sites: NotRequired[int]
    #: Bytes one unit adds to `max_disk_bytes`
    extra_disk_bytes: NotRequired[int]
    #: Manual backups one unit adds to those kept per environment
    extra_backups_manual_keep: NotRequired[int]
    #: Scheduled backups one unit adds to those kept per environment
    extra_backups_scheduled_keep: NotRequired[int]
    #: Inactive add-ons cannot be bought or increased; teams holding one keep it
    active: NotRequired[bool]


class AddonsUpdateBody(TypedDict):
    name: NotRequired[str]
    #: The price of one unit per interval before tax, in minor units
    price_minor: NotRequired[int]
    #: Sites one unit adds to `max_sites`
    extra_sites: NotRequired[int]
    #: Bytes one unit adds to `max_disk_bytes`
    extra_disk_bytes: NotRequired[int]
    #: Manual backups one unit adds to those kept per environment
    extra_backups_manual_keep: NotRequired[int]
    #: Scheduled backups one unit adds to those kept per environment
    extra_backups_scheduled_keep: NotRequired[int]
    #: Inactive add-ons cannot be bought or increased; teams holding one keep it
    active: NotRequired[bool]


class AdminCreditNote(TypedDict):
    id: int
    #: Gapless per year in its own series: <prefix>-CN-<year>-<sequence>
    number: str
    invoice_id: int
    status: Literal['issued']
    currency: str
    #: Credited, tax included, in integer minor units of `currency` (cents)
    amount_minor: int
    #: The part of it that is tax, in integer minor units of `currency` (cents)
    tax_minor: int
    reason: str
    #: `pending` (asked of the provider, or settling), `refunded`, `failed` (see `refund_failure`;
    #: an operator retries it), `not_applicable` (manual provider, a Stripe invoice marked paid by
    #: hand, or a credit without a refund)
    refund_status: Literal['pending', 'refunded', 'failed', 'not_applicable']
    #: The provider's reason for the last failed refund
    refund_failure: str | None
    refunded_at: str | None
    #: ISO 8601 UTC
    created_at: str
    team_id: int
    #: The provider's refund (Stripe's `re_` id)
    provider_ref: str | None


class AgentEnrollBody(TypedDict):
    enrollment_token: str
    #: JWK of the Ed25519 public key
    public_key: AgentEnrollBodyPublicKey
    agent_version: str
    facts: AgentEnrollBodyFacts


class AgentEnrollBodyFacts(TypedDict):
    hostname: str
    #: e.g. "Debian GNU/Linux 12 (bookworm)"
    os: str
    #: e.g. "x86_64"
    arch: str
    #: What the Docker Engine API on the configured socket reports
    docker: AgentEnrollBodyFactsDocker


class AgentEnrollBodyFactsDocker(TypedDict):
    """What the Docker Engine API on the configured socket reports"""
    version: str
    api_version: str


class AgentEnrollBodyPublicKey(TypedDict):
    """JWK of the Ed25519 public key"""
    kty: Literal['OKP']
    crv: Literal['Ed25519']
    x: str


class AgentEnrollResult(TypedDict):
    node_id: str
    node_name: str


class AgentError(TypedDict):
    error: AgentErrorError
    meta: ResponseMeta


class AgentErrorError(TypedDict):
    code: Literal['VALIDATION_ERROR', 'AUTHENTICATION_ERROR', 'AUTHORIZATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'PROTOCOL_MISMATCH', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR']
    message: str
    details: ErrorDetails


class AgentHeartbeatBody(TypedDict):
    agent_version: str
    metrics: AgentHeartbeatBodyMetrics
    running: NotRequired[list[str]]
    started_at: NotRequired[str]
    sftp: NotRequired[AgentHeartbeatBodySftp]


class AgentHeartbeatBodyMetrics(TypedDict):
    cpu_percent: float
    load_average: list[float]
    memory: AgentHeartbeatBodyMetricsMemory
    disk: AgentHeartbeatBodyMetricsDisk
    containers: AgentHeartbeatBodyMetricsContainers


class AgentHeartbeatBodyMetricsContainers(TypedDict):
    running: int
    total: int


class AgentHeartbeatBodyMetricsDisk(TypedDict):
    total_bytes: int
    used_bytes: int
    path: str


class AgentHeartbeatBodyMetricsMemory(TypedDict):
    total_bytes: int
    used_bytes: int


class AgentHeartbeatBodySftp(TypedDict):
    port: int
    #: The host key, an OpenSSH public key line
    host_key: str
    host_key_fingerprint: str


class AgentHeartbeatResult(TypedDict):
    node_status: Literal['enrolling', 'online', 'offline', 'draining', 'disabled']


class AgentPollCommandsResult(TypedDict):
    commands: list[AgentPollCommandsResultCommandsItem]


class AgentPollCommandsResultCommandsItem(TypedDict):
    id: str
    kind: str
    payload: Any
    deadline_at: str
    #: 1 on the first delivery, more when redelivered
    delivery: int


class AgentReportProgressBody(TypedDict):
    progress: NotRequired[int]
    logs: NotRequired[list[AgentReportProgressBodyLogsItem]]


class AgentReportProgressBodyLogsItem(TypedDict):
    stream: Literal['info', 'stdout', 'stderr']
    line: str


class AgentReportProgressResult(TypedDict):
    ok: Literal[True]


class AgentReportResultBodyOption1(TypedDict):
    status: Literal['succeeded']
    result: Any


class AgentReportResultBodyOption2(TypedDict):
    status: Literal['failed']
    error: AgentReportResultBodyOption2Error


class AgentReportResultBodyOption2Error(TypedDict):
    message: str
    exit_code: NotRequired[int | None]
    stderr_tail: NotRequired[str | None]
    permanent: NotRequired[bool]


class AgentReportResultResult(TypedDict):
    id: str
    status: Literal['succeeded', 'failed']


class AgentShipLogsBody(TypedDict):
    batch_id: str
    read_at: str
    files: list[AgentShipLogsBodyFilesItem]


class AgentShipLogsBodyFilesItem(TypedDict):
    environment_id: int
    file: Literal['access', 'error', 'php']
    lines: list[str]


class AgentShipLogsResult(TypedDict):
    stored: int
    dropped: int


class AgentUploadStreamPartResult(TypedDict):
    ok: Literal[True]


class ApiTokensCreateBody(TypedDict):
    #: What the token is for, 1 to 100 characters
    name: str
    #: The grants of the token: each exact (`sites:read`), `<resource>:*` or `*`, and each held by
    #: the caller. The token may do what both these grants and its creator's role (read on every
    #: request) allow.
    permissions: list[str]
    #: Days until the token expires, 1 to 365; `null` for a token that never expires; absent: 90. A
    #: token created with an API token cannot outlive it.
    expires_in_days: NotRequired[int | None]


class ApiTokensCreateResult(TypedDict):
    id: int
    name: str
    #: The first characters of the secret (`berth_pat_` and 8 more), to recognise it
    prefix: str
    permissions: list[str]
    #: null: never expires. An expired token stays listed (it answers 401) until revoked
    expires_at: str | None
    #: When it last authenticated a request, to the minute
    last_used_at: str | None
    last_used_ip: str | None
    #: ISO 8601, UTC
    created_at: str
    #: null, but in the answer to `DELETE`
    revoked_at: str | None
    created_by: ApiTokensCreateResultCreatedBy
    #: The secret, `berth_pat_` and 43 characters: shown in this answer only, never again. Send it
    #: as `Authorization: Bearer <token>`. `null` only in the replay of a repeated request (same
    #: Idempotency-Key, `Idempotent-Replayed: true`): the secret is not kept for replays; revoke
    #: that token and create another.
    token: str | None


class ApiTokensCreateResultCreatedBy(TypedDict):
    user_id: int
    name: str


class ApiTokensGetResult(TypedDict):
    id: int
    name: str
    #: The first characters of the secret (`berth_pat_` and 8 more), to recognise it
    prefix: str
    permissions: list[str]
    #: null: never expires. An expired token stays listed (it answers 401) until revoked
    expires_at: str | None
    #: When it last authenticated a request, to the minute
    last_used_at: str | None
    last_used_ip: str | None
    #: ISO 8601, UTC
    created_at: str
    #: null, but in the answer to `DELETE`
    revoked_at: str | None
    created_by: ApiTokensGetResultCreatedBy


class ApiTokensGetResultCreatedBy(TypedDict):
    user_id: int
    name: str


class ApiTokensListItem(TypedDict):
    id: int
    name: str
    #: The first characters of the secret (`berth_pat_` and 8 more), to recognise it
    prefix: str
    permissions: list[str]
    #: null: never expires. An expired token stays listed (it answers 401) until revoked
    expires_at: str | None
    #: When it last authenticated a request, to the minute
    last_used_at: str | None
    last_used_ip: str | None
    #: ISO 8601, UTC
    created_at: str
    #: null, but in the answer to `DELETE`
    revoked_at: str | None
    created_by: ApiTokensListItemCreatedBy


class ApiTokensListItemCreatedBy(TypedDict):
    user_id: int
    name: str


class ApiTokensRevokeResult(TypedDict):
    id: int
    name: str
    #: The first characters of the secret (`berth_pat_` and 8 more), to recognise it
    prefix: str
    permissions: list[str]
    #: null: never expires. An expired token stays listed (it answers 401) until revoked
    expires_at: str | None
    #: When it last authenticated a request, to the minute
    last_used_at: str | None
    last_used_ip: str | None
    #: ISO 8601, UTC
    created_at: str
    #: null, but in the answer to `DELETE`
    revoked_at: str | None
    created_by: ApiTokensRevokeResultCreatedBy


class ApiTokensRevokeResultCreatedBy(TypedDict):
    user_id: int
    name: str


class AuthError(TypedDict):
    detail: str
    code: Literal['not_authenticated', 'totp_required', 'missing_permission', 'csrf_mismatch', 'device_approval_required', 'validation_error', 'concurrent_login_denied', 'rate_limit_exceeded', 'payload_too_large', 'not_found', 'internal_error']


class AuthLoginBody(TypedDict):
    #: With `password`; compared lower-cased and NFKC-normalised
    email: NotRequired[str]
    password: NotRequired[str]
    #: Instead of `email` and `password`: the `details.pre_auth_token` of a 403
    #: `device_approval_required` or `concurrent_login_pending`, to finish that sign-in once
    #: approved (valid 10 minutes, used once)
    pre_auth_token: NotRequired[str]
    #: One of your ACTIVE teams; may be left out when you have exactly one
    team_id: NotRequired[int]
    #: Required when two-factor authentication is on: the 6-digit code of your authenticator app
    totp_code: NotRequired[str]
    #: A stable id of this machine or script (8 to 128 characters), as
    #: `session_info.device_fingerprint` of the panel's sign-in. Left out: an unknown device every
    #: time
    device_fingerprint: NotRequired[str]


class AuthLoginResult(TypedDict):
    #: EdDSA JWT, the same kind as the panel session's `svc_access`; send as `Authorization: Bearer
    #: <token>`
    access_token: str
    token_type: Literal['Bearer']
    #: Seconds the access token is valid (6 hours)
    expires_in: int
    #: The session behind the token: see `GET /v1/sessions`
    session_id: str
    team_id: int
    user_id: int


class AuthUnverifiedEmailError(TypedDict):
    detail: str
    #: The address that must be verified first
    email: str
    code: Literal['validation_error']


class Backup(TypedDict):
    id: str
    site_id: int
    environment_id: int
    #: Who asked: a person (`manual`), a schedule, or Berth before a restore or a push to
    #: production
    kind: Literal['manual', 'scheduled', 'pre_restore', 'pre_push']
    #: `expired`: removed from the repository by the plan's retention
    status: Literal['pending', 'running', 'succeeded', 'failed', 'expired']
    note: str | None
    #: The restic snapshot in the environment's own repository (once it exists). A backup taken
    #: before repositories were per environment gets a new id when its environment's next backup
    #: moves it there
    snapshot_id: str | None
    #: The address the site answered at when the snapshot was taken; a restore rewrites it to the
    #: target's
    host: str | None
    #: Files and database dump read
    size_bytes: int | None
    #: What the snapshot added to the node's repository after deduplication
    added_bytes: int | None
    file_count: int | None
    #: The size of the database dump
    database_bytes: int | None
    #: For a failed backup: the step and what went wrong
    error: str | None
    operation_id: str | None
    schedule_id: int | None
    created_at: str
    finished_at: str | None


class BackupSchedule(TypedDict):
    id: int
    environment_id: int
    cron: str
    timezone: str
    enabled: bool
    #: ISO 8601 UTC: the next slot, when the scheduler will request its backup (null while
    #: disabled)
    next_run_at: str | None
    #: The last slot the scheduler handled: its backup was requested, or skipped because the
    #: environment was not active
    last_slot_at: str | None
    created_at: str
    updated_at: str


class BackupSchedulesCreateBody(TypedDict):
    #: Five fields, minute hour day-of-month month day-of-week (`30 2 * * *`: every day at 02:30).
    #: At most hourly: the minute field names one minute (`*/15 * * * *` is refused). No seconds
    #: field, no `@daily` aliases.
    cron: str
    #: The IANA time zone the expression is read in (`Europe/Berlin`); daylight saving time is
    #: followed
    timezone: NotRequired[str]
    #: A disabled schedule keeps its row and fires nothing
    enabled: NotRequired[bool]


class BackupSchedulesUpdateBody(TypedDict):
    #: Five fields, minute hour day-of-month month day-of-week (`30 2 * * *`: every day at 02:30).
    #: At most hourly: the minute field names one minute (`*/15 * * * *` is refused). No seconds
    #: field, no `@daily` aliases.
    cron: NotRequired[str]
    #: The IANA time zone the expression is read in (`Europe/Berlin`); daylight saving time is
    #: followed
    timezone: NotRequired[str]
    #: Enabling it again starts from the next slot after now; missed slots are not made up
    enabled: NotRequired[bool]


class BackupsCreateBody(TypedDict):
    #: A label for people, e.g. "before the theme update"
    note: NotRequired[str]


class BackupsCreateResult(TypedDict):
    backup: Backup
    operation: Operation


class BackupsDeleteResult(TypedDict):
    operation: Operation


class BackupsRestoreBody(TypedDict):
    #: The environment to restore onto (default: the one the backup is of); it must be on the same
    #: node
    target: NotRequired[Literal['production', 'staging', 'development']]
    #: Restore into a new site instead (its production environment), made on the backup's node;
    #: needs `sites:create` too
    new_site: NotRequired[BackupsRestoreBodyNewSite]


class BackupsRestoreBodyNewSite(TypedDict):
    """Restore into a new site instead (its production environment), made on the backup's node; needs `sites:create` too
    """
    name: str
    #: Part of every environment's default domain (`production-<slug>.<base domain>`); from the
    #: name when absent. Unique platform-wide.
    slug: NotRequired[str]


class BackupsRestoreResult(TypedDict):
    backup: Backup
    safety_backup: Backup | None
    site: NotRequired[Site]
    operation: Operation


class BillingCustomer(TypedDict):
    legal_name: str
    address_line1: str
    address_line2: str | None
    postal_code: str
    city: str
    region: str | None
    #: ISO 3166-1 alpha-2
    country: str
    tax_id: str | None


class BillingProfile(TypedDict):
    #: false: the team has not given its billing details yet (every other field null); its invoices
    #: are made out to the team's name
    complete: bool
    legal_name: str | None
    invoice_email: str | None
    address_line1: str | None
    address_line2: str | None
    postal_code: str | None
    city: str | None
    region: str | None
    country: str | None
    tax_id: str | None
    #: ISO 8601 UTC
    updated_at: str | None


class BillingProfileReplaceBody(TypedDict):
    #: The name invoices are made out to (the company's registered name)
    legal_name: str
    #: Where invoices and credit notes are mailed (only there); null: to the team's owners and
    #: billing members
    invoice_email: NotRequired[str | None]
    address_line1: str
    address_line2: NotRequired[str | None]
    postal_code: str
    city: str
    #: State, province or county, where addresses have one
    region: NotRequired[str | None]
    #: ISO 3166-1 alpha-2
    country: str
    #: VAT or tax id, stored in upper case without spaces. In an EU country, a VAT id with its
    #: prefix in that country's format (`DE123456789`; Greece `EL`); only the format is checked
    tax_id: NotRequired[str | None]


class BrowserAuthApproveConcurrentLoginBody(TypedDict):
    #: The token of the 423 `concurrent_login_pending` answer, also in the e-mail and in GET
    #: /concurrent-login/requests
    token: str


class BrowserAuthApproveConcurrentLoginResult(TypedDict):
    status: Literal['approved']


class BrowserAuthApproveDeviceBody(TypedDict):
    pre_auth_token: str
    device_fingerprint: str
    otp_code: str


class BrowserAuthApproveDeviceResult(TypedDict):
    message: str


class BrowserAuthApproveLoginBody(TypedDict):
    #: The alert token, from the link of the suspicious-login e-mail
    token: str


class BrowserAuthApproveLoginResult(TypedDict):
    status: Literal['approved']


class BrowserAuthChallengeDeviceBody(TypedDict):
    pre_auth_token: str
    device_fingerprint: str
    #: What the client says; the server records the address it saw
    ip: NotRequired[str]
    #: What the client says; the server records the User-Agent header
    user_agent: NotRequired[str]


class BrowserAuthChallengeDeviceResult(TypedDict):
    message: str


class BrowserAuthConfirmEmailVerificationBody(TypedDict):
    token: str


class BrowserAuthConfirmEmailVerificationResult(TypedDict):
    message: str


class BrowserAuthConfirmPasswordResetBody(TypedDict):
    token: str
    new_password: str
    #: Also revoke every API token the user created, in every team (default true: whoever took the
    #: password may have made some)
    revoke_api_tokens: NotRequired[bool]


class BrowserAuthConfirmPasswordResetResult(TypedDict):
    message: str


class BrowserAuthDenyConcurrentLoginBody(TypedDict):
    #: The token of the 423 `concurrent_login_pending` answer, also in the e-mail and in GET
    #: /concurrent-login/requests
    token: str


class BrowserAuthDenyConcurrentLoginResult(TypedDict):
    status: Literal['denied']


class BrowserAuthDenyLoginBody(TypedDict):
    #: The alert token, from the link of the suspicious-login e-mail
    token: str


class BrowserAuthDenyLoginResult(TypedDict):
    status: Literal['denied']


class BrowserAuthExchangeSessionBody(TypedDict):
    pre_auth_token: str
    team_id: int
    session_info: BrowserAuthExchangeSessionBodySessionInfo


class BrowserAuthExchangeSessionBodySessionInfo(TypedDict):
    device_fingerprint: str
    ip: NotRequired[str]
    user_agent: NotRequired[str]
    geo: NotRequired[BrowserAuthExchangeSessionBodySessionInfoGeo]


class BrowserAuthExchangeSessionBodySessionInfoGeo(TypedDict):
    city: NotRequired[str]
    country: NotRequired[str]


class BrowserAuthExchangeSessionResult(TypedDict):
    user_id: int
    user_name: str
    team_id: int
    team_name: str
    role_id: int
    role_name: str
    #: Permission strings; the single entry `*` means all
    permissions: list[str]


class BrowserAuthListConcurrentLoginRequestsResult(TypedDict):
    requests: list[BrowserAuthListConcurrentLoginRequestsResultRequestsItem]


class BrowserAuthListConcurrentLoginRequestsResultRequestsItem(TypedDict):
    #: Decide with POST /concurrent-login/approve or /deny
    token: str
    team_id: int
    #: As the server saw it
    ip: str | None
    #: From the IP, by the offline GeoIP database; null when unknown
    country: str | None
    user_agent: str | None
    device_fingerprint: str | None
    #: ISO 8601 UTC
    created_at: str
    #: ISO 8601 UTC, 10 minutes after created_at
    expires_at: str


class BrowserAuthListLoginActivityResult(TypedDict):
    activity: list[BrowserAuthListLoginActivityResultActivityItem]
    pagination: BrowserAuthListLoginActivityResultPagination


class BrowserAuthListLoginActivityResultActivityItem(TypedDict):
    id: int
    event_type: Literal['login', 'refresh']
    #: As the server saw it
    ip: str | None
    user_agent: str | None
    device_fingerprint: str | None
    geo: BrowserAuthListLoginActivityResultActivityItemGeo
    #: ISO 8601, UTC
    created_at: str


class BrowserAuthListLoginActivityResultActivityItemGeo(TypedDict):
    city: str | None
    country: str | None


class BrowserAuthListLoginActivityResultPagination(TypedDict):
    page: int
    page_size: int
    total: int
    total_pages: int


class BrowserAuthListTrustedDevicesResult(TypedDict):
    devices: list[BrowserAuthListTrustedDevicesResultDevicesItem]


class BrowserAuthListTrustedDevicesResultDevicesItem(TypedDict):
    id: int
    #: From the user agent, such as "Firefox on Linux"
    device_label: str
    user_agent: str | None
    first_ip: str | None
    last_ip: str | None
    #: ISO 8601, UTC
    first_seen_at: str
    #: ISO 8601, UTC
    last_seen_at: str
    #: ISO 8601, UTC
    trusted_at: str
    #: null while the device is trusted
    revoked_at: str | None


class BrowserAuthLoginBody(TypedDict):
    email: str
    password: str
    remember_me: NotRequired[bool]


class BrowserAuthLoginResult(TypedDict):
    #: 48 characters, valid 10 minutes, usable once
    pre_auth_token: str
    teams: list[BrowserAuthLoginResultTeamsItem]


class BrowserAuthLoginResultTeamsItem(TypedDict):
    team_id: int
    team_name: str
    role_name: str
    #: ACTIVE or SUSPENDED
    status: str


class BrowserAuthLogoutResult(TypedDict):
    message: str


class BrowserAuthMeResult(TypedDict):
    user_id: int
    user_name: str
    team_id: int
    team_name: str
    role_id: int
    role_name: str
    #: Permission strings; the single entry `*` means all
    permissions: list[str]


class BrowserAuthRefreshResult(TypedDict):
    access_token: str
    refresh_token: str


class BrowserAuthRegisterFromInviteBody(TypedDict):
    invite_token: str
    email: str
    password: str
    name: str


class BrowserAuthRegisterFromInviteResult(TypedDict):
    user_id: int
    team_id: int
    message: str
    role_id: int
    role_name: str


class BrowserAuthRegisterOwnerBody(TypedDict):
    email: str
    password: str
    name: str
    team_name: str
    team_slug: str


class BrowserAuthRegisterOwnerResult(TypedDict):
    user_id: int
    team_id: int
    message: str


class BrowserAuthRequestEmailVerificationBody(TypedDict):
    email: str


class BrowserAuthRequestEmailVerificationResult(TypedDict):
    message: str


class BrowserAuthRequestPasswordResetBody(TypedDict):
    email: str


class BrowserAuthRequestPasswordResetResult(TypedDict):
    message: str


class BrowserAuthRevokeTrustedDeviceBody(TypedDict):
    device_id: int


class BrowserAuthRevokeTrustedDeviceResult(TypedDict):
    message: str


class BrowserAuthSetupTotpResult(TypedDict):
    #: 160-bit shared secret, base32 (RFC 4648, upper case, no padding), 32 characters
    secret: str
    #: `otpauth://totp/Berth:<e-mail>?secret=…&issuer=Berth&algorithm=SHA1&digits=6&period=30`, to
    #: show as a QR code
    qr_code_url: str
    #: Ten 8-digit codes, each usable once; shown only now
    backup_codes: list[str]


class BrowserAuthStatusResult(TypedDict):
    status: Literal['operational', 'degraded']
    checks: BrowserAuthStatusResultChecks


class BrowserAuthStatusResultChecks(TypedDict):
    postgres: Literal['ok', 'unavailable']
    redis: Literal['ok', 'unavailable']


class BrowserAuthUseBackupCodeBody(TypedDict):
    #: One of the 8-digit backup codes from /totp/setup
    backup_code: str


class BrowserAuthUseBackupCodeResult(TypedDict):
    message: str


class BrowserAuthVerifyTotpBody(TypedDict):
    #: The 6-digit code the authenticator app shows
    totp_code: str


class BrowserAuthVerifyTotpResult(TypedDict):
    message: str


class Certificate(TypedDict):
    id: str
    names: list[str]
    source: Literal['uploaded', 'acme']
    #: `installed` once the edge was seen presenting it
    status: Literal['pending', 'installed', 'failed']
    issuer: str
    fingerprint_sha256: str
    not_before: str
    not_after: str
    updated_at: str


class CertificatesIssueResult(TypedDict):
    operation: Operation


class CertificatesUploadBody(TypedDict):
    #: PEM: the site's certificate first, then its intermediates
    certificate_pem: str
    #: PEM, unencrypted; stored sealed, never shown again
    private_key_pem: str


class CertificatesUploadResult(TypedDict):
    certificate: Certificate
    operation: Operation


class CreditNote(TypedDict):
    id: int
    #: Gapless per year in its own series: <prefix>-CN-<year>-<sequence>
    number: str
    invoice_id: int
    status: Literal['issued']
    currency: str
    #: Credited, tax included, in integer minor units of `currency` (cents)
    amount_minor: int
    #: The part of it that is tax, in integer minor units of `currency` (cents)
    tax_minor: int
    reason: str
    #: `pending` (asked of the provider, or settling), `refunded`, `failed` (see `refund_failure`;
    #: an operator retries it), `not_applicable` (manual provider, a Stripe invoice marked paid by
    #: hand, or a credit without a refund)
    refund_status: Literal['pending', 'refunded', 'failed', 'not_applicable']
    #: The provider's reason for the last failed refund
    refund_failure: str | None
    refunded_at: str | None
    #: ISO 8601 UTC
    created_at: str


class CreditNotesCreateBody(TypedDict):
    #: Tax included; left out: all that is left of the invoice's total
    amount_minor: NotRequired[int]
    #: Why it is credited; printed on the credit note
    reason: str
    #: true: pay it back through the invoice's provider (Stripe refunds the card; manual:
    #: `not_applicable`, the operator transfers it). false: a credit only
    refund: bool


class Dispute(TypedDict):
    id: int
    #: Disputed, in integer minor units of `currency` (cents)
    amount_minor: int
    currency: str
    #: Stripe's reason, e.g. `fraudulent`
    reason: str
    #: Stripe's status: `needs_response`, `under_review`... while open; `won` or `lost` once closed
    status: str
    closed_at: str | None
    #: When Stripe closed it lost: its amount is in the invoice's `amount_lost_minor`
    lost_at: str | None
    #: ISO 8601 UTC
    created_at: str


class DnsRecordSet(TypedDict):
    name: str
    type: Literal['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV']
    ttl: int
    values: list[str]


class DnsRecordsCreateBody(TypedDict):
    #: Relative to the zone (`www`, `@`) or absolute inside it
    name: str
    type: Literal['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV']
    #: Seconds (default 3600)
    ttl: NotRequired[int]
    values: list[str]


class DnsRecordsListResult(TypedDict):
    records: list[DnsRecordSet]
    nameservers: list[str]


class DnsRecordsReplaceBody(TypedDict):
    #: Seconds (default 3600)
    ttl: NotRequired[int]
    values: list[str]


class DnsZone(TypedDict):
    id: int
    name: str
    nameservers: list[str]
    created_at: str


class DnsZonesCreateBody(TypedDict):
    #: The domain, such as example.com
    name: str


class Domain(TypedDict):
    id: int
    name: str
    #: `pending` until proven; `verified`: it holds the name; `lapsed`: not verified by
    #: `verify_by`; `superseded`: another claim proved control of the name first
    status: Literal['pending', 'verified', 'lapsed', 'superseded']
    verified_by: Literal['txt', 'hosted_zone'] | None
    verified_at: str | None
    #: When a pending claim lapses unverified (kept on a lapsed or superseded claim; null once
    #: verified)
    verify_by: str | None
    verification: DomainVerification
    created_at: str


class DomainVerification(TypedDict):
    type: Literal['TXT']
    name: str
    value: str


class DomainsCreateBody(TypedDict):
    #: The host name, such as www.example.com
    name: str


class DomainsCreateResult(TypedDict):
    domain: Domain


class DomainsDeleteResult(TypedDict):
    domain: Domain
    operation: Operation


class DomainsSetPrimaryBody(TypedDict):
    #: A verified domain of the environment, or null for its default address
    domain_id: int | None


class DomainsSetPrimaryResult(TypedDict):
    primary: str
    operation: Operation


class DomainsVerifyResult(TypedDict):
    domain: Domain
    operation: Operation


class DunningAttempt(TypedDict):
    #: Its place in the schedule, from 1; a number is skipped when the sweep missed its day (no
    #: burst afterwards)
    attempt: int
    #: The due date plus that day of the schedule
    scheduled_for: str
    #: ISO 8601 UTC
    attempted_at: str
    #: `reminded` (manual: a reminder mailed), `charge_succeeded` (the saved card paid it),
    #: `charge_failed` (see `failure_reason`; mailed), `charge_pending` (the payment is
    #: processing); null while the attempt is under way
    outcome: Literal['reminded', 'charge_succeeded', 'charge_failed', 'charge_pending'] | None
    #: The provider's reason for a failed charge (a decline message, or `no saved card`)
    failure_reason: str | None


class Entitlements(TypedDict):
    plan: str
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int
    team_id: int
    #: ISO 8601 UTC
    updated_at: str


class EntitlementsSetBody(TypedDict):
    plan: str
    max_sites: int
    max_disk_bytes: int
    #: The memory cap of each environment's container made from now on (default 512 MiB); existing
    #: ones keep theirs
    environment_memory_bytes: NotRequired[int]
    #: The CPU of each environment's container made from now on, in thousandths of a core (default
    #: 1000 = one core): a ceiling, and its weight against the node's other sites when the node is
    #: busy; existing ones keep theirs
    environment_cpu_millicores: NotRequired[int]
    #: Scheduled backups kept per environment (older ones expire after each backup)
    backups_scheduled_keep: NotRequired[int]
    #: Manual backups kept per environment, and as many of each automatic kind (before a restore,
    #: before a push)
    backups_manual_keep: NotRequired[int]


class Environment(TypedDict):
    id: int
    #: Also its name in paths: /v1/sites/{id}/environments/{kind}
    kind: Literal['production', 'staging', 'development']
    status: Literal['creating', 'active', 'failed', 'deleting']
    #: Its default address: `<kind>-<slug>.<base domain>`
    domain: str
    #: The custom domain WordPress answers at (PUT …/primary-domain); null: the default address
    primary_domain: str | None
    #: Where the site answers: its primary domain, or its default address
    url: str
    php_version: str
    #: Its container's memory cap, from the team's plan when it was made
    memory_limit_bytes: int
    #: Its container's CPU in thousandths of a core (1000 = one core): the most it may use, and its
    #: weight when the node is busy; from the team's plan when it was made
    cpu_limit_millicores: int
    #: HTTPS at the edge
    https: EnvironmentHttps
    #: HTTP basic auth at the edge (PUT …/password-protection); the password is never shown again
    password_protection: EnvironmentPasswordProtection
    #: What it runs, as last read after an operation on it (null before its first); details at
    #: .../wordpress
    wordpress: EnvironmentWordpress | None
    #: The edge's page cache (PATCH …/cache; on by default for production): docs/api/edge.md
    page_cache: EnvironmentPageCache
    #: ISO 8601 UTC
    created_at: str
    #: ISO 8601 UTC
    updated_at: str


class EnvironmentHttps(TypedDict):
    """HTTPS at the edge"""
    #: HTTPS forced (the default once an installed certificate covers the address): PATCH …/https
    force: bool
    #: The scheme WordPress's URLs use now; https while HTTPS is forced and covered
    url_scheme: Literal['http', 'https']
    #: Strict-Transport-Security max-age sent over HTTPS while forced (0: none); a year on
    #: production, none elsewhere by default
    hsts_max_age_seconds: int


class EnvironmentLogLine(TypedDict):
    #: Increasing as lines are stored; the live tail sends it as the event id
    id: int
    #: ISO 8601 UTC: the line's own time where it has one, else when the agent read it
    time: str
    line: str


class EnvironmentPageCache(TypedDict):
    """The edge's page cache (PATCH …/cache; on by default for production): docs/api/edge.md"""
    enabled: bool
    #: Path prefixes never cached
    exclusions: list[str]


class EnvironmentPasswordProtection(TypedDict):
    """HTTP basic auth at the edge (PUT …/password-protection); the password is never shown again"""
    enabled: bool
    username: str | None


class EnvironmentWordpress(TypedDict):
    version: str
    php_version: str
    blogname: str
    plugins: int
    themes: int
    #: ISO 8601 UTC
    checked_at: str


class EnvironmentsCreateBody(TypedDict):
    #: The environment to add; production comes with the site
    kind: Literal['staging', 'development']
    #: The environment it starts as a copy of
    source: NotRequired[Literal['production', 'staging', 'development']]


class EnvironmentsCreateResult(TypedDict):
    environment: Environment
    operation: Operation
    password_protection: EnvironmentsCreateResultPasswordProtection


class EnvironmentsCreateResultPasswordProtection(TypedDict):
    username: str
    password: str | None


class EnvironmentsDeleteResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsHttpsBody(TypedDict):
    #: Redirect HTTP to HTTPS (301, ACME challenges excepted) and move WordPress's URLs to https;
    #: false moves them back. Needs an installed certificate covering the address (409).
    force: NotRequired[bool]
    #: Strict-Transport-Security max-age while forced; 0 sends none. Browsers keep it: lower it
    #: before turning forcing off.
    hsts_max_age_seconds: NotRequired[int]


class EnvironmentsHttpsResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsLogsResult(TypedDict):
    #: Newest first
    lines: list[EnvironmentLogLine]
    #: Pass as `cursor` for the older lines; null when there are none
    next_cursor: str | None


class EnvironmentsPageCacheBody(TypedDict):
    #: Cache pages at the edge
    enabled: NotRequired[bool]
    #: Path prefixes never cached (replaces the list; at most 50, each at most 200 characters)
    exclusions: NotRequired[list[str]]


class EnvironmentsPageCacheResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsPasswordProtectionBody(TypedDict):
    #: true: HTTP basic auth in front of the whole environment (ACME challenges excepted); false:
    #: open
    enabled: bool
    #: Kept when omitted
    username: NotRequired[str]
    #: 8 to 128 characters; only its SHA-512-crypt hash is kept. Kept when omitted.
    password: NotRequired[str]


class EnvironmentsPasswordProtectionResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsPurgePageCacheBody(TypedDict):
    #: Only these pages (at most 100); absent or empty: every cached page of the environment
    paths: NotRequired[list[str]]


class EnvironmentsPurgePageCacheResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsPushBody(TypedDict):
    #: The environment that receives the copy
    target: Literal['production', 'staging', 'development']
    #: Copy the files (the target keeps its own wp-config.php)
    files: NotRequired[bool]
    #: Copy the database, its URLs rewritten to the target's
    database: NotRequired[bool]


class EnvironmentsPushResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsRestartResult(TypedDict):
    environment: Environment
    operation: Operation


class EnvironmentsUpdateBody(TypedDict):
    #: One of GET /v1/sites/php-versions; the container is recreated, files and database stay
    php_version: str


class EnvironmentsUpdateResult(TypedDict):
    environment: Environment
    operation: Operation


class Error(TypedDict):
    error: ErrorError
    meta: ResponseMeta


class ErrorDetails(TypedDict):
    #: Tells apart the causes that share a code: `missing_permission`, `totp_required`,
    #: `device_approval_required`, `concurrent_login_pending`, `concurrent_login_denied`,
    #: `email_not_verified`, `csrf_mismatch`, `malformed_path`, `upload_quota`,
    #: `fingerprint_mismatch` and `in_progress` (Idempotency-Key), a conflict's own reason
    #: (`subscription_exists`, ...)
    reason: NotRequired[str]
    #: VALIDATION_ERROR (422): each field that failed and why
    fields: NotRequired[list[ErrorDetailsFieldsItem]]
    #: AUTHORIZATION_ERROR `missing_permission`: the permission that was needed
    permission: NotRequired[str]
    #: PAYMENT_REQUIRED: the limit reached (`plan`, `max_sites`, `max_disk_bytes`, ...)
    limit: NotRequired[str]
    #: RATE_LIMIT_EXCEEDED: as the Retry-After header
    retry_after_seconds: NotRequired[int]
    #: UPSTREAM_ERROR: the service that failed
    service: NotRequired[str]
    #: `device_approval_required` and `concurrent_login_pending`: finishes that sign-in once
    #: approved
    pre_auth_token: NotRequired[str]
    #: `device_approval_required`: the device to approve
    device_fingerprint: NotRequired[str]
    #: `concurrent_login_pending`: what the live session approves with
    token: NotRequired[str]


class ErrorDetailsFieldsItem(TypedDict):
    #: Dotted path of the field; empty for the body as a whole
    field: str
    message: str


class ErrorError(TypedDict):
    code: Literal['VALIDATION_ERROR', 'INVALID_SIGNATURE', 'AUTHENTICATION_ERROR', 'AUTHORIZATION_ERROR', 'PAYMENT_REQUIRED', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'RATE_LIMIT_EXCEEDED', 'UPSTREAM_ERROR', 'INTERNAL_ERROR']
    #: For people; may change. Programs branch on `code` and `details.reason`
    message: str
    details: ErrorDetails


class InvitesCreateBody(TypedDict):
    #: Who to invite; the invitation is mailed there and can only be accepted with this address
    email: str
    #: The role the invitee gets: built-in or one of the team's own, whose grants the caller holds
    role_id: int


class InvitesCreateResult(TypedDict):
    id: int
    email: str
    #: `pending` until accepted, revoked or past `expires_at` (`expired`, which a resend reopens)
    status: Literal['pending', 'accepted', 'revoked', 'expired']
    role: InvitesCreateResultRole
    #: null when the inviter's account is gone
    invited_by: InvitesCreateResultInvitedBy | None
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    expires_at: str
    accepted_at: str | None
    revoked_at: str | None


class InvitesCreateResultInvitedBy(TypedDict):
    user_id: int
    name: str


class InvitesCreateResultRole(TypedDict):
    id: int
    name: str


class InvitesListItem(TypedDict):
    id: int
    email: str
    #: `pending` until accepted, revoked or past `expires_at` (`expired`, which a resend reopens)
    status: Literal['pending', 'accepted', 'revoked', 'expired']
    role: InvitesListItemRole
    #: null when the inviter's account is gone
    invited_by: InvitesListItemInvitedBy | None
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    expires_at: str
    accepted_at: str | None
    revoked_at: str | None


class InvitesListItemInvitedBy(TypedDict):
    user_id: int
    name: str


class InvitesListItemRole(TypedDict):
    id: int
    name: str


class InvitesResendResult(TypedDict):
    id: int
    email: str
    #: `pending` until accepted, revoked or past `expires_at` (`expired`, which a resend reopens)
    status: Literal['pending', 'accepted', 'revoked', 'expired']
    role: InvitesResendResultRole
    #: null when the inviter's account is gone
    invited_by: InvitesResendResultInvitedBy | None
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    expires_at: str
    accepted_at: str | None
    revoked_at: str | None


class InvitesResendResultInvitedBy(TypedDict):
    user_id: int
    name: str


class InvitesResendResultRole(TypedDict):
    id: int
    name: str


class InvitesRevokeResult(TypedDict):
    id: int
    email: str
    #: `pending` until accepted, revoked or past `expires_at` (`expired`, which a resend reopens)
    status: Literal['pending', 'accepted', 'revoked', 'expired']
    role: InvitesRevokeResultRole
    #: null when the inviter's account is gone
    invited_by: InvitesRevokeResultInvitedBy | None
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    expires_at: str
    accepted_at: str | None
    revoked_at: str | None


class InvitesRevokeResultInvitedBy(TypedDict):
    user_id: int
    name: str


class InvitesRevokeResultRole(TypedDict):
    id: int
    name: str


class Invoice(TypedDict):
    id: int
    #: Assigned at finalization, gapless per year: <prefix>-<year>-<sequence>
    number: str
    status: Literal['open', 'paid', 'void', 'uncollectible']
    currency: str
    #: Before tax, in integer minor units of `currency` (cents)
    subtotal_minor: int
    #: Tax, in integer minor units of `currency` (cents)
    tax_minor: int
    #: What is owed: subtotal + tax, in integer minor units of `currency` (cents)
    total_minor: int
    period_start: str | None
    period_end: str | None
    subscription_id: int | None
    provider: str
    #: ISO 8601 UTC
    finalized_at: str
    #: ISO 8601 UTC
    due_at: str
    paid_at: str | None
    voided_at: str | None
    marked_uncollectible_at: str | None
    #: When the provider last failed to collect it (a declined card); it stays open
    payment_failed_at: str | None
    #: The provider's reason for that failure
    payment_failure: str | None
    #: Who it is billed to: the team's billing profile as it was when the invoice was finalized (a
    #: later change of the profile does not change it); null: the team had none then
    customer: BillingCustomer | None
    #: What the tax needs said on the invoice when its tax is 0 % because of where the customer is:
    #: the EU reverse-charge note, or that VAT does not apply outside the EU
    tax_note: str | None
    #: What its credit notes credit, tax included (never above the total), in integer minor units
    #: of `currency` (cents)
    amount_credited_minor: int
    #: A paid invoice with credit notes: `refunded` when they credit its whole total, else
    #: `partially_refunded`; null without any (the invoice stays `paid` either way)
    refund_state: Literal['partially_refunded', 'refunded'] | None
    #: What disputes of its payment took back (Stripe closed them lost), in integer minor units of
    #: `currency` (cents)
    amount_lost_minor: int
    #: Items then tax lines (one invoice only, not in lists)
    lines: NotRequired[list[InvoiceLine]]


class InvoiceLine(TypedDict):
    kind: Literal['item', 'tax']
    description: str
    quantity: int
    #: The price of one, in integer minor units of `currency` (cents)
    unit_amount_minor: int
    #: quantity × unit amount; for a tax line, the tax, in integer minor units of `currency`
    #: (cents)
    amount_minor: int
    #: Tax lines: the rate in basis points (2000 = 20 %)
    tax_rate_bps: int | None
    #: Tax lines: the amount the rate applies to
    taxable_minor: int | None


class InvoicesGetResult(TypedDict):
    id: int
    #: Assigned at finalization, gapless per year: <prefix>-<year>-<sequence>
    number: str
    status: Literal['open', 'paid', 'void', 'uncollectible']
    currency: str
    #: Before tax, in integer minor units of `currency` (cents)
    subtotal_minor: int
    #: Tax, in integer minor units of `currency` (cents)
    tax_minor: int
    #: What is owed: subtotal + tax, in integer minor units of `currency` (cents)
    total_minor: int
    period_start: str | None
    period_end: str | None
    subscription_id: int | None
    provider: str
    #: ISO 8601 UTC
    finalized_at: str
    #: ISO 8601 UTC
    due_at: str
    paid_at: str | None
    voided_at: str | None
    marked_uncollectible_at: str | None
    #: When the provider last failed to collect it (a declined card); it stays open
    payment_failed_at: str | None
    #: The provider's reason for that failure
    payment_failure: str | None
    #: Who it is billed to: the team's billing profile as it was when the invoice was finalized (a
    #: later change of the profile does not change it); null: the team had none then
    customer: BillingCustomer | None
    #: What the tax needs said on the invoice when its tax is 0 % because of where the customer is:
    #: the EU reverse-charge note, or that VAT does not apply outside the EU
    tax_note: str | None
    #: What its credit notes credit, tax included (never above the total), in integer minor units
    #: of `currency` (cents)
    amount_credited_minor: int
    #: A paid invoice with credit notes: `refunded` when they credit its whole total, else
    #: `partially_refunded`; null without any (the invoice stays `paid` either way)
    refund_state: Literal['partially_refunded', 'refunded'] | None
    #: What disputes of its payment took back (Stripe closed them lost), in integer minor units of
    #: `currency` (cents)
    amount_lost_minor: int
    #: Items then tax lines (one invoice only, not in lists)
    lines: NotRequired[list[InvoiceLine]]
    #: The dunning attempts made on this invoice since it became overdue, oldest first
    dunning_attempts: list[DunningAttempt]
    #: When the next dunning attempt is due; null once the invoice is settled, its subscription is
    #: unpaid or ended, or the schedule is used up
    next_attempt_at: str | None
    #: Its credit notes, oldest first
    credit_notes: list[CreditNote]
    #: Disputes of its payment Stripe reported (chargebacks), oldest first
    disputes: list[Dispute]


class InvoicesListAllItem(TypedDict):
    id: int
    #: Assigned at finalization, gapless per year: <prefix>-<year>-<sequence>
    number: str
    status: Literal['open', 'paid', 'void', 'uncollectible']
    currency: str
    #: Before tax, in integer minor units of `currency` (cents)
    subtotal_minor: int
    #: Tax, in integer minor units of `currency` (cents)
    tax_minor: int
    #: What is owed: subtotal + tax, in integer minor units of `currency` (cents)
    total_minor: int
    period_start: str | None
    period_end: str | None
    subscription_id: int | None
    provider: str
    #: ISO 8601 UTC
    finalized_at: str
    #: ISO 8601 UTC
    due_at: str
    paid_at: str | None
    voided_at: str | None
    marked_uncollectible_at: str | None
    #: When the provider last failed to collect it (a declined card); it stays open
    payment_failed_at: str | None
    #: The provider's reason for that failure
    payment_failure: str | None
    #: Who it is billed to: the team's billing profile as it was when the invoice was finalized (a
    #: later change of the profile does not change it); null: the team had none then
    customer: BillingCustomer | None
    #: What the tax needs said on the invoice when its tax is 0 % because of where the customer is:
    #: the EU reverse-charge note, or that VAT does not apply outside the EU
    tax_note: str | None
    #: What its credit notes credit, tax included (never above the total), in integer minor units
    #: of `currency` (cents)
    amount_credited_minor: int
    #: A paid invoice with credit notes: `refunded` when they credit its whole total, else
    #: `partially_refunded`; null without any (the invoice stays `paid` either way)
    refund_state: Literal['partially_refunded', 'refunded'] | None
    #: What disputes of its payment took back (Stripe closed them lost), in integer minor units of
    #: `currency` (cents)
    amount_lost_minor: int
    #: Items then tax lines (one invoice only, not in lists)
    lines: NotRequired[list[InvoiceLine]]
    team_id: int


class InvoicesMarkPaidBody(TypedDict):
    #: What identifies the payment (the bank transfer's id), kept on the invoice
    reference: NotRequired[str]


class InvoicesMarkPaidResult(TypedDict):
    invoice: Invoice
    subscription: Subscription | None


class InvoicesPayResult(TypedDict):
    invoice: Invoice
    payment: Payment


class MeGetResult(TypedDict):
    user_id: int
    user_name: str
    team_id: int
    team_name: str
    role_id: int
    role_name: str
    #: Permission strings; the single entry `*` means all
    permissions: list[str]
    email: str
    two_factor_enabled: bool
    #: Staff above teams who manage the fleet (nodes); operator routes need a session, not an API
    #: token
    operator: bool


class MembersLeaveResult(TypedDict):
    user_id: int
    name: str
    email: str
    role: MembersLeaveResultRole
    status: Literal['ACTIVE', 'SUSPENDED']
    #: ISO 8601, UTC
    joined_at: str


class MembersLeaveResultRole(TypedDict):
    id: int
    name: str


class MembersListItem(TypedDict):
    user_id: int
    name: str
    email: str
    role: MembersListItemRole
    status: Literal['ACTIVE', 'SUSPENDED']
    #: ISO 8601, UTC
    joined_at: str


class MembersListItemRole(TypedDict):
    id: int
    name: str


class MembersRemoveResult(TypedDict):
    user_id: int
    name: str
    email: str
    role: MembersRemoveResultRole
    status: Literal['ACTIVE', 'SUSPENDED']
    #: ISO 8601, UTC
    joined_at: str


class MembersRemoveResultRole(TypedDict):
    id: int
    name: str


class MembersUpdateBody(TypedDict):
    #: A built-in role or one of the team's own (`GET /v1/teams/{id}/roles`)
    role_id: int


class MembersUpdateResult(TypedDict):
    user_id: int
    name: str
    email: str
    role: MembersUpdateResultRole
    status: Literal['ACTIVE', 'SUSPENDED']
    #: ISO 8601, UTC
    joined_at: str


class MembersUpdateResultRole(TypedDict):
    id: int
    name: str


class Node(TypedDict):
    id: str
    name: str
    region: str
    public_address: str
    edge_https_port: int | None
    #: `enrolling` until its agent registers and heartbeats; `online`; `offline` (online or
    #: draining, but no heartbeat for three intervals); `draining`; `disabled` (by an operator);
    #: `failed` (its latest enrollment failed: see `enrollment.error`)
    status: Literal['enrolling', 'online', 'offline', 'draining', 'disabled', 'failed']
    ssh: NodeSsh
    #: The agent's SFTP server, as its heartbeats report it; null until it listens
    sftp: NodeSftp | None
    agent_version: str | None
    protocol_version: int | None
    last_heartbeat_at: str | None
    enrolled_at: str | None
    disabled_at: str | None
    #: What the agent reported about its host when it registered
    facts: NodeFacts | None
    #: From the latest heartbeat
    metrics: NodeMetrics | None
    #: What the node may hold (placement reads it once sites exist)
    capacity: NodeCapacity
    hosts: NodeHosts
    enrollment: NodeEnrollment | None
    #: ISO 8601 UTC
    created_at: str
    #: ISO 8601 UTC
    updated_at: str


class NodeCapacity(TypedDict):
    """What the node may hold (placement reads it once sites exist)"""
    #: Most site environments placed on it
    max_sites: NotRequired[int]
    #: Disk the sites on it may use together
    disk_bytes: NotRequired[int]


class NodeEnrollment(TypedDict):
    #: The latest `node.enroll` operation: GET /v1/operations/{id} shows its steps and log
    operation_id: str
    status: Literal['queued', 'running', 'succeeded', 'failed', 'cancelled']
    error: NodeEnrollmentError | None


class NodeEnrollmentError(TypedDict):
    step: str | None
    message: str


class NodeFacts(TypedDict):
    hostname: str
    #: e.g. "Debian GNU/Linux 12 (bookworm)"
    os: str
    #: e.g. "x86_64"
    arch: str
    #: What the Docker Engine API on the configured socket reports
    docker: NodeFactsDocker


class NodeFactsDocker(TypedDict):
    """What the Docker Engine API on the configured socket reports"""
    version: str
    api_version: str


class NodeHosts(TypedDict):
    #: Site environments placed on the node (none before sites exist)
    sites: int


class NodeMetrics(TypedDict):
    cpu_percent: float
    load_average: list[float]
    memory: NodeMetricsMemory
    disk: NodeMetricsDisk
    containers: NodeMetricsContainers


class NodeMetricsContainers(TypedDict):
    running: int
    total: int


class NodeMetricsDisk(TypedDict):
    total_bytes: int
    used_bytes: int
    path: str


class NodeMetricsMemory(TypedDict):
    total_bytes: int
    used_bytes: int


class NodeSftp(TypedDict):
    port: int
    #: The SFTP server's host key, an OpenSSH public key line (for known_hosts)
    host_key: str
    #: `SHA256:...`, as ssh-keygen -l and the sftp client show it
    host_key_fingerprint: str


class NodeSsh(TypedDict):
    host: str
    port: int
    user: str
    #: The host key pinned at the first connection (`SHA256:...`, as ssh-keygen -l shows it)
    host_key_sha256: str | None
    #: Whether sealed SSH credentials are still kept (until enrollment succeeds)
    credentials_stored: bool


class NodesCreateBody(TypedDict):
    #: Unique among nodes, e.g. `fsn1-node-04`
    name: str
    #: Where the node is, e.g. `eu-central`
    region: str
    #: Where the sites on the node are reached: its public IP address or host name
    public_address: str
    #: How enrollment logs in, once. The private key or password is stored sealed (SECRET_KEY)
    #: until the node is enrolled, then erased; it is never shown again, never logged and never
    #: part of the operation.
    ssh: NodesCreateBodySsh
    #: What the node may hold (placement reads it once sites exist)
    capacity: NotRequired[NodesCreateBodyCapacity]


class NodesCreateBodyCapacity(TypedDict):
    """What the node may hold (placement reads it once sites exist)"""
    #: Most site environments placed on it
    max_sites: NotRequired[int]
    #: Disk the sites on it may use together
    disk_bytes: NotRequired[int]


class NodesCreateBodySsh(TypedDict):
    """How enrollment logs in, once. The private key or password is stored sealed (SECRET_KEY) until the node is enrolled, then erased; it is never shown again, never logged and never part of the operation.
    """
    #: Where enrollment connects over SSH
    host: str
    port: NotRequired[int]
    #: Usually `root`: the agent is installed as a systemd service
    user: str
    #: OpenSSH or PEM private key
    private_key: NotRequired[str]
    #: The private key's passphrase, if it has one
    passphrase: NotRequired[str]
    password: NotRequired[str]


class NodesEnrollBody(TypedDict):
    #: New SSH details, replacing the stored ones (the pinned host key is forgotten when host or
    #: port change); absent: the stored credentials
    ssh: NotRequired[NodesEnrollBodySsh]


class NodesEnrollBodySsh(TypedDict):
    """New SSH details, replacing the stored ones (the pinned host key is forgotten when host or port change); absent: the stored credentials
    """
    #: Where enrollment connects over SSH
    host: str
    port: NotRequired[int]
    #: Usually `root`: the agent is installed as a systemd service
    user: str
    #: OpenSSH or PEM private key
    private_key: NotRequired[str]
    #: The private key's passphrase, if it has one
    passphrase: NotRequired[str]
    password: NotRequired[str]


class NodesUpdateBody(TypedDict):
    #: Unique among nodes, e.g. `fsn1-node-04`
    name: NotRequired[str]
    #: Where the node is, e.g. `eu-central`
    region: NotRequired[str]
    public_address: NotRequired[str]
    #: Replaces the whole capacity object
    capacity: NotRequired[NodesUpdateBodyCapacity]
    #: The host port the node's edge serves HTTPS on (443 on a real node), null for none; needed
    #: before a site there gets a certificate
    edge_https_port: NotRequired[int | None]
    #: `draining` (from online): no new sites, the ones it has stay. `online` (from draining, or
    #: from disabled once enrolled). `disabled` (from any status): its agent is refused from its
    #: next request on. Other moves answer 409.
    status: NotRequired[Literal['online', 'draining', 'disabled']]


class NodesUpdateBodyCapacity(TypedDict):
    """Replaces the whole capacity object"""
    #: Most site environments placed on it
    max_sites: NotRequired[int]
    #: Disk the sites on it may use together
    disk_bytes: NotRequired[int]


class Operation(TypedDict):
    id: str
    kind: str
    status: Literal['queued', 'running', 'succeeded', 'failed', 'cancelled']
    progress: int
    target: OperationTarget
    #: The parameters the operation was started with (never secrets)
    input: dict[str, Any]
    #: What the operation produced, once succeeded
    result: Any
    error: OperationError | None
    steps: list[OperationStep]
    #: How many times a worker has started it (retries and resumptions included)
    attempts: int
    created_by_user_id: int | None
    #: ISO 8601 UTC
    created_at: str
    started_at: str | None
    finished_at: str | None
    deadline_at: str | None
    cancel_requested_at: str | None
    #: Why it is not moving, for a queued operation (or a running one whose step waits on a node);
    #: null otherwise, and in the 202 answer that starts it
    waiting: OperationWaiting | None


class OperationChangedEvent(TypedDict):
    #: The `id:` line: increasing; send it back as Last-Event-ID to resume after it
    id: int
    event: Literal['operation']
    data: OperationEventOperation


class OperationDetail(TypedDict):
    id: str
    kind: str
    status: Literal['queued', 'running', 'succeeded', 'failed', 'cancelled']
    progress: int
    target: OperationDetailTarget
    #: The parameters the operation was started with (never secrets)
    input: dict[str, Any]
    #: What the operation produced, once succeeded
    result: Any
    error: OperationDetailError | None
    steps: list[OperationStep]
    #: How many times a worker has started it (retries and resumptions included)
    attempts: int
    created_by_user_id: int | None
    #: ISO 8601 UTC
    created_at: str
    started_at: str | None
    finished_at: str | None
    deadline_at: str | None
    cancel_requested_at: str | None
    #: Why it is not moving, for a queued operation (or a running one whose step waits on a node);
    #: null otherwise, and in the 202 answer that starts it
    waiting: OperationWaiting | None
    #: The last 50 log lines, oldest first
    logs: list[OperationDetailLogsItem]


class OperationDetailError(TypedDict):
    #: The step that failed
    step: str | None
    message: str
    exit_code: NotRequired[int | None]
    #: The last lines the failing command wrote to stderr
    stderr_tail: NotRequired[str | None]


class OperationDetailLogsItem(TypedDict):
    step: str | None
    stream: Literal['info', 'stdout', 'stderr']
    line: str
    #: ISO 8601 UTC
    created_at: str


class OperationDetailTarget(TypedDict):
    type: str
    id: str


class OperationEndEvent(TypedDict):
    #: No `id:` line
    id: None
    event: Literal['end']
    data: OperationEventEnd


class OperationError(TypedDict):
    #: The step that failed
    step: str | None
    message: str
    exit_code: NotRequired[int | None]
    #: The last lines the failing command wrote to stderr
    stderr_tail: NotRequired[str | None]


class OperationEventEnd(TypedDict):
    """The operation has ended and every event up to its end was sent; the server closes the stream"""
    operation_id: str
    status: Literal['succeeded', 'failed', 'cancelled', 'deleted']


class OperationEventLog(TypedDict):
    """One log line of the operation"""
    operation_id: str
    step: str | None
    stream: Literal['info', 'stdout', 'stderr']
    line: str
    #: ISO 8601 UTC
    created_at: str


class OperationEventOperation(TypedDict):
    """The operation as it stands after the change (created, status, progress, error)"""
    id: str
    kind: str
    status: Literal['queued', 'running', 'succeeded', 'failed', 'cancelled']
    progress: int
    target: OperationEventOperationTarget
    error: OperationEventOperationError | None
    started_at: str | None
    finished_at: str | None
    cancel_requested_at: str | None


class OperationEventOperationError(TypedDict):
    #: The step that failed
    step: str | None
    message: str
    exit_code: NotRequired[int | None]
    #: The last lines the failing command wrote to stderr
    stderr_tail: NotRequired[str | None]


class OperationEventOperationTarget(TypedDict):
    type: str
    id: str


class OperationEventStep(TypedDict):
    """A step's new status"""
    operation_id: str
    name: str
    #: Its place in the operation, from 0
    position: int
    status: Literal['pending', 'running', 'succeeded', 'failed', 'cancelled']
    attempts: int
    started_at: str | None
    finished_at: str | None


class OperationLogEvent(TypedDict):
    #: The `id:` line: increasing; send it back as Last-Event-ID to resume after it
    id: int
    event: Literal['log']
    data: OperationEventLog


class OperationStep(TypedDict):
    name: str
    status: Literal['pending', 'running', 'succeeded', 'failed', 'cancelled']
    #: Whether a cancel request is honoured (before the next step) while this step runs
    cancellable: bool
    attempts: int
    started_at: str | None
    finished_at: str | None


class OperationStepEvent(TypedDict):
    #: The `id:` line: increasing; send it back as Last-Event-ID to resume after it
    id: int
    event: Literal['step']
    data: OperationEventStep


class OperationTarget(TypedDict):
    type: str
    id: str


class OperationWaiting(TypedDict):
    #: `waiting_turn`: another operation on the same resource runs or is older (`blocked_by`);
    #: `no_worker`: no worker is connected to the queue; `worker_busy`: its job waits for a free
    #: worker (`position` jobs ahead); `retry_backoff`: it failed and is retried after a pause
    #: (`until`); `not_enqueued`: its job is not in the queue, the sweeper enqueues it again;
    #: `node_offline` (running): the step waits for a node (`blocked_by`) whose last heartbeat
    #: (`since`) is older than the offline threshold
    reason: Literal['waiting_turn', 'no_worker', 'worker_busy', 'retry_backoff', 'not_enqueued', 'node_offline']
    #: The reason in a sentence
    message: str
    since: str | None
    until: str | None
    position: int | None
    #: The operation (waiting_turn) or node (node_offline) it waits for
    blocked_by: str | None


class Pagination(TypedDict):
    page: int
    page_size: int
    #: Items in all pages
    total: int
    total_pages: int


class Payment(TypedDict):
    outcome: Literal['paid', 'pending']
    instructions: str | None
    #: The Stripe provider only
    stripe: NotRequired[PaymentStripe]


class PaymentStripe(TypedDict):
    """The Stripe provider only"""
    #: The PaymentIntent made for the invoice
    payment_intent: str
    #: For Stripe.js (`stripe.confirmPayment`) in the paying customer's browser; not to be stored
    #: or logged. Null in an Idempotency-Key replay (the replay cache never keeps it): `POST
    #: /v1/billing/invoices/{id}/pay` gives it again
    client_secret: str | None


class PermissionsListResultItem(TypedDict):
    #: `<resource>:<action>`, or `<resource>:*` when a built-in role grants every action of a
    #: resource
    permission: str
    description: NotRequired[str]
    #: `METHOD /v1/path` of every route this permission lets through
    routes: list[str]
    #: Whether a route checks it yet; false for a permission only a built-in role names so far
    checked: bool
    #: The built-in roles that grant it
    roles: list[str]


class PhpVersions(TypedDict):
    versions: list[str]
    default: str


class Plan(TypedDict):
    id: int
    code: str
    name: str
    #: The price per interval before tax, in integer minor units of `currency` (cents)
    price_minor: int
    currency: str
    interval: Literal['month', 'year']
    entitlements: PlanEntitlements
    #: Free days of a team's first subscription to it (0: none)
    trial_days: int
    active: bool
    #: ISO 8601 UTC
    updated_at: str


class PlanEntitlements(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class PlansCreateBody(TypedDict):
    #: What teams choose, and what `GET /v1/entitlements` shows as `plan`
    code: str
    name: str
    #: The price per interval before tax, in minor units
    price_minor: int
    #: ISO 4217, e.g. EUR
    currency: str
    interval: Literal['month', 'year']
    max_sites: int
    max_disk_bytes: int
    #: The memory cap of each environment's container
    environment_memory_bytes: int
    #: Each environment's CPU in thousandths of a core
    environment_cpu_millicores: int
    #: Scheduled backups kept per environment
    backups_scheduled_keep: int
    #: Manual backups kept per environment
    backups_manual_keep: int
    #: Days of a team's first subscription to this plan that are free (0: no trial)
    trial_days: NotRequired[int]
    #: Inactive plans cannot be chosen; subscriptions to them continue
    active: NotRequired[bool]


class PlansUpdateBody(TypedDict):
    name: NotRequired[str]
    #: The price per interval before tax, in minor units
    price_minor: NotRequired[int]
    #: ISO 4217, e.g. EUR
    currency: NotRequired[str]
    interval: NotRequired[Literal['month', 'year']]
    max_sites: NotRequired[int]
    max_disk_bytes: NotRequired[int]
    #: The memory cap of each environment's container
    environment_memory_bytes: NotRequired[int]
    #: Each environment's CPU in thousandths of a core
    environment_cpu_millicores: NotRequired[int]
    #: Scheduled backups kept per environment
    backups_scheduled_keep: NotRequired[int]
    #: Manual backups kept per environment
    backups_manual_keep: NotRequired[int]
    #: Days of a team's first subscription to this plan that are free (0: no trial)
    trial_days: NotRequired[int]
    #: Inactive plans cannot be chosen; subscriptions to them continue
    active: NotRequired[bool]


class Plugin(TypedDict):
    #: Its main file, e.g. `akismet/akismet.php`
    plugin: str
    #: Its directory (or single-file) name: how paths name it
    slug: str
    name: str
    version: str
    active: bool


class PluginsActivateResult(TypedDict):
    environment: Environment
    operation: Operation


class PluginsDeactivateResult(TypedDict):
    environment: Environment
    operation: Operation


class PluginsDeleteResult(TypedDict):
    environment: Environment
    operation: Operation


class PluginsInstallBody(TypedDict):
    #: A zip uploaded with POST /v1/uploads (uploads last 24 hours)
    upload_id: str
    #: Activate it once installed
    activate: NotRequired[bool]
    #: Replace an installed one of the same directory (an update); otherwise that is a failure
    overwrite: NotRequired[bool]


class PluginsInstallResult(TypedDict):
    environment: Environment
    operation: Operation


class ResponseMeta(TypedDict):
    #: ISO 8601 UTC
    timestamp: str
    #: Also the X-Request-Id header: quote it to support
    request_id: str


class RolesCreateBody(TypedDict):
    #: 1 to 50 characters; unique in the team whatever the case, and not the name of a built-in
    #: role
    name: str
    #: Up to 500 characters
    description: NotRequired[str]
    #: Grants: exact (`sites:read`), `<resource>:*` or `*`; each one held by the caller. See `GET
    #: /v1/permissions`.
    permissions: list[str]


class RolesCreateResult(TypedDict):
    id: int
    name: str
    description: str
    permissions: list[str]
    #: true: shared by every team (owner, admin, developer, billing, viewer), cannot be changed or
    #: deleted
    builtin: bool
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class RolesDeleteResult(TypedDict):
    id: int
    name: str
    description: str
    permissions: list[str]
    #: true: shared by every team (owner, admin, developer, billing, viewer), cannot be changed or
    #: deleted
    builtin: bool
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class RolesGetResult(TypedDict):
    id: int
    name: str
    description: str
    permissions: list[str]
    #: true: shared by every team (owner, admin, developer, billing, viewer), cannot be changed or
    #: deleted
    builtin: bool
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class RolesListItem(TypedDict):
    id: int
    name: str
    description: str
    permissions: list[str]
    #: true: shared by every team (owner, admin, developer, billing, viewer), cannot be changed or
    #: deleted
    builtin: bool
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class RolesUpdateBody(TypedDict):
    #: 1 to 50 characters; unique in the team whatever the case, and not the name of a built-in
    #: role
    name: NotRequired[str]
    #: Up to 500 characters
    description: NotRequired[str]
    #: Grants: exact (`sites:read`), `<resource>:*` or `*`; each one held by the caller. See `GET
    #: /v1/permissions`.
    permissions: NotRequired[list[str]]


class RolesUpdateResult(TypedDict):
    id: int
    name: str
    description: str
    permissions: list[str]
    #: true: shared by every team (owner, admin, developer, billing, viewer), cannot be changed or
    #: deleted
    builtin: bool
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class SessionsListItem(TypedDict):
    id: str
    #: The team the session acts in
    team_id: int
    team_name: str
    #: From the user agent, such as "Firefox on Linux" or "curl"
    device_label: str
    user_agent: str | None
    #: The address the server saw at sign-in
    ip: str | None
    #: ISO 8601, UTC
    created_at: str
    #: When a request last authenticated with it, to the minute
    last_seen_at: str
    #: true: the password was given but not yet the second factor
    second_factor_pending: bool
    #: The session of this very request (never true for an API-token caller)
    current: bool


class SessionsRevokeOthersResult(TypedDict):
    #: How many sessions were ended
    revoked: int


class SessionsRevokeResult(TypedDict):
    id: str
    #: ISO 8601, UTC
    revoked_at: str


class SftpConnection(TypedDict):
    #: The node's public address
    host: str
    port: int | None
    username: str
    #: An OpenSSH public key line: `<host> <host_key>` (or `[<host>]:<port> <host_key>` off port
    #: 22) is the known_hosts line
    host_key: str | None
    #: `SHA256:…`, as the sftp client shows it
    host_key_fingerprint: str | None
    #: The OpenSSH command line that connects
    command: str | None


class SftpUser(TypedDict):
    id: int
    username: str
    #: `provisioning` while an operation pushes it to the node; `failed` when that failed (its
    #: operation says why; change its credentials to try again)
    status: Literal['provisioning', 'active', 'revoked', 'failed']
    #: Whether it logs in with a password (never shown again)
    password: bool
    public_keys: list[SftpUserPublicKeysItem]
    connection: SftpConnection
    revoked_at: str | None
    created_at: str
    updated_at: str


class SftpUserPublicKeysItem(TypedDict):
    type: str
    fingerprint: str
    comment: str | None


class SftpUsersCreateBody(TypedDict):
    #: 3 to 32 characters: a lower-case letter, then lower-case letters, digits, `-` or `_`; unique
    #: across Berth. Default: `<site-slug>-<env>-<4 random>`
    username: NotRequired[str]
    #: 8 to 128 characters
    password: NotRequired[str]
    #: Generate a password (24 characters), shown once in the answer. The default when neither
    #: `password` nor `public_keys` is given
    generate_password: NotRequired[bool]
    public_keys: NotRequired[list[str]]


class SftpUsersCreateResult(TypedDict):
    sftp_user: SftpUser
    #: The generated password, shown this once; null when none was generated
    password: str | None
    operation: Operation


class SftpUsersDeleteResult(TypedDict):
    sftp_user: SftpUser
    operation: Operation


class SftpUsersUpdateBody(TypedDict):
    #: A new password (8 to 128 characters)
    password: NotRequired[str]
    #: Generate a new password, shown once in the answer
    generate_password: NotRequired[bool]
    #: The new list of keys, replacing the old one (`[]` removes every key; a user needs a password
    #: then)
    public_keys: NotRequired[list[str]]


class SftpUsersUpdateResult(TypedDict):
    sftp_user: SftpUser
    #: The generated password, shown this once; null when none was generated
    password: str | None
    operation: Operation


class Site(TypedDict):
    id: int
    name: str
    slug: str
    region: str
    status: Literal['creating', 'active', 'failed', 'deleting']
    environments: list[Environment]
    #: The site this one was cloned from
    cloned_from_site_id: int | None
    #: ISO 8601 UTC
    created_at: str
    #: ISO 8601 UTC
    updated_at: str


class SitesCloneBody(TypedDict):
    name: str
    #: Part of every environment's default domain (`production-<slug>.<base domain>`); from the
    #: name when absent. Unique platform-wide.
    slug: NotRequired[str]
    #: The environment of this site to copy
    source: NotRequired[Literal['production', 'staging', 'development']]


class SitesCloneResult(TypedDict):
    site: Site
    operation: Operation


class SitesCreateBody(TypedDict):
    name: str
    #: Part of every environment's default domain (`production-<slug>.<base domain>`); from the
    #: name when absent. Unique platform-wide.
    slug: NotRequired[str]
    #: Where it runs; any region with room when absent
    region: NotRequired[str]
    #: One of the PHP versions the platform offers (GET /v1/sites/php-versions)
    php_version: str
    #: The admin's password is never stored by Berth: a one-time link to set it is e-mailed to
    #: admin_email
    wordpress: SitesCreateBodyWordpress


class SitesCreateBodyWordpress(TypedDict):
    """The admin's password is never stored by Berth: a one-time link to set it is e-mailed to admin_email
    """
    title: str
    admin_user: str
    admin_email: str
    locale: NotRequired[str]


class SitesCreateResult(TypedDict):
    site: Site
    operation: Operation


class SitesDeleteResult(TypedDict):
    site: Site
    operation: Operation


class SitesUpdateBody(TypedDict):
    name: str


class StripeReceiveWebhookResult(TypedDict):
    event_id: str
    type: str
    outcome: Literal['paid', 'paid_void', 'payment_failed', 'refunded', 'refund_failed', 'disputed', 'dispute_closed', 'ignored', 'duplicate']


class Subscription(TypedDict):
    id: int
    status: Literal['incomplete', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused']
    plan: Plan
    #: A downgrade chosen during the period: the plan it renews with at `current_period_end`
    pending_plan: Plan | None
    #: Who collects its invoices: `manual` (bank transfer, marked paid by an operator)
    provider: str
    #: ISO 8601 UTC
    current_period_start: str
    #: ISO 8601 UTC
    current_period_end: str
    #: true: it ends at `current_period_end` and is not renewed
    cancel_at_period_end: bool
    canceled_at: str | None
    ended_at: str | None
    #: Why a `canceled` subscription ended: `canceled` (the team cancelled it), `trial_canceled`
    #: (cancelled during its trial, ended at the trial's end), `incomplete_expired` (its first
    #: invoice was not paid within BILLING_INCOMPLETE_EXPIRE_HOURS, 23 by default)
    ended_reason: Literal['canceled', 'trial_canceled', 'incomplete_expired'] | None
    #: Its trial, if it started with one; while `trialing` the period is the trial
    trial_start: str | None
    trial_end: str | None
    #: Every period ends at this instant plus whole months or years, on its day of month (clamped
    #: to the month's last day): the first paid period's start (a trial's end; a resumption's time)
    billing_anchor: str
    #: ISO 8601 UTC
    created_at: str


class SubscriptionAddon(TypedDict):
    code: str
    name: str
    #: The units held now (and entitled)
    quantity: int
    #: A decrease chosen during the period: the units held from `current_period_end` (0: the add-on
    #: goes then)
    pending_quantity: int | None
    #: The price of one unit per interval before tax, in integer minor units of `currency` (cents)
    unit_price_minor: int
    currency: str
    interval: Literal['month', 'year']
    #: What one unit adds to the plan's limits
    adds: SubscriptionAddonAdds
    #: false: no longer sold (it can be kept or decreased, not increased)
    active: bool


class SubscriptionAddonAdds(TypedDict):
    """What one unit adds to the plan's limits"""
    extra_sites: int
    extra_disk_bytes: int
    extra_backups_manual_keep: int
    extra_backups_scheduled_keep: int


class SubscriptionAddonsListResult(TypedDict):
    addons: list[SubscriptionAddon]
    #: The subscription's limits now: the plan's plus each add-on's `adds` × quantity (null in a
    #: state that gives none: incomplete, unpaid, canceled)
    entitlements: SubscriptionAddonsListResultEntitlements | None
    #: Its limits from `current_period_end`, with a pending plan and pending add-on quantities
    #: applied (null when it will not renew)
    entitlements_at_renewal: SubscriptionAddonsListResultEntitlementsAtRenewal | None


class SubscriptionAddonsListResultEntitlements(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class SubscriptionAddonsListResultEntitlementsAtRenewal(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class SubscriptionAddonsRemoveResult(TypedDict):
    #: The add-on as the subscription holds it now
    addon: SubscriptionAddon | None
    #: now: an increase, entitled and invoiced at once; period_end: a decrease or removal, at the
    #: renewal; unchanged: the quantity held (a pending decrease dropped)
    effective: Literal['now', 'period_end', 'unchanged']
    #: The proration invoice of an increase (null otherwise)
    invoice: Invoice | None
    #: The subscription's limits now: the plan's plus each add-on's `adds` × quantity (null in a
    #: state that gives none: incomplete, unpaid, canceled)
    entitlements: SubscriptionAddonsRemoveResultEntitlements | None
    #: Its limits from `current_period_end`, with a pending plan and pending add-on quantities
    #: applied (null when it will not renew)
    entitlements_at_renewal: SubscriptionAddonsRemoveResultEntitlementsAtRenewal | None


class SubscriptionAddonsRemoveResultEntitlements(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class SubscriptionAddonsRemoveResultEntitlementsAtRenewal(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class SubscriptionAddonsSetBody(TypedDict):
    #: The units to hold, 1 to 100 (to remove the add-on, DELETE it)
    quantity: int


class SubscriptionAddonsSetResult(TypedDict):
    #: The add-on as the subscription holds it now
    addon: SubscriptionAddon | None
    #: now: an increase, entitled and invoiced at once; period_end: a decrease or removal, at the
    #: renewal; unchanged: the quantity held (a pending decrease dropped)
    effective: Literal['now', 'period_end', 'unchanged']
    #: The proration invoice of an increase (null otherwise)
    invoice: Invoice | None
    #: The subscription's limits now: the plan's plus each add-on's `adds` × quantity (null in a
    #: state that gives none: incomplete, unpaid, canceled)
    entitlements: SubscriptionAddonsSetResultEntitlements | None
    #: Its limits from `current_period_end`, with a pending plan and pending add-on quantities
    #: applied (null when it will not renew)
    entitlements_at_renewal: SubscriptionAddonsSetResultEntitlementsAtRenewal | None


class SubscriptionAddonsSetResultEntitlements(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class SubscriptionAddonsSetResultEntitlementsAtRenewal(TypedDict):
    max_sites: int
    max_disk_bytes: int
    environment_memory_bytes: int
    environment_cpu_millicores: int
    backups_scheduled_keep: int
    backups_manual_keep: int


class SubscriptionCreateBody(TypedDict):
    #: The code of an active plan (`GET /v1/billing/plans`)
    plan: str
    #: false: no trial; the subscription starts `incomplete` with its first invoice (the team's one
    #: trial stays unused)
    trial: NotRequired[bool]


class SubscriptionCreateResult(TypedDict):
    subscription: Subscription
    invoice: Invoice | None
    payment: Payment | None


class SubscriptionResumeResult(TypedDict):
    subscription: Subscription
    invoice: Invoice
    payment: Payment


class SubscriptionUpdateBody(TypedDict):
    #: The code of an active plan (`GET /v1/billing/plans`)
    plan: str


class SubscriptionUpdateResult(TypedDict):
    subscription: Subscription
    effective: Literal['now', 'period_end', 'unchanged']
    invoice: Invoice | None


class TeamsGetResult(TypedDict):
    id: int
    name: str
    slug: str
    #: The security settings, every key with its value in force
    settings: TeamsGetResultSettings
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class TeamsGetResultSettings(TypedDict):
    """The security settings, every key with its value in force"""
    #: Sign-ins from a device the user never used need a code e-mailed to them (default true)
    new_device_approval: bool
    #: `approve` (default): a sign-in while the user has a live session on another device waits for
    #: that session's approval; `allow`: it does not
    concurrent_sessions: Literal['allow', 'approve']


class TeamsListItem(TypedDict):
    id: int
    name: str
    slug: str
    role: TeamsListItemRole
    #: The membership's status
    status: Literal['ACTIVE', 'SUSPENDED']
    #: Whether this is the team the caller acts in now
    current: bool
    #: ISO 8601, UTC
    joined_at: str


class TeamsListItemRole(TypedDict):
    id: int
    name: str


class TeamsUpdateBody(TypedDict):
    #: 1 to 100 characters
    name: NotRequired[str]
    #: 3 to 40 lower-case letters, digits or single hyphens, starting and ending with a letter or
    #: digit; unique; a few are reserved
    slug: NotRequired[str]
    #: Merged key by key into the current settings: keys left out keep their value
    settings: NotRequired[TeamsUpdateBodySettings]


class TeamsUpdateBodySettings(TypedDict):
    """Merged key by key into the current settings: keys left out keep their value"""
    #: Sign-ins from a device the user never used need a code e-mailed to them (default true)
    new_device_approval: NotRequired[bool]
    #: `approve` (default): a sign-in while the user has a live session on another device waits for
    #: that session's approval; `allow`: it does not
    concurrent_sessions: NotRequired[Literal['allow', 'approve']]


class TeamsUpdateResult(TypedDict):
    id: int
    name: str
    slug: str
    #: The security settings, every key with its value in force
    settings: TeamsUpdateResultSettings
    #: ISO 8601, UTC
    created_at: str
    #: ISO 8601, UTC
    updated_at: str


class TeamsUpdateResultSettings(TypedDict):
    """The security settings, every key with its value in force"""
    #: Sign-ins from a device the user never used need a code e-mailed to them (default true)
    new_device_approval: bool
    #: `approve` (default): a sign-in while the user has a live session on another device waits for
    #: that session's approval; `allow`: it does not
    concurrent_sessions: Literal['allow', 'approve']


class Theme(TypedDict):
    #: Its stylesheet (directory) name: how paths name it
    theme: str
    name: str
    version: str
    parent: str | None
    active: bool


class ThemesActivateResult(TypedDict):
    environment: Environment
    operation: Operation


class ThemesDeleteResult(TypedDict):
    environment: Environment
    operation: Operation


class ThemesInstallBody(TypedDict):
    #: A zip uploaded with POST /v1/uploads (uploads last 24 hours)
    upload_id: str
    #: Activate it once installed
    activate: NotRequired[bool]
    #: Replace an installed one of the same directory (an update); otherwise that is a failure
    overwrite: NotRequired[bool]


class ThemesInstallResult(TypedDict):
    environment: Environment
    operation: Operation


class Upload(TypedDict):
    #: UUID; a `files.fetch` command names it
    id: str
    filename: str
    size_bytes: int
    #: Hex SHA-256 of the bytes, as stored
    sha256: str
    #: ISO 8601 UTC
    created_at: str
    #: 24 hours after the upload; then it is deleted
    expires_at: str


class WebhookAttempt(TypedDict):
    number: int
    started_at: str
    duration_ms: int
    request: WebhookAttemptRequest
    response: WebhookAttemptResponse | None
    #: Why no answer came: refused, timed out, an internal address...
    error: str | None


class WebhookAttemptRequest(TypedDict):
    headers: dict[str, str]
    #: The first 4 KiB
    body: str


class WebhookAttemptResponse(TypedDict):
    status: int
    headers: dict[str, str]
    #: The first 4 KiB
    body: str


class WebhookDelivery(TypedDict):
    id: str
    #: The `webhook-id` sent
    event_id: str
    event_type: str
    status: Literal['pending', 'succeeded', 'failed']
    #: A redelivery or a test, asked for by a member
    manual: bool
    attempts: int
    next_attempt_at: str | None
    last_status_code: int | None
    last_error: str | None
    created_at: str
    finished_at: str | None


class WebhookDeliveryDetail(TypedDict):
    id: str
    #: The `webhook-id` sent
    event_id: str
    event_type: str
    status: Literal['pending', 'succeeded', 'failed']
    #: A redelivery or a test, asked for by a member
    manual: bool
    attempts: int
    next_attempt_at: str | None
    last_status_code: int | None
    last_error: str | None
    created_at: str
    finished_at: str | None
    attempts_log: list[WebhookAttempt]


class WebhookEndpoint(TypedDict):
    id: int
    url: str
    description: str
    event_types: list[str]
    enabled: bool
    #: Why it is disabled: by a member, it answered 410, or it failed for days
    disabled_reason: Literal['manual', 'gone', 'failing'] | None
    disabled_at: str | None
    #: The first failed attempt since its last success
    failing_since: str | None
    #: Until when the secret before the last rotation still signs
    previous_secret_expires_at: str | None
    created_at: str
    updated_at: str


class WebhookEndpointWithSecret(TypedDict):
    id: int
    url: str
    description: str
    event_types: list[str]
    enabled: bool
    #: Why it is disabled: by a member, it answered 410, or it failed for days
    disabled_reason: Literal['manual', 'gone', 'failing'] | None
    disabled_at: str | None
    #: The first failed attempt since its last success
    failing_since: str | None
    #: Until when the secret before the last rotation still signs
    previous_secret_expires_at: str | None
    created_at: str
    updated_at: str
    #: The signing secret, `whsec_…`
    secret: str


class WebhookEventType(TypedDict):
    type: str
    description: str


class WebhooksCreateBody(TypedDict):
    #: http or https URL on the public internet
    url: str
    description: NotRequired[str]
    #: Event types (`site.created`) or groups (`site.*`); empty or absent: every event
    event_types: NotRequired[list[str]]


class WebhooksGetSecretResult(TypedDict):
    secret: str


class WebhooksRotateSecretBody(TypedDict):
    #: How long the old secret keeps signing beside the new one (default 86400; 0: not at all)
    expire_previous_in_seconds: NotRequired[int]


class WebhooksUpdateBody(TypedDict):
    url: NotRequired[str]
    description: NotRequired[str]
    #: Event types (`site.created`) or groups (`site.*`); empty or absent: every event
    event_types: NotRequired[list[str]]
    #: false disables it (pending deliveries fail); true enables it again and forgets its failures
    enabled: NotRequired[bool]


class WordPressInventory(TypedDict):
    #: WordPress core
    version: str
    db_version: int
    #: The full version, e.g. 8.2.32
    php_version: str
    #: Major.minor, as in the environment's php_version
    php: str
    mysql_version: str
    home: str
    siteurl: str
    blogname: str
    locale: str
    #: The active theme
    theme: str
    plugins: list[Plugin]
    themes: list[Theme]
    #: ISO 8601 UTC: when a worker read this from the site (after each operation on it)
    checked_at: str


class WordpressCliBody(TypedDict):
    #: A WP-CLI command as typed after `wp` (a leading `wp` is dropped), split shell-style (quotes,
    #: backslashes; no expansion, no shell). Berth's subset and refusals: docs/wp-cli.md.
    command: str
    #: How long the command may run before it is stopped (the step fails).
    timeout_seconds: NotRequired[int]


class WordpressCliResult(TypedDict):
    environment: Environment
    operation: Operation


class WordpressRefreshResult(TypedDict):
    environment: Environment
    operation: Operation


class WordpressSearchReplaceBody(TypedDict):
    #: The text to find (exact, case-sensitive), also inside PHP-serialized and JSON-escaped
    #: values.
    search: str
    #: What replaces it; serialized lengths are rewritten so the data stays valid.
    replace: str
    #: Only count what would change (the default); `false` writes.
    dry_run: NotRequired[bool]
    #: Only these tables; each must be one of the site's own (its prefix), else the operation fails
    #: naming them. Default: all of them.
    tables: NotRequired[list[str]]


class WordpressSearchReplaceResult(TypedDict):
    environment: Environment
    operation: Operation

OperationEvent = OperationChangedEvent | OperationStepEvent | OperationLogEvent | OperationEndEvent


__all__ = [
    'ActivityGetResult',
    'ActivityGetResultActor',
    'ActivityGetResultTarget',
    'ActivityListItem',
    'ActivityListItemActor',
    'ActivityListItemTarget',
    'Addon',
    'AddonAdds',
    'AddonsCreateBody',
    'AddonsUpdateBody',
    'AdminCreditNote',
    'AgentEnrollBody',
    'AgentEnrollBodyFacts',
    'AgentEnrollBodyFactsDocker',
    'AgentEnrollBodyPublicKey',
    'AgentEnrollResult',
    'AgentError',
    'AgentErrorError',
    'AgentHeartbeatBody',
    'AgentHeartbeatBodyMetrics',
    'AgentHeartbeatBodyMetricsContainers',
    'AgentHeartbeatBodyMetricsDisk',
    'AgentHeartbeatBodyMetricsMemory',
    'AgentHeartbeatBodySftp',
    'AgentHeartbeatResult',
    'AgentPollCommandsResult',
    'AgentPollCommandsResultCommandsItem',
    'AgentReportProgressBody',
    'AgentReportProgressBodyLogsItem',
    'AgentReportProgressResult',
    'AgentReportResultBodyOption1',
    'AgentReportResultBodyOption2',
    'AgentReportResultBodyOption2Error',
    'AgentReportResultResult',
    'AgentShipLogsBody',
    'AgentShipLogsBodyFilesItem',
    'AgentShipLogsResult',
    'AgentUploadStreamPartResult',
    'ApiTokensCreateBody',
    'ApiTokensCreateResult',
    'ApiTokensCreateResultCreatedBy',
    'ApiTokensGetResult',
    'ApiTokensGetResultCreatedBy',
    'ApiTokensListItem',
    'ApiTokensListItemCreatedBy',
    'ApiTokensRevokeResult',
    'ApiTokensRevokeResultCreatedBy',
    'AuthError',
    'AuthLoginBody',
    'AuthLoginResult',
    'AuthUnverifiedEmailError',
    'Backup',
    'BackupSchedule',
    'BackupSchedulesCreateBody',
    'BackupSchedulesUpdateBody',
    'BackupsCreateBody',
    'BackupsCreateResult',
    'BackupsDeleteResult',
    'BackupsRestoreBody',
    'BackupsRestoreBodyNewSite',
    'BackupsRestoreResult',
    'BillingCustomer',
    'BillingProfile',
    'BillingProfileReplaceBody',
    'BrowserAuthApproveConcurrentLoginBody',
    'BrowserAuthApproveConcurrentLoginResult',
    'BrowserAuthApproveDeviceBody',
    'BrowserAuthApproveDeviceResult',
    'BrowserAuthApproveLoginBody',
    'BrowserAuthApproveLoginResult',
    'BrowserAuthChallengeDeviceBody',
    'BrowserAuthChallengeDeviceResult',
    'BrowserAuthConfirmEmailVerificationBody',
    'BrowserAuthConfirmEmailVerificationResult',
    'BrowserAuthConfirmPasswordResetBody',
    'BrowserAuthConfirmPasswordResetResult',
    'BrowserAuthDenyConcurrentLoginBody',
    'BrowserAuthDenyConcurrentLoginResult',
    'BrowserAuthDenyLoginBody',
    'BrowserAuthDenyLoginResult',
    'BrowserAuthExchangeSessionBody',
    'BrowserAuthExchangeSessionBodySessionInfo',
    'BrowserAuthExchangeSessionBodySessionInfoGeo',
    'BrowserAuthExchangeSessionResult',
    'BrowserAuthListConcurrentLoginRequestsResult',
    'BrowserAuthListConcurrentLoginRequestsResultRequestsItem',
    'BrowserAuthListLoginActivityResult',
    'BrowserAuthListLoginActivityResultActivityItem',
    'BrowserAuthListLoginActivityResultActivityItemGeo',
    'BrowserAuthListLoginActivityResultPagination',
    'BrowserAuthListTrustedDevicesResult',
    'BrowserAuthListTrustedDevicesResultDevicesItem',
    'BrowserAuthLoginBody',
    'BrowserAuthLoginResult',
    'BrowserAuthLoginResultTeamsItem',
    'BrowserAuthLogoutResult',
    'BrowserAuthMeResult',
    'BrowserAuthRefreshResult',
    'BrowserAuthRegisterFromInviteBody',
    'BrowserAuthRegisterFromInviteResult',
    'BrowserAuthRegisterOwnerBody',
    'BrowserAuthRegisterOwnerResult',
    'BrowserAuthRequestEmailVerificationBody',
    'BrowserAuthRequestEmailVerificationResult',
    'BrowserAuthRequestPasswordResetBody',
    'BrowserAuthRequestPasswordResetResult',
    'BrowserAuthRevokeTrustedDeviceBody',
    'BrowserAuthRevokeTrustedDeviceResult',
    'BrowserAuthSetupTotpResult',
    'BrowserAuthStatusResult',
    'BrowserAuthStatusResultChecks',
    'BrowserAuthUseBackupCodeBody',
    'BrowserAuthUseBackupCodeResult',
    'BrowserAuthVerifyTotpBody',
    'BrowserAuthVerifyTotpResult',
    'Certificate',
    'CertificatesIssueResult',
    'CertificatesUploadBody',
    'CertificatesUploadResult',
    'CreditNote',
    'CreditNotesCreateBody',
    'Dispute',
    'DnsRecordSet',
    'DnsRecordsCreateBody',
    'DnsRecordsListResult',
    'DnsRecordsReplaceBody',
    'DnsZone',
    'DnsZonesCreateBody',
    'Domain',
    'DomainVerification',
    'DomainsCreateBody',
    'DomainsCreateResult',
    'DomainsDeleteResult',
    'DomainsSetPrimaryBody',
    'DomainsSetPrimaryResult',
    'DomainsVerifyResult',
    'DunningAttempt',
    'Entitlements',
    'EntitlementsSetBody',
    'Environment',
    'EnvironmentHttps',
    'EnvironmentLogLine',
    'EnvironmentPageCache',
    'EnvironmentPasswordProtection',
    'EnvironmentWordpress',
    'EnvironmentsCreateBody',
    'EnvironmentsCreateResult',
    'EnvironmentsCreateResultPasswordProtection',
    'EnvironmentsDeleteResult',
    'EnvironmentsHttpsBody',
    'EnvironmentsHttpsResult',
    'EnvironmentsLogsResult',
    'EnvironmentsPageCacheBody',
    'EnvironmentsPageCacheResult',
    'EnvironmentsPasswordProtectionBody',
    'EnvironmentsPasswordProtectionResult',
    'EnvironmentsPurgePageCacheBody',
    'EnvironmentsPurgePageCacheResult',
    'EnvironmentsPushBody',
    'EnvironmentsPushResult',
    'EnvironmentsRestartResult',
    'EnvironmentsUpdateBody',
    'EnvironmentsUpdateResult',
    'Error',
    'ErrorDetails',
    'ErrorDetailsFieldsItem',
    'ErrorError',
    'InvitesCreateBody',
    'InvitesCreateResult',
    'InvitesCreateResultInvitedBy',
    'InvitesCreateResultRole',
    'InvitesListItem',
    'InvitesListItemInvitedBy',
    'InvitesListItemRole',
    'InvitesResendResult',
    'InvitesResendResultInvitedBy',
    'InvitesResendResultRole',
    'InvitesRevokeResult',
    'InvitesRevokeResultInvitedBy',
    'InvitesRevokeResultRole',
    'Invoice',
    'InvoiceLine',
    'InvoicesGetResult',
    'InvoicesListAllItem',
    'InvoicesMarkPaidBody',
    'InvoicesMarkPaidResult',
    'InvoicesPayResult',
    'MeGetResult',
    'MembersLeaveResult',
    'MembersLeaveResultRole',
    'MembersListItem',
    'MembersListItemRole',
    'MembersRemoveResult',
    'MembersRemoveResultRole',
    'MembersUpdateBody',
    'MembersUpdateResult',
    'MembersUpdateResultRole',
    'Node',
    'NodeCapacity',
    'NodeEnrollment',
    'NodeEnrollmentError',
    'NodeFacts',
    'NodeFactsDocker',
    'NodeHosts',
    'NodeMetrics',
    'NodeMetricsContainers',
    'NodeMetricsDisk',
    'NodeMetricsMemory',
    'NodeSftp',
    'NodeSsh',
    'NodesCreateBody',
    'NodesCreateBodyCapacity',
    'NodesCreateBodySsh',
    'NodesEnrollBody',
    'NodesEnrollBodySsh',
    'NodesUpdateBody',
    'NodesUpdateBodyCapacity',
    'Operation',
    'OperationChangedEvent',
    'OperationDetail',
    'OperationDetailError',
    'OperationDetailLogsItem',
    'OperationDetailTarget',
    'OperationEndEvent',
    'OperationError',
    'OperationEvent',
    'OperationEventEnd',
    'OperationEventLog',
    'OperationEventOperation',
    'OperationEventOperationError',
    'OperationEventOperationTarget',
    'OperationEventStep',
    'OperationLogEvent',
    'OperationStep',
    'OperationStepEvent',
    'OperationTarget',
    'OperationWaiting',
    'Pagination',
    'Payment',
    'PaymentStripe',
    'PermissionsListResultItem',
    'PhpVersions',
    'Plan',
    'PlanEntitlements',
    'PlansCreateBody',
    'PlansUpdateBody',
    'Plugin',
    'PluginsActivateResult',
    'PluginsDeactivateResult',
    'PluginsDeleteResult',
    'PluginsInstallBody',
    'PluginsInstallResult',
    'ResponseMeta',
    'RolesCreateBody',
    'RolesCreateResult',
    'RolesDeleteResult',
    'RolesGetResult',
    'RolesListItem',
    'RolesUpdateBody',
    'RolesUpdateResult',
    'SessionsListItem',
    'SessionsRevokeOthersResult',
    'SessionsRevokeResult',
    'SftpConnection',
    'SftpUser',
    'SftpUserPublicKeysItem',
    'SftpUsersCreateBody',
    'SftpUsersCreateResult',
    'SftpUsersDeleteResult',
    'SftpUsersUpdateBody',
    'SftpUsersUpdateResult',
    'Site',
    'SitesCloneBody',
    'SitesCloneResult',
    'SitesCreateBody',
    'SitesCreateBodyWordpress',
    'SitesCreateResult',
    'SitesDeleteResult',
    'SitesUpdateBody',
    'StripeReceiveWebhookResult',
    'Subscription',
    'SubscriptionAddon',
    'SubscriptionAddonAdds',
    'SubscriptionAddonsListResult',
    'SubscriptionAddonsListResultEntitlements',
    'SubscriptionAddonsListResultEntitlementsAtRenewal',
    'SubscriptionAddonsRemoveResult',
    'SubscriptionAddonsRemoveResultEntitlements',
    'SubscriptionAddonsRemoveResultEntitlementsAtRenewal',
    'SubscriptionAddonsSetBody',
    'SubscriptionAddonsSetResult',
    'SubscriptionAddonsSetResultEntitlements',
    'SubscriptionAddonsSetResultEntitlementsAtRenewal',
    'SubscriptionCreateBody',
    'SubscriptionCreateResult',
    'SubscriptionResumeResult',
    'SubscriptionUpdateBody',
    'SubscriptionUpdateResult',
    'TeamsGetResult',
    'TeamsGetResultSettings',
    'TeamsListItem',
    'TeamsListItemRole',
    'TeamsUpdateBody',
    'TeamsUpdateBodySettings',
    'TeamsUpdateResult',
    'TeamsUpdateResultSettings',
    'Theme',
    'ThemesActivateResult',
    'ThemesDeleteResult',
    'ThemesInstallBody',
    'ThemesInstallResult',
    'Upload',
    'WebhookAttempt',
    'WebhookAttemptRequest',
    'WebhookAttemptResponse',
    'WebhookDelivery',
    'WebhookDeliveryDetail',
    'WebhookEndpoint',
    'WebhookEndpointWithSecret',
    'WebhookEventType',
    'WebhooksCreateBody',
    'WebhooksGetSecretResult',
    'WebhooksRotateSecretBody',
    'WebhooksUpdateBody',
    'WordPressInventory',
    'WordpressCliBody',
    'WordpressCliResult',
    'WordpressRefreshResult',
    'WordpressSearchReplaceBody',
    'WordpressSearchReplaceResult',
]
