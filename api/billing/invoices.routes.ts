import type { Request } from 'express';
import type { Context } from '../../shared/context.ts';
import { invoiceDocument } from '../../shared/domains/billing/invoice-document.ts';
import { markInvoicePaid } from '../../shared/domains/billing/invoice-payments.ts';
import { findInvoice, listInvoices, markInvoiceUncollectible, voidInvoice } from '../../shared/domains/billing/invoices.ts';
import { z } from 'zod';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { billingDescription, invoiceJson, invoiceView, markPaidBody, paymentJson, paymentView, subscriptionJson } from './billing.schemas.ts';
import { keepClientSecretOutOfReplay } from './payment-replay.ts';
import { withdrawVoidedInvoices } from '../../shared/domains/billing/withdraw-voided.ts';
import { collectInvoice } from '../../shared/domains/billing/issue-invoice.ts';
import { BillingConflict } from '../../shared/domains/billing/billing-conflict.ts';
import { subscriptionAnswer } from './subscription-view.ts';
import { dunningDescription, invoiceDunningFields, invoiceDunningView } from './dunning.schemas.ts';
import { invoiceDunning } from '../../shared/domains/billing/invoice-dunning.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { creditNotesOf } from '../../shared/domains/billing/credit-notes.ts';
import { disputesOf } from '../../shared/domains/billing/stripe/stripe-disputes.ts';
import { creditNoteView, disputeView, invoiceCreditFields } from './credit-notes.schemas.ts';
import { rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: billingDescription };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such invoice in the caller's team", schema: errorEnvelope };
const operatorOnly = {
  403: { description: "AUTHORIZATION_ERROR: an operator's API token (operator routes need a signed-in session)", schema: errorEnvelope },
  404: { description: 'NOT_FOUND: no such invoice, or the caller is not an operator', schema: errorEnvelope },
  409: { description: 'CONFLICT: the invoice is not open (`details.reason: invoice_not_open`): paid or void already', schema: errorEnvelope },
};
const invoicesQuery = pageQuery.extend({ status: z.enum(['open', 'paid', 'void', 'uncollectible']).optional().describe('Only invoices in this status') });
const adminInvoicesQuery = invoicesQuery.extend({
  team_id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a team id')
    .transform(Number)
    .optional()
    .describe("Only this team's"),
});

