"""The `environments` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...binary import AsyncDownload
from ...binary import Download
from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Environment, EnvironmentsCreateBody, EnvironmentsCreateResult, EnvironmentsDeleteResult, EnvironmentsHttpsBody, EnvironmentsHttpsResult, EnvironmentsLogsResult, EnvironmentsPageCacheBody, EnvironmentsPageCacheResult, EnvironmentsPasswordProtectionBody, EnvironmentsPasswordProtectionResult, EnvironmentsPurgePageCacheBody, EnvironmentsPurgePageCacheResult, EnvironmentsPushBody, EnvironmentsPushResult, EnvironmentsRestartResult, EnvironmentsUpdateBody, EnvironmentsUpdateResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class EnvironmentsApi:
    """`client.environments`: create, delete, get, https, list, logs, logs_stream, page_cache, password_protection, purge_page_cache, push, restart, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, body: EnvironmentsCreateBody, idempotency_key: str | None = None) -> EnvironmentsCreateResult:
        """Add a staging or development environment

        `POST /v1/sites/{id}/environments` (environments.create)

        A copy of another environment of the site (`source`, production unless told) on the same node, at `<kind>-<slug>.<base domain>`: its own database, files and container, the source's files and database copied in and every mention of the source's address rewritten (PHP-serialized data kept valid). Each environment reserves disk from the plan (402 when none is left). It is password-protected at the edge (HTTP basic auth, user name = its kind, a generated password shown once in this answer).

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return self._client._call(OPERATIONS['environments.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> EnvironmentsDeleteResult:
        """Delete a staging or development environment

        `DELETE /v1/sites/{id}/environments/{env}` (environments.delete)

        Marks it `deleting` and answers 202 with the `environment.delete` operation: its edge route, container, database and user, and files go from the node, then its row. Production goes with its site (409).

        **Permission:** `sites:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.delete'], {'id': id, 'env': env}, idempotency_key=idempotency_key)

    def get(self, *, id: int, env: Literal['production', 'staging', 'development']) -> Environment:
        """One environment

        `GET /v1/sites/{id}/environments/{env}` (environments.get)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.get'], {'id': id, 'env': env})

    def https(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsHttpsBody, idempotency_key: str | None = None) -> EnvironmentsHttpsResult:
        """Force HTTPS, set HSTS

        `PATCH /v1/sites/{id}/environments/{env}/https` (environments.https)

        Forcing (the default once an installed certificate covers the address) moves WordPress's URLs (WP_HOME, WP_SITEURL and every `http://<name>` of the environment in its database, serialized data kept valid) to https, then the edge answers HTTP with 301 to `https://<primary>` (ACME challenges excepted) and HTTPS with `Strict-Transport-Security`. Turning it off stops the redirect first, then moves WordPress back.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.https'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def list(self, *, id: int, page: int | None = None, page_size: int | None = None) -> Page[Environment]:
        """The site's environments

        `GET /v1/sites/{id}/environments` (environments.list)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['environments.list'], {'id': id, 'page': page, 'page_size': page_size})

    def logs(self, *, id: int, env: Literal['production', 'staging', 'development'], file: Literal['access', 'error', 'php'], lines: int | None = None, since: str | None = None, until: str | None = None, search: str | None = None, cursor: str | None = None) -> EnvironmentsLogsResult:
        """Read an environment's access, error or PHP log

        `GET /v1/sites/{id}/environments/{env}/logs` (environments.logs)

        Lines newest first, `lines` at a time; `next_cursor` pages to older ones. `since`/`until` bound the time, `search` keeps lines containing a text. Lines arrive within a few seconds of being written and are kept 7 days, at most 100,000 per environment and file.

        **Permission:** `sites:logs`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            file: Which log: `access` (the edge's, one JSON object a line), `error` (the edge's nginx errors) or `php` (PHP's errors and warnings)
            lines: How many lines, 1 to 1000 (default 100)
            since: Only lines at or after this time (ISO 8601)
            until: Only lines before this time (ISO 8601)
            search: Only lines containing this text (plain text, not a pattern; case-insensitive)
            cursor: The previous page's `next_cursor`: the older lines after it
        """
        return self._client._call(OPERATIONS['environments.logs'], {'id': id, 'env': env, 'file': file, 'lines': lines, 'since': since, 'until': until, 'search': search, 'cursor': cursor})

    def logs_stream(self, *, id: int, env: Literal['production', 'staging', 'development'], file: Literal['access', 'error', 'php'], last_event_id: int | None = None) -> Download:
        """Follow an environment's log as Server-Sent Events (a live tail)

        `GET /v1/sites/{id}/environments/{env}/logs/stream` (environments.logsStream)

        A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one `line` event per new line of the file, as `id: <line id>`, `event: line` and `data: <JSON>` (schema `EnvironmentLogLine`), and a `: keepalive` comment every 15 s. Without a resume point it starts now. Resuming: `Last-Event-ID` (or `?last_event_id=`) sends the lines stored after that id. A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes); the client reconnects and resumes.

        **Permission:** `sites:logs`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            file: Which log: `access` (the edge's, one JSON object a line), `error` (the edge's nginx errors) or `php` (PHP's errors and warnings)
            last_event_id: Resume after this line id, as the Last-Event-ID header does (the header wins when both are sent)
        """
        return self._client._call(OPERATIONS['environments.logsStream'], {'id': id, 'env': env, 'file': file, 'last_event_id': last_event_id})

    def page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPageCacheBody, idempotency_key: str | None = None) -> EnvironmentsPageCacheResult:
        """Turn an environment's page cache on or off, or set its exclusions

        `PATCH /v1/sites/{id}/environments/{env}/cache` (environments.pageCache)

        The edge's page cache of an environment (nginx's FastCGI cache, its own directory and zone per environment): a page (200, 301, 302) is kept 10m, and every answer through PHP says `X-Cache: HIT|MISS|BYPASS|EXPIRED|…`. Never cached: methods other than GET and HEAD, any query string, `/wp-admin/`, `/wp-json/`, `/wp-login.php`, `/xmlrpc.php`, `/wp-cron.php`, feeds, `/cart/`, `/checkout/`, `/my-account/`, visitors with a `wordpress_logged_in_*`, `comment_author_*`, `wp-postpass_*`, `woocommerce_items_in_cart`, `woocommerce_cart_hash` or `wp_woocommerce_session_*` cookie, answers that set a cookie or say private/no-store/no-cache, the environment's own `exclusions`, and the platform's probes. On by default for production, off for staging and development. Pushes, restores, PHP, plugin and theme changes, certificates and domain changes purge it on their own. See docs/api/edge.md.

        The environment shows the new settings at once; the `environment.edge` operation rewrites its edge route (a hot reload), checks the front page and removes the pages cached under the old settings (`purge_cache`).

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.pageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def password_protection(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPasswordProtectionBody, idempotency_key: str | None = None) -> EnvironmentsPasswordProtectionResult:
        """Protect an environment with a password

        `PUT /v1/sites/{id}/environments/{env}/password-protection` (environments.passwordProtection)

        HTTP basic auth at the edge for every page of the environment (ACME challenges excepted). New staging and development environments start protected (their credentials are in the answer that made them). The password is stored only as a SHA-512-crypt hash.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.passwordProtection'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def purge_page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPurgePageCacheBody, idempotency_key: str | None = None) -> EnvironmentsPurgePageCacheResult:
        """Purge an environment's cached pages

        `POST /v1/sites/{id}/environments/{env}/cache/purge` (environments.purgePageCache)

        Answers 202 with an `environment.cache_purge` operation that removes the cached pages at the edge: all of them, or the `paths` (exact, as requested, for every scheme and host; `/blog/*` for every page below `/blog/`). An environment whose cache is off has nothing to purge: the operation succeeds without touching the node.

        **Permission:** `sites:cache`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.purgePageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def push(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPushBody, idempotency_key: str | None = None) -> EnvironmentsPushResult:
        """Push an environment onto another

        `POST /v1/sites/{id}/environments/{env}/push` (environments.push)

        Copies this environment's files and/or database onto `target` (staging to production, say), on the same node, and answers 202 with the `environment.push` operation on the target. Files are mirrored in place (the target keeps its own wp-config.php); the database replaces the target's in one atomic swap, then the source's address is rewritten to the target's, PHP-serialized data kept valid. The push waits for operations running on either environment. A push onto production backs production up first (a `pre_push` backup, made by the operation's first steps and kept by the plan's retention), so the push can be undone by restoring it; a push onto staging or development takes no backup.

        **Permission:** `sites:push`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.push'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def restart(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> EnvironmentsRestartResult:
        """Restart an environment's container

        `POST /v1/sites/{id}/environments/{env}/restart` (environments.restart)

        Answers 202 with an `environment.restart` operation: PHP-FPM starts afresh (its opcache emptied), then the front page is checked.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.restart'], {'id': id, 'env': env}, idempotency_key=idempotency_key)

    def update(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsUpdateBody, idempotency_key: str | None = None) -> EnvironmentsUpdateResult:
        """Change an environment's PHP version

        `PATCH /v1/sites/{id}/environments/{env}` (environments.update)

        Answers 202 with an `environment.php_change` operation: the container is recreated from that version's image; files and database stay. `php_version` changes when the new container runs.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['environments.update'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


class AsyncEnvironmentsApi:
    """`client.environments`: create, delete, get, https, list, logs, logs_stream, page_cache, password_protection, purge_page_cache, push, restart, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, body: EnvironmentsCreateBody, idempotency_key: str | None = None) -> EnvironmentsCreateResult:
        """Add a staging or development environment

        `POST /v1/sites/{id}/environments` (environments.create)

        A copy of another environment of the site (`source`, production unless told) on the same node, at `<kind>-<slug>.<base domain>`: its own database, files and container, the source's files and database copied in and every mention of the source's address rewritten (PHP-serialized data kept valid). Each environment reserves disk from the plan (402 when none is left). It is password-protected at the edge (HTTP basic auth, user name = its kind, a generated password shown once in this answer).

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
        """
        return await self._client._call(OPERATIONS['environments.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> EnvironmentsDeleteResult:
        """Delete a staging or development environment

        `DELETE /v1/sites/{id}/environments/{env}` (environments.delete)

        Marks it `deleting` and answers 202 with the `environment.delete` operation: its edge route, container, database and user, and files go from the node, then its row. Production goes with its site (409).

        **Permission:** `sites:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.delete'], {'id': id, 'env': env}, idempotency_key=idempotency_key)

    async def get(self, *, id: int, env: Literal['production', 'staging', 'development']) -> Environment:
        """One environment

        `GET /v1/sites/{id}/environments/{env}` (environments.get)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.get'], {'id': id, 'env': env})

    async def https(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsHttpsBody, idempotency_key: str | None = None) -> EnvironmentsHttpsResult:
        """Force HTTPS, set HSTS

        `PATCH /v1/sites/{id}/environments/{env}/https` (environments.https)

        Forcing (the default once an installed certificate covers the address) moves WordPress's URLs (WP_HOME, WP_SITEURL and every `http://<name>` of the environment in its database, serialized data kept valid) to https, then the edge answers HTTP with 301 to `https://<primary>` (ACME challenges excepted) and HTTPS with `Strict-Transport-Security`. Turning it off stops the redirect first, then moves WordPress back.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.https'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def list(self, *, id: int, page: int | None = None, page_size: int | None = None) -> Page[Environment]:
        """The site's environments

        `GET /v1/sites/{id}/environments` (environments.list)

        **Permission:** `sites:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['environments.list'], {'id': id, 'page': page, 'page_size': page_size})

    async def logs(self, *, id: int, env: Literal['production', 'staging', 'development'], file: Literal['access', 'error', 'php'], lines: int | None = None, since: str | None = None, until: str | None = None, search: str | None = None, cursor: str | None = None) -> EnvironmentsLogsResult:
        """Read an environment's access, error or PHP log

        `GET /v1/sites/{id}/environments/{env}/logs` (environments.logs)

        Lines newest first, `lines` at a time; `next_cursor` pages to older ones. `since`/`until` bound the time, `search` keeps lines containing a text. Lines arrive within a few seconds of being written and are kept 7 days, at most 100,000 per environment and file.

        **Permission:** `sites:logs`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            file: Which log: `access` (the edge's, one JSON object a line), `error` (the edge's nginx errors) or `php` (PHP's errors and warnings)
            lines: How many lines, 1 to 1000 (default 100)
            since: Only lines at or after this time (ISO 8601)
            until: Only lines before this time (ISO 8601)
            search: Only lines containing this text (plain text, not a pattern; case-insensitive)
            cursor: The previous page's `next_cursor`: the older lines after it
        """
        return await self._client._call(OPERATIONS['environments.logs'], {'id': id, 'env': env, 'file': file, 'lines': lines, 'since': since, 'until': until, 'search': search, 'cursor': cursor})

    async def logs_stream(self, *, id: int, env: Literal['production', 'staging', 'development'], file: Literal['access', 'error', 'php'], last_event_id: int | None = None) -> AsyncDownload:
        """Follow an environment's log as Server-Sent Events (a live tail)

        `GET /v1/sites/{id}/environments/{env}/logs/stream` (environments.logsStream)

        A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one `line` event per new line of the file, as `id: <line id>`, `event: line` and `data: <JSON>` (schema `EnvironmentLogLine`), and a `: keepalive` comment every 15 s. Without a resume point it starts now. Resuming: `Last-Event-ID` (or `?last_event_id=`) sends the lines stored after that id. A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes); the client reconnects and resumes.

        **Permission:** `sites:logs`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            file: Which log: `access` (the edge's, one JSON object a line), `error` (the edge's nginx errors) or `php` (PHP's errors and warnings)
            last_event_id: Resume after this line id, as the Last-Event-ID header does (the header wins when both are sent)
        """
        return await self._client._call(OPERATIONS['environments.logsStream'], {'id': id, 'env': env, 'file': file, 'last_event_id': last_event_id})

    async def page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPageCacheBody, idempotency_key: str | None = None) -> EnvironmentsPageCacheResult:
        """Turn an environment's page cache on or off, or set its exclusions

        `PATCH /v1/sites/{id}/environments/{env}/cache` (environments.pageCache)

        The edge's page cache of an environment (nginx's FastCGI cache, its own directory and zone per environment): a page (200, 301, 302) is kept 10m, and every answer through PHP says `X-Cache: HIT|MISS|BYPASS|EXPIRED|…`. Never cached: methods other than GET and HEAD, any query string, `/wp-admin/`, `/wp-json/`, `/wp-login.php`, `/xmlrpc.php`, `/wp-cron.php`, feeds, `/cart/`, `/checkout/`, `/my-account/`, visitors with a `wordpress_logged_in_*`, `comment_author_*`, `wp-postpass_*`, `woocommerce_items_in_cart`, `woocommerce_cart_hash` or `wp_woocommerce_session_*` cookie, answers that set a cookie or say private/no-store/no-cache, the environment's own `exclusions`, and the platform's probes. On by default for production, off for staging and development. Pushes, restores, PHP, plugin and theme changes, certificates and domain changes purge it on their own. See docs/api/edge.md.

        The environment shows the new settings at once; the `environment.edge` operation rewrites its edge route (a hot reload), checks the front page and removes the pages cached under the old settings (`purge_cache`).

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.pageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def password_protection(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPasswordProtectionBody, idempotency_key: str | None = None) -> EnvironmentsPasswordProtectionResult:
        """Protect an environment with a password

        `PUT /v1/sites/{id}/environments/{env}/password-protection` (environments.passwordProtection)

        HTTP basic auth at the edge for every page of the environment (ACME challenges excepted). New staging and development environments start protected (their credentials are in the answer that made them). The password is stored only as a SHA-512-crypt hash.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.passwordProtection'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def purge_page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPurgePageCacheBody, idempotency_key: str | None = None) -> EnvironmentsPurgePageCacheResult:
        """Purge an environment's cached pages

        `POST /v1/sites/{id}/environments/{env}/cache/purge` (environments.purgePageCache)

        Answers 202 with an `environment.cache_purge` operation that removes the cached pages at the edge: all of them, or the `paths` (exact, as requested, for every scheme and host; `/blog/*` for every page below `/blog/`). An environment whose cache is off has nothing to purge: the operation succeeds without touching the node.

        **Permission:** `sites:cache`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.purgePageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def push(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsPushBody, idempotency_key: str | None = None) -> EnvironmentsPushResult:
        """Push an environment onto another

        `POST /v1/sites/{id}/environments/{env}/push` (environments.push)

        Copies this environment's files and/or database onto `target` (staging to production, say), on the same node, and answers 202 with the `environment.push` operation on the target. Files are mirrored in place (the target keeps its own wp-config.php); the database replaces the target's in one atomic swap, then the source's address is rewritten to the target's, PHP-serialized data kept valid. The push waits for operations running on either environment. A push onto production backs production up first (a `pre_push` backup, made by the operation's first steps and kept by the plan's retention), so the push can be undone by restoring it; a push onto staging or development takes no backup.

        **Permission:** `sites:push`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.push'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def restart(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> EnvironmentsRestartResult:
        """Restart an environment's container

        `POST /v1/sites/{id}/environments/{env}/restart` (environments.restart)

        Answers 202 with an `environment.restart` operation: PHP-FPM starts afresh (its opcache emptied), then the front page is checked.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.restart'], {'id': id, 'env': env}, idempotency_key=idempotency_key)

    async def update(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EnvironmentsUpdateBody, idempotency_key: str | None = None) -> EnvironmentsUpdateResult:
        """Change an environment's PHP version

        `PATCH /v1/sites/{id}/environments/{env}` (environments.update)

        Answers 202 with an `environment.php_change` operation: the container is recreated from that version's image; files and database stay. `php_version` changes when the new container runs.

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['environments.update'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


__all__ = ['EnvironmentsApi', 'AsyncEnvironmentsApi']
