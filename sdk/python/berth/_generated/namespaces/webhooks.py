"""The `webhooks` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType, WebhooksCreateBody, WebhooksGetSecretResult, WebhooksRotateSecretBody, WebhooksUpdateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class WebhooksApi:
    """`client.webhooks`: create, delete, get, get_secret, list, list_event_types, rotate_secret, send_test, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, body: WebhooksCreateBody, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Add a webhook endpoint

        `POST /v1/webhooks` (webhooks.create)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['webhooks.create'], {}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, webhook: int, idempotency_key: str | None = None) -> None:
        """Remove a webhook endpoint and its delivery log

        `DELETE /v1/webhooks/{webhook}` (webhooks.delete)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return self._client._call(OPERATIONS['webhooks.delete'], {'webhook': webhook}, idempotency_key=idempotency_key)

    def get(self, *, webhook: int) -> WebhookEndpoint:
        """One webhook endpoint

        `GET /v1/webhooks/{webhook}` (webhooks.get)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return self._client._call(OPERATIONS['webhooks.get'], {'webhook': webhook})

    def get_secret(self, *, webhook: int) -> WebhooksGetSecretResult:
        """The endpoint's signing secret

        `GET /v1/webhooks/{webhook}/secret` (webhooks.getSecret)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return self._client._call(OPERATIONS['webhooks.getSecret'], {'webhook': webhook})

    def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[WebhookEndpoint]:
        """The team's webhook endpoints

        `GET /v1/webhooks` (webhooks.list)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['webhooks.list'], {'page': page, 'page_size': page_size})

    def list_event_types(self) -> list[WebhookEventType]:
        """Every event type an endpoint can receive

        `GET /v1/webhooks/event-types` (webhooks.listEventTypes)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['webhooks.listEventTypes'], {})

    def rotate_secret(self, *, webhook: int, body: WebhooksRotateSecretBody | None = None, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Replace the signing secret

        `POST /v1/webhooks/{webhook}/rotate-secret` (webhooks.rotateSecret)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return self._client._call(OPERATIONS['webhooks.rotateSecret'], {'webhook': webhook}, body=body, idempotency_key=idempotency_key)

    def send_test(self, *, webhook: int, idempotency_key: str | None = None) -> WebhookDelivery:
        """Send a test event to the endpoint

        `POST /v1/webhooks/{webhook}/test` (webhooks.sendTest)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return self._client._call(OPERATIONS['webhooks.sendTest'], {'webhook': webhook}, idempotency_key=idempotency_key)

    def update(self, *, webhook: int, body: WebhooksUpdateBody, idempotency_key: str | None = None) -> WebhookEndpoint:
        """Change, disable or enable a webhook endpoint

        `PATCH /v1/webhooks/{webhook}` (webhooks.update)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return self._client._call(OPERATIONS['webhooks.update'], {'webhook': webhook}, body=body, idempotency_key=idempotency_key)


class AsyncWebhooksApi:
    """`client.webhooks`: create, delete, get, get_secret, list, list_event_types, rotate_secret, send_test, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, body: WebhooksCreateBody, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Add a webhook endpoint

        `POST /v1/webhooks` (webhooks.create)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['webhooks.create'], {}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, webhook: int, idempotency_key: str | None = None) -> None:
        """Remove a webhook endpoint and its delivery log

        `DELETE /v1/webhooks/{webhook}` (webhooks.delete)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return await self._client._call(OPERATIONS['webhooks.delete'], {'webhook': webhook}, idempotency_key=idempotency_key)

    async def get(self, *, webhook: int) -> WebhookEndpoint:
        """One webhook endpoint

        `GET /v1/webhooks/{webhook}` (webhooks.get)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return await self._client._call(OPERATIONS['webhooks.get'], {'webhook': webhook})

    async def get_secret(self, *, webhook: int) -> WebhooksGetSecretResult:
        """The endpoint's signing secret

        `GET /v1/webhooks/{webhook}/secret` (webhooks.getSecret)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return await self._client._call(OPERATIONS['webhooks.getSecret'], {'webhook': webhook})

    async def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[WebhookEndpoint]:
        """The team's webhook endpoints

        `GET /v1/webhooks` (webhooks.list)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['webhooks.list'], {'page': page, 'page_size': page_size})

    async def list_event_types(self) -> list[WebhookEventType]:
        """Every event type an endpoint can receive

        `GET /v1/webhooks/event-types` (webhooks.listEventTypes)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['webhooks.listEventTypes'], {})

    async def rotate_secret(self, *, webhook: int, body: WebhooksRotateSecretBody | None = None, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Replace the signing secret

        `POST /v1/webhooks/{webhook}/rotate-secret` (webhooks.rotateSecret)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return await self._client._call(OPERATIONS['webhooks.rotateSecret'], {'webhook': webhook}, body=body, idempotency_key=idempotency_key)

    async def send_test(self, *, webhook: int, idempotency_key: str | None = None) -> WebhookDelivery:
        """Send a test event to the endpoint

        `POST /v1/webhooks/{webhook}/test` (webhooks.sendTest)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return await self._client._call(OPERATIONS['webhooks.sendTest'], {'webhook': webhook}, idempotency_key=idempotency_key)

    async def update(self, *, webhook: int, body: WebhooksUpdateBody, idempotency_key: str | None = None) -> WebhookEndpoint:
        """Change, disable or enable a webhook endpoint

        `PATCH /v1/webhooks/{webhook}` (webhooks.update)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
        """
        return await self._client._call(OPERATIONS['webhooks.update'], {'webhook': webhook}, body=body, idempotency_key=idempotency_key)


__all__ = ['WebhooksApi', 'AsyncWebhooksApi']
