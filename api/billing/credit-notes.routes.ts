import type { Request } from 'express';
import type { Context } from '../../shared/context.ts';
import { creditInvoice, refundCreditNote } from '../../shared/domains/billing/credit-invoice.ts';
import { creditNoteDocument } from '../../shared/domains/billing/credit-note-document.ts';
import { findCreditNote, listCreditNotes } from '../../shared/domains/billing/credit-notes.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import {
  adminCreditNoteJson,
  adminCreditNoteView,
  adminCreditNotesQuery,
  creditNoteJson,
  creditNoteView,
  creditNotesDescription,
  creditNotesQuery,
  issueCreditNoteBody,
} from './credit-notes.schemas.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: creditNotesDescription };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such credit note in the caller's team", schema: errorEnvelope };
const operatorOnly = (what: string) => ({
  403: { description: "AUTHORIZATION_ERROR: an operator's API token (operator routes need a signed-in session)", schema: errorEnvelope },
  404: { description: `NOT_FOUND: no such ${what}, or the caller is not an operator`, schema: errorEnvelope },
});
const refundFailed = {
  description:
    'UPSTREAM_ERROR: the credit note is issued, but the provider refused or did not answer its refund (`refund_status: failed`); the message names the retry route',
  schema: errorEnvelope,
};

/** Credit notes and refunds of paid invoices (issue 15): operators issue them, teams read them. */
export function billingCreditNotesRoutes(ctx: Context) {
  const creditNoteIdOf = (req: Request) => pathIdOf(req, 'id', 'Credit note');
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/credit-notes',
        operationId: 'creditNotes.list',
        summary: "The team's credit notes",
        permission: 'billing:read',
        query: creditNotesQuery,
        responses: { 200: { description: 'Newest first', schema: listEnvelope(creditNoteJson) }, 403: forbidden },
      },
      async (req, res) => {
        const query = parseOrFail(creditNotesQuery, req.query);
        const { rows, total } = await listCreditNotes(
          ctx.db,
          { teamId: principalOf(res).team_id, invoiceId: query.invoice_id },
          { page: query.page, pageSize: query.page_size },
        );
        sendList(req, res, rows.map(creditNoteView), { page: query.page, pageSize: query.page_size }, total);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/credit-notes/:id',
        params: { id: rowId('credit note') },
        operationId: 'creditNotes.get',
        summary: 'One credit note',
        permission: 'billing:read',
        responses: { 200: { description: 'The credit note', schema: dataEnvelope(creditNoteJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        sendData(req, res, creditNoteView(await findCreditNote(ctx.db, principalOf(res).team_id, creditNoteIdOf(req))));
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/credit-notes/:id/pdf',
        params: { id: rowId('credit note') },
        operationId: 'creditNotes.downloadPdf',
        summary: 'One credit note as a PDF',
        permission: 'billing:read',
        responses: {
          200: {
            description: 'The credit note rendered now from its row (the same as the mailed one), `Content-Disposition: attachment`',
            binary: 'application/pdf',
          },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const { creditNote, pdf } = await creditNoteDocument(ctx.db, principalOf(res).team_id, creditNoteIdOf(req), ctx.config.billing.sellerName);
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader('Content-Disposition', `attachment; filename="${creditNote.number}.pdf"`);
        res.send(pdf);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/admin/billing/credit-notes',
        operationId: 'creditNotes.listAll',
        summary: "Every team's credit notes (operators)",
        operator: true,
        query: adminCreditNotesQuery,
        responses: {
          200: { description: 'Newest first; `refund_status` `failed` ones wait for a retry', schema: listEnvelope(adminCreditNoteJson) },
          ...operatorOnly('credit note'),
        },
      },
      async (req, res) => {
        const query = parseOrFail(adminCreditNotesQuery, req.query);
        const { rows, total } = await listCreditNotes(
          ctx.db,
          { teamId: query.team_id, invoiceId: query.invoice_id },
          { page: query.page, pageSize: query.page_size },
        );
        sendList(req, res, rows.map(adminCreditNoteView), { page: query.page, pageSize: query.page_size }, total);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/admin/billing/invoices/:id/credit-notes',
        params: { id: rowId('invoice') },
        operationId: 'creditNotes.create',
        summary: 'Credit a paid invoice, and refund it (operators)',
        operator: true,
        body: issueCreditNoteBody,
        description: `${creditNotesDescription} The credit note is committed before its refund is asked for, so a refused refund leaves it issued (502).`,
        audit: { action: 'credit_note.issued', target: 'invoice' },
        responses: {
          201: { description: 'The credit note, its refund as the provider answered', schema: dataEnvelope(adminCreditNoteJson) },
          ...operatorOnly('invoice'),
          409: {
            description:
              'CONFLICT: `details.reason` `invoice_not_paid` (only a paid invoice is credited: an open one is voided), or `credit_exceeds_invoice` (the amount is more than what is left of its total once its credit notes and lost disputes are counted)',
            schema: errorEnvelope,
          },
          502: refundFailed,
        },
      },
      async (req, res) => {
        const body = parseOrFail(issueCreditNoteBody, req.body);
        const creditNote = await creditInvoice(
          ctx,
          {
            invoiceId: pathIdOf(req, 'id', 'Invoice'),
            amountMinor: body.amount_minor,
            reason: body.reason,
            refund: body.refund,
            issuedBy: principalOf(res).user_id,
          },
          ctx.config.billing,
        );
        sendData(req, res, adminCreditNoteView(creditNote), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/admin/billing/credit-notes/:id/refund',
        params: { id: rowId('credit note') },
        operationId: 'creditNotes.retryRefund',
        summary: "Ask for a credit note's refund again (operators)",
        operator: true,
        description:
          "For a credit note whose refund `failed` (or is still `pending`): a pending one with the provider's refund id records that refund as it stands now; otherwise the refund the provider made for the note (a lost answer) is adopted, and only without one is a refund asked for, so the money goes back once.",
        audit: { action: 'credit_note.refund_retried', target: 'credit_note' },
        responses: {
          200: { description: 'The credit note, its refund as the provider answered', schema: dataEnvelope(adminCreditNoteJson) },
          ...operatorOnly('credit note'),
          409: { description: 'CONFLICT: `details.reason: refund_not_retryable`: the refund is `refunded` or `not_applicable`', schema: errorEnvelope },
          502: refundFailed,
        },
      },
      async (req, res) => {
        sendData(req, res, adminCreditNoteView(await refundCreditNote(ctx, creditNoteIdOf(req), ctx.config.billing)));
      },
    );
}
