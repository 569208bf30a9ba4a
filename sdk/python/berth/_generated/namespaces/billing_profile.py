"""The `billing_profile` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..operations import OPERATIONS
from ..models import BillingProfile, BillingProfileReplaceBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class BillingProfileApi:
    """`client.billing_profile`: get, replace."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self) -> BillingProfile:
        """The team's billing profile

        `GET /v1/billing/profile` (billingProfile.get)

        Who the team's invoices and credit notes are made out to and where they are mailed. Each invoice keeps the details it was taxed and finalized with (a credit note shows its invoice's): a change applies to invoices issued from then on. The country and VAT id decide the tax when the platform's seller is in an EU country (BILLING_SELLER_COUNTRY): a team outside the EU is charged 0 % and its invoices say "VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)"; a team in another EU country with a VAT id is charged 0 % and its invoices say "Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)"; otherwise (and always when the seller is not in the EU) the platform's rate applies. Text fields must not contain the NUL character (422 naming the field).

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['billingProfile.get'], {})

    def replace(self, *, body: BillingProfileReplaceBody, idempotency_key: str | None = None) -> BillingProfile:
        """Give or replace the team's billing profile

        `PUT /v1/billing/profile` (billingProfile.replace)

        Who the team's invoices and credit notes are made out to and where they are mailed. Each invoice keeps the details it was taxed and finalized with (a credit note shows its invoice's): a change applies to invoices issued from then on. The country and VAT id decide the tax when the platform's seller is in an EU country (BILLING_SELLER_COUNTRY): a team outside the EU is charged 0 % and its invoices say "VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)"; a team in another EU country with a VAT id is charged 0 % and its invoices say "Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)"; otherwise (and always when the seller is not in the EU) the platform's rate applies. Text fields must not contain the NUL character (422 naming the field).

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['billingProfile.replace'], {}, body=body, idempotency_key=idempotency_key)


class AsyncBillingProfileApi:
    """`client.billing_profile`: get, replace."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self) -> BillingProfile:
        """The team's billing profile

        `GET /v1/billing/profile` (billingProfile.get)

        Who the team's invoices and credit notes are made out to and where they are mailed. Each invoice keeps the details it was taxed and finalized with (a credit note shows its invoice's): a change applies to invoices issued from then on. The country and VAT id decide the tax when the platform's seller is in an EU country (BILLING_SELLER_COUNTRY): a team outside the EU is charged 0 % and its invoices say "VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)"; a team in another EU country with a VAT id is charged 0 % and its invoices say "Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)"; otherwise (and always when the seller is not in the EU) the platform's rate applies. Text fields must not contain the NUL character (422 naming the field).

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['billingProfile.get'], {})

    async def replace(self, *, body: BillingProfileReplaceBody, idempotency_key: str | None = None) -> BillingProfile:
        """Give or replace the team's billing profile

        `PUT /v1/billing/profile` (billingProfile.replace)

        Who the team's invoices and credit notes are made out to and where they are mailed. Each invoice keeps the details it was taxed and finalized with (a credit note shows its invoice's): a change applies to invoices issued from then on. The country and VAT id decide the tax when the platform's seller is in an EU country (BILLING_SELLER_COUNTRY): a team outside the EU is charged 0 % and its invoices say "VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)"; a team in another EU country with a VAT id is charged 0 % and its invoices say "Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)"; otherwise (and always when the seller is not in the EU) the platform's rate applies. Text fields must not contain the NUL character (422 naming the field).

        **Permission:** `billing:manage`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['billingProfile.replace'], {}, body=body, idempotency_key=idempotency_key)


__all__ = ['BillingProfileApi', 'AsyncBillingProfileApi']