/** The team's invoices, and what operators do with them (issue 15). */
export function billingInvoicesRoutes(ctx: Context) {
  const invoiceIdOf = (req: Request) => pathIdOf(req, 'id', 'Invoice');
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/invoices',
        operationId: 'invoices.list',
        summary: "The team's invoices",
        permission: 'billing:read',
        query: invoicesQuery,
        responses: { 200: { description: 'Newest first, without their lines', schema: listEnvelope(invoiceJson) }, 403: forbidden },
      },
      async (req, res) => {
        const query = parseOrFail(invoicesQuery, req.query);
        const { rows, total } = await listInvoices(
          ctx.db,
          { teamId: principalOf(res).team_id, status: query.status },
          { page: query.page, pageSize: query.page_size },
        );
        sendList(req, res, rows.map(invoiceView), { page: query.page, pageSize: query.page_size }, total);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/invoices/:id',
        params: { id: rowId('invoice') },
        operationId: 'invoices.get',
        summary: 'One invoice with its lines, dunning attempts, credit notes and disputes',
        permission: 'billing:read',
        description: `${billingDescription} ${dunningDescription(ctx.config.billing.dunningScheduleDays, ctx.config.billing.unpaidAfterDays)}`,
        responses: {
          200: {
            description: 'The invoice, its items and tax lines, and its dunning so far',
            schema: dataEnvelope(invoiceJson.extend(invoiceDunningFields).extend(invoiceCreditFields)),
          },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const invoice = await findInvoice(ctx.db, principalOf(res).team_id, invoiceIdOf(req));
        sendData(req, res, {
          ...invoiceView(invoice),
          ...invoiceDunningView(await invoiceDunning(ctx.db, invoice, ctx.config.billing)),
          credit_notes: (await creditNotesOf(ctx.db, invoice.id)).map(creditNoteView),
          disputes: (await disputesOf(ctx.db, invoice.id)).map(disputeView),
        });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/invoices/:id/pdf',
        params: { id: rowId('invoice') },
        operationId: 'invoices.downloadPdf',
        summary: 'One invoice as a PDF',
        permission: 'billing:read',
        responses: {
          200: {
            description: 'The invoice rendered now from its row (the same as the mailed one), `Content-Disposition: attachment`',
            binary: 'application/pdf',
          },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const { invoice, pdf } = await invoiceDocument(ctx.db, principalOf(res).team_id, invoiceIdOf(req), ctx.config.billing.sellerName);
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader('Content-Disposition', `attachment; filename="${invoice.number}.pdf"`);
        res.send(pdf);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/billing/invoices/:id/pay',
        params: { id: rowId('invoice') },
        operationId: 'invoices.pay',
        summary: 'How to pay an open invoice',
        permission: 'billing:manage',
        description:
          "Asks the invoice's provider for the money again and answers how to pay: the transfer instructions (manual), or the Stripe " +
          'PaymentIntent and its client secret for Stripe.js (the same one on every ask). Upgrades and renewals are paid this way, and a ' +
          'choice of plan whose collection failed (502).',
        audit: { action: 'invoice.payment_requested', target: 'invoice' },
        responses: {
          200: { description: 'The invoice and how to pay it', schema: dataEnvelope(z.object({ invoice: invoiceJson, payment: paymentJson })) },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the invoice is not open (`details.reason: invoice_not_open`)', schema: errorEnvelope },
          502: { description: 'UPSTREAM_ERROR: the payment provider did not answer; ask again later', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const invoice = await findInvoice(ctx.db, principalOf(res).team_id, invoiceIdOf(req));
        if (invoice.status !== 'open')
          throw new BillingConflict('invoice_not_open', `Invoice ${invoice.number ?? invoice.id} is ${invoice.status}; only an open invoice is paid`);
        const collection = await collectInvoice(ctx, invoice, ctx.config.billing);
        keepClientSecretOutOfReplay(res);
        sendData(req, res, { invoice: invoiceView(await findInvoice(ctx.db, invoice.team_id, invoice.id)), payment: paymentView(collection) });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/admin/billing/invoices',
        operationId: 'invoices.listAll',
        summary: "Every team's invoices (operators)",
        operator: true,
        query: adminInvoicesQuery,
        responses: {
          200: {
            description: 'Newest first; `?status=open` is what waits for a payment',
            schema: listEnvelope(invoiceJson.extend({ team_id: z.number().int() })),
          },
          ...operatorOnly,
        },
      },
      async (req, res) => {
        const query = parseOrFail(adminInvoicesQuery, req.query);
        const { rows, total } = await listInvoices(ctx.db, { teamId: query.team_id, status: query.status }, { page: query.page, pageSize: query.page_size });
        sendList(
          req,
          res,
          rows.map((row) => ({ ...invoiceView(row), team_id: row.team_id })),
          { page: query.page, pageSize: query.page_size },
          total,
        );
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/billing/invoices/:id/mark-paid',
        params: { id: rowId('invoice') },
        operationId: 'invoices.markPaid',
        summary: 'Record a payment (operators)',
        operator: true,
        body: markPaidBody,
        description:
          "The manual provider's payment: the bank transfer arrived. The invoice becomes paid and, in the same transaction, its subscription `active` with its plan's limits written to the team (an `incomplete`, `past_due` or `unpaid` one; a subscription that still owes another invoice waits for that one too). An uncollectible invoice may be paid late.",
        audit: { action: 'invoice.paid', target: 'invoice' },
        responses: {
          200: {
            description: 'The invoice, and its subscription as it is now',
            schema: dataEnvelope(z.object({ invoice: invoiceJson, subscription: subscriptionJson.nullable() })),
          },
          ...operatorOnly,
        },
      },
      async (req, res) => {
        const body = parseOrFail(markPaidBody, req.body);
        const { invoice, subscription } = await markInvoicePaid(ctx.db, invoiceIdOf(req), { reference: body.reference ?? null });
        sendData(req, res, { invoice: invoiceView(invoice), subscription: subscription ? await subscriptionAnswer(ctx.db, subscription) : null });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/billing/invoices/:id/void',
        params: { id: rowId('invoice') },
        operationId: 'invoices.void',
        summary: 'Void an invoice (operators)',
        operator: true,
        description:
          'An open or uncollectible invoice issued by mistake: it is owed no more, and its payment at the provider is withdrawn (Stripe: the PaymentIntent cancelled). Its number stays used (numbers never go back).',
        audit: { action: 'invoice.voided', target: 'invoice' },
        responses: { 200: { description: 'The invoice', schema: dataEnvelope(invoiceJson) }, ...operatorOnly },
      },
      async (req, res) => {
        const invoice = await voidInvoice(ctx.db, invoiceIdOf(req));
        // whatever the customer could still pay it with is withdrawn (Stripe's PaymentIntent cancelled)
        await withdrawVoidedInvoices(ctx, ctx.config.billing, [invoice]);
        sendData(req, res, invoiceView(invoice));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/billing/invoices/:id/mark-uncollectible',
        params: { id: rowId('invoice') },
        operationId: 'invoices.markUncollectible',
        summary: 'Write an invoice off (operators)',
        operator: true,
        description: 'An open invoice that will not be paid; a late payment can still mark it paid.',
        audit: { action: 'invoice.uncollectible', target: 'invoice' },
        responses: { 200: { description: 'The invoice', schema: dataEnvelope(invoiceJson) }, ...operatorOnly },
      },
      async (req, res) => {
        const invoice = await markInvoiceUncollectible(ctx.db, invoiceIdOf(req));
        sendData(req, res, invoiceView(invoice));
      },
    );
}
