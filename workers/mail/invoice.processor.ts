import { mailInvoice } from '../../shared/domains/billing/invoice-mail.ts';
import type { Processor } from '../registry.ts';

export const sendInvoiceProcessor: Processor<'mail.invoice'> = async (deps, payload) => mailInvoice(deps, payload.invoiceId, deps.config.billing.sellerName);
