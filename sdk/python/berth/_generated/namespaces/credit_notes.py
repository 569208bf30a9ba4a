"""The `credit_notes` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...binary import AsyncDownload
from ...binary import Download
from ...pagination import Page
from ..operations import OPERATIONS
from ..models import AdminCreditNote, CreditNote, CreditNotesCreateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class CreditNotesApi:
    """`client.credit_notes`: create, download_pdf, get, list, list_all, retry_refund."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, body: CreditNotesCreateBody, idempotency_key: str | None = None) -> AdminCreditNote:
        """Credit a paid invoice, and refund it (operators)

        `POST /v1/admin/billing/invoices/{id}/credit-notes` (creditNotes.create)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members. The credit note is committed before its refund is asked for, so a refused refund leaves it issued (502).

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return self._client._call(OPERATIONS['creditNotes.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def download_pdf(self, *, id: int) -> Download:
        """One credit note as a PDF

        `GET /v1/billing/credit-notes/{id}/pdf` (creditNotes.downloadPdf)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The credit note's id
        """
        return self._client._call(OPERATIONS['creditNotes.downloadPdf'], {'id': id})

    def get(self, *, id: int) -> CreditNote:
        """One credit note

        `GET /v1/billing/credit-notes/{id}` (creditNotes.get)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The credit note's id
        """
        return self._client._call(OPERATIONS['creditNotes.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None, invoice_id: int | None = None) -> Page[CreditNote]:
        """The team's credit notes

        `GET /v1/billing/credit-notes` (creditNotes.list)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            invoice_id: Only this invoice's
        """
        return self._client._call(OPERATIONS['creditNotes.list'], {'page': page, 'page_size': page_size, 'invoice_id': invoice_id})

    def list_all(self, *, page: int | None = None, page_size: int | None = None, invoice_id: int | None = None, team_id: int | None = None) -> Page[AdminCreditNote]:
        """Every team's credit notes (operators)

        `GET /v1/admin/billing/credit-notes` (creditNotes.listAll)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            invoice_id: Only this invoice's
            team_id: Only this team's
        """
        return self._client._call(OPERATIONS['creditNotes.listAll'], {'page': page, 'page_size': page_size, 'invoice_id': invoice_id, 'team_id': team_id})

    def retry_refund(self, *, id: int, idempotency_key: str | None = None) -> AdminCreditNote:
        """Ask for a credit note's refund again (operators)

        `POST /v1/admin/billing/credit-notes/{id}/refund` (creditNotes.retryRefund)

        For a credit note whose refund `failed` (or is still `pending`): a pending one with the provider's refund id records that refund as it stands now; otherwise the refund the provider made for the note (a lost answer) is adopted, and only without one is a refund asked for, so the money goes back once.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The credit note's id
        """
        return self._client._call(OPERATIONS['creditNotes.retryRefund'], {'id': id}, idempotency_key=idempotency_key)


class AsyncCreditNotesApi:
    """`client.credit_notes`: create, download_pdf, get, list, list_all, retry_refund."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, body: CreditNotesCreateBody, idempotency_key: str | None = None) -> AdminCreditNote:
        """Credit a paid invoice, and refund it (operators)

        `POST /v1/admin/billing/invoices/{id}/credit-notes` (creditNotes.create)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members. The credit note is committed before its refund is asked for, so a refused refund leaves it issued (502).

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The invoice's id
        """
        return await self._client._call(OPERATIONS['creditNotes.create'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def download_pdf(self, *, id: int) -> AsyncDownload:
        """One credit note as a PDF

        `GET /v1/billing/credit-notes/{id}/pdf` (creditNotes.downloadPdf)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The credit note's id
        """
        return await self._client._call(OPERATIONS['creditNotes.downloadPdf'], {'id': id})

    async def get(self, *, id: int) -> CreditNote:
        """One credit note

        `GET /v1/billing/credit-notes/{id}` (creditNotes.get)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The credit note's id
        """
        return await self._client._call(OPERATIONS['creditNotes.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None, invoice_id: int | None = None) -> Page[CreditNote]:
        """The team's credit notes

        `GET /v1/billing/credit-notes` (creditNotes.list)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Permission:** `billing:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            invoice_id: Only this invoice's
        """
        return await self._client._call(OPERATIONS['creditNotes.list'], {'page': page, 'page_size': page_size, 'invoice_id': invoice_id})

    async def list_all(self, *, page: int | None = None, page_size: int | None = None, invoice_id: int | None = None, team_id: int | None = None) -> Page[AdminCreditNote]:
        """Every team's credit notes (operators)

        `GET /v1/admin/billing/credit-notes` (creditNotes.listAll)

        A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series (`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            invoice_id: Only this invoice's
            team_id: Only this team's
        """
        return await self._client._call(OPERATIONS['creditNotes.listAll'], {'page': page, 'page_size': page_size, 'invoice_id': invoice_id, 'team_id': team_id})

    async def retry_refund(self, *, id: int, idempotency_key: str | None = None) -> AdminCreditNote:
        """Ask for a credit note's refund again (operators)

        `POST /v1/admin/billing/credit-notes/{id}/refund` (creditNotes.retryRefund)

        For a credit note whose refund `failed` (or is still `pending`): a pending one with the provider's refund id records that refund as it stands now; otherwise the refund the provider made for the note (a lost answer) is adopted, and only without one is a refund asked for, so the money goes back once.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The credit note's id
        """
        return await self._client._call(OPERATIONS['creditNotes.retryRefund'], {'id': id}, idempotency_key=idempotency_key)


__all__ = ['CreditNotesApi', 'AsyncCreditNotesApi']
