"""The `edge` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import EdgePurgePageCacheBody, EdgePurgePageCacheResult, EdgeUpdatePageCacheBody, EdgeUpdatePageCacheResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class EdgeApi:
    """`client.edge`: purge_page_cache, update_page_cache."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def purge_page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EdgePurgePageCacheBody, idempotency_key: str | None = None) -> EdgePurgePageCacheResult:
        """Purge an environment's cached pages

        `POST /v1/sites/{id}/environments/{env}/cache/purge` (edge.purgePageCache)

        Answers 202 with an `environment.cache_purge` operation that removes the cached pages at the edge: all of them, or the `paths` (exact, as requested, for every scheme and host; `/blog/*` for every page below `/blog/`). An environment whose cache is off has nothing to purge: the operation succeeds at once.

        **Permission:** `sites:cache`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['edge.purgePageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def update_page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EdgeUpdatePageCacheBody, idempotency_key: str | None = None) -> EdgeUpdatePageCacheResult:
        """Turn an environment's page cache on or off, or set its exclusions

        `PATCH /v1/sites/{id}/environments/{env}/cache` (edge.updatePageCache)

        The edge's page cache of an environment (nginx's FastCGI cache, its own directory and zone per environment): a page (200, 301, 302) is kept 10m, and every answer through PHP says `X-Cache: HIT|MISS|BYPASS|EXPIRED|…`. Never cached: methods other than GET and HEAD, any query string, `/wp-admin/`, `/wp-json/`, `/wp-login.php`, `/xmlrpc.php`, `/wp-cron.php`, feeds, `/cart/`, `/checkout/`, `/my-account/`, visitors with a `wordpress_logged_in_*`, `comment_author_*`, `wp-postpass_*`, `woocommerce_items_in_cart`, `woocommerce_cart_hash` or `wp_woocommerce_session_*` cookie, answers that set a cookie or say private/no-store/no-cache, the environment's own `exclusions`, and the platform's probes. On by default for production, off for staging and development. Pushes, restores, PHP, plugin and theme changes, certificates and domain changes purge it on their own. See docs/api/edge.md.

        The environment shows the new settings at once; the answer is 202 with an `environment.edge` operation (steps `route`: its edge file rewritten and a hot reload, `verify`: the front page through the edge, `purge_cache`: pages cached under the old settings removed).

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['edge.updatePageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


class AsyncEdgeApi:
    """`client.edge`: purge_page_cache, update_page_cache."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def purge_page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EdgePurgePageCacheBody, idempotency_key: str | None = None) -> EdgePurgePageCacheResult:
        """Purge an environment's cached pages

        `POST /v1/sites/{id}/environments/{env}/cache/purge` (edge.purgePageCache)

        Answers 202 with an `environment.cache_purge` operation that removes the cached pages at the edge: all of them, or the `paths` (exact, as requested, for every scheme and host; `/blog/*` for every page below `/blog/`). An environment whose cache is off has nothing to purge: the operation succeeds at once.

        **Permission:** `sites:cache`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['edge.purgePageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def update_page_cache(self, *, id: int, env: Literal['production', 'staging', 'development'], body: EdgeUpdatePageCacheBody, idempotency_key: str | None = None) -> EdgeUpdatePageCacheResult:
        """Turn an environment's page cache on or off, or set its exclusions

        `PATCH /v1/sites/{id}/environments/{env}/cache` (edge.updatePageCache)

        The edge's page cache of an environment (nginx's FastCGI cache, its own directory and zone per environment): a page (200, 301, 302) is kept 10m, and every answer through PHP says `X-Cache: HIT|MISS|BYPASS|EXPIRED|…`. Never cached: methods other than GET and HEAD, any query string, `/wp-admin/`, `/wp-json/`, `/wp-login.php`, `/xmlrpc.php`, `/wp-cron.php`, feeds, `/cart/`, `/checkout/`, `/my-account/`, visitors with a `wordpress_logged_in_*`, `comment_author_*`, `wp-postpass_*`, `woocommerce_items_in_cart`, `woocommerce_cart_hash` or `wp_woocommerce_session_*` cookie, answers that set a cookie or say private/no-store/no-cache, the environment's own `exclusions`, and the platform's probes. On by default for production, off for staging and development. Pushes, restores, PHP, plugin and theme changes, certificates and domain changes purge it on their own. See docs/api/edge.md.

        The environment shows the new settings at once; the answer is 202 with an `environment.edge` operation (steps `route`: its edge file rewritten and a hot reload, `verify`: the front page through the edge, `purge_cache`: pages cached under the old settings removed).

        **Permission:** `sites:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['edge.updatePageCache'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


__all__ = ['EdgeApi', 'AsyncEdgeApi']
