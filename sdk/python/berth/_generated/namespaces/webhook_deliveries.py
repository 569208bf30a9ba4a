"""The `webhook_deliveries` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import WebhookDelivery, WebhookDeliveryDetail

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class WebhookDeliveriesApi:
    """`client.webhook_deliveries`: get, list, redeliver."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self, *, webhook: int, delivery: str) -> WebhookDeliveryDetail:
        """One delivery with its attempts

        `GET /v1/webhooks/{webhook}/deliveries/{delivery}` (webhookDeliveries.get)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
            delivery: The delivery's id (a UUID)
        """
        return self._client._call(OPERATIONS['webhookDeliveries.get'], {'webhook': webhook, 'delivery': delivery})

    def list(self, *, webhook: int, page: int | None = None, page_size: int | None = None, status: Literal['pending', 'succeeded', 'failed'] | None = None, event_type: str | None = None) -> Page[WebhookDelivery]:
        """The endpoint's deliveries

        `GET /v1/webhooks/{webhook}/deliveries` (webhookDeliveries.list)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['webhookDeliveries.list'], {'webhook': webhook, 'page': page, 'page_size': page_size, 'status': status, 'event_type': event_type})

    def redeliver(self, *, webhook: int, delivery: str, idempotency_key: str | None = None) -> WebhookDelivery:
        """Send a delivery's event again

        `POST /v1/webhooks/{webhook}/deliveries/{delivery}/redeliver` (webhookDeliveries.redeliver)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
            delivery: The delivery's id (a UUID)
        """
        return self._client._call(OPERATIONS['webhookDeliveries.redeliver'], {'webhook': webhook, 'delivery': delivery}, idempotency_key=idempotency_key)


class AsyncWebhookDeliveriesApi:
    """`client.webhook_deliveries`: get, list, redeliver."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self, *, webhook: int, delivery: str) -> WebhookDeliveryDetail:
        """One delivery with its attempts

        `GET /v1/webhooks/{webhook}/deliveries/{delivery}` (webhookDeliveries.get)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
            delivery: The delivery's id (a UUID)
        """
        return await self._client._call(OPERATIONS['webhookDeliveries.get'], {'webhook': webhook, 'delivery': delivery})

    async def list(self, *, webhook: int, page: int | None = None, page_size: int | None = None, status: Literal['pending', 'succeeded', 'failed'] | None = None, event_type: str | None = None) -> Page[WebhookDelivery]:
        """The endpoint's deliveries

        `GET /v1/webhooks/{webhook}/deliveries` (webhookDeliveries.list)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['webhookDeliveries.list'], {'webhook': webhook, 'page': page, 'page_size': page_size, 'status': status, 'event_type': event_type})

    async def redeliver(self, *, webhook: int, delivery: str, idempotency_key: str | None = None) -> WebhookDelivery:
        """Send a delivery's event again

        `POST /v1/webhooks/{webhook}/deliveries/{delivery}/redeliver` (webhookDeliveries.redeliver)

        Webhooks: Berth POSTs each event of the team to its endpoints (at most 20), JSON `{type, timestamp, data}`, signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.

        **Permission:** `webhooks:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            webhook: The webhook endpoint's id
            delivery: The delivery's id (a UUID)
        """
        return await self._client._call(OPERATIONS['webhookDeliveries.redeliver'], {'webhook': webhook, 'delivery': delivery}, idempotency_key=idempotency_key)


__all__ = ['WebhookDeliveriesApi', 'AsyncWebhookDeliveriesApi']
